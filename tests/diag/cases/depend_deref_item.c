// expect: 13:32: error: gtcc's depend items name a variable or one element (x[i]); '*' here is not supported
// only-expected
/* `*p` is a valid OpenMP depend item (an lvalue), but gtcc takes only a
 * variable or one element; the message says how to write it instead of
 * a bare parse error. */
#include <stdio.h>
int main(void) {
  double x[16] = {0};
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < 16; i++) {
    double *p = x + i;
#pragma omp task depend(inout: *p)
    *p += i;
  }
  printf("%g\n", x[5]);
  return 0;
}
