// expect: 12:12: error: '_Generic' is C that CUDA C++ has no form of: gtcc cannot compile it in device code
// expect: 18:22: error: '_Complex' is C that CUDA C++ has no form of
// only-expected
/* C constructs CUDA C++ lacks, in device code: nvcc reported "identifier
 * _Generic is undefined" on the generated code. In host code they are fine. */
#include <complex.h>
#define KIND(x) _Generic((x), int: 1, double: 2, default: 0)
void f(int n, int *y, double *re) {
  double complex h = 1.0 + 2.0 * I;
#pragma acc parallel loop copyout(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = KIND(i) + KIND(1.0) * 10 + _Generic(i, int: 100, default: 0);
  re[0] = creal(h) + (double)KIND(n);
#pragma acc parallel loop copyout(re[0:n])
  for (int i = 0; i < n; i++) {
    double a = i;
    {
      double complex z = a + 2.0 * I;
      re[i] = a;
      (void)z;
    }
  }
}
