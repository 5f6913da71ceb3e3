// expect: 6:14: error: 'acc declare' in the definition of macro 'DECL'
// only-expected
/* A declare that a macro's _Pragma holds would be left out, and regions
 * would copy the data instead of finding it present: an error. */
double g[100];
#define DECL _Pragma("acc declare create(g)")
DECL
void f(void) {
#pragma acc parallel loop
  for (int i = 0; i < 100; i++) g[i] = i;
}
