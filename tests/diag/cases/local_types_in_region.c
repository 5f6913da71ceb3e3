// expect: 20:12: error: type 'struct acc' is declared inside a function; gtcc needs types used in offload regions at file scope
// expect: 21:33: error: enumerator 'SCALE' is declared inside a function; gtcc needs enumerations used in offload regions at file scope
// only-expected
/* Types and enumerators declared in a function outside the region, spelled
 * in its body, are not in the .gt.cu. Those declared in the region's body
 * or in a called function are copied with it: no error. */
static int twice(int v) {
  typedef int half_t;
  half_t h = (half_t)v;
  return 2 * h;
}

void f(int n, int *x) {
  struct acc { int s; };
  enum { SCALE = 3 };
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) {
    typedef long inner_t;
    inner_t t = (inner_t)x[i];
    struct acc a = {1};
    x[i] = (int)t * a.s + twice(SCALE);
  }
}
