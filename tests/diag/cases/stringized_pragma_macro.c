// expect: 16:3: error: 'acc parallel loop' as the argument of macro 'DO_PRAGMA', which makes it a _Pragma: not lowered by gtcc, which would change the results
// expect: 18:3: warning: 'omp simd' as the argument of macro 'OMP', which makes it a _Pragma: not lowered by gtcc (where it stands in an offload region, its code runs sequentially)
// only-expected
/* Directives given to a macro that stringizes its argument into a _Pragma
 * (the DO_PRAGMA idiom): gtcc does not lower them, so a compute directive is
 * an error (its loop ran on the host, inside a data region whose copy-back
 * then overwrote the host's results) and a loop directive a warning. Text in
 * strings and comments, and other pragmas, are not directives. */
#include <stdio.h>
#define STR(x) #x
#define DO_PRAGMA(x) _Pragma(STR(x))
#define OMP(x) _Pragma(#x)
int main(void) {
  int n = 100; double s = 0, x[100];
  const char *t = "DO_PRAGMA(acc parallel loop)"; /* DO_PRAGMA(acc kernels) */
  DO_PRAGMA(acc parallel loop copyin(x) reduction(+:s))
  for (int i = 0; i < n; i++) s += x[i];
  OMP(omp simd)
  for (int i = 0; i < n; i++) x[i] = i;
  DO_PRAGMA(GCC ivdep)
  for (int i = 0; i < n; i++) x[i] += 1;
  printf("%g %s\n", s, t);
  return 0;
}
