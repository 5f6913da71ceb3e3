// expect: 13:10: error: '__builtin_isnormal' (what a <math.h> or compiler macro here expands to: isnormal, fpclassify, isless, ...) has no device version in CUDA; write the test out (x != x, fabs(x) < INFINITY, a < b)
// expect: 13:28: error: '__builtin_fpclassify' (what a <math.h> or compiler macro here expands to: isnormal, fpclassify, isless, ...) has no device version in CUDA; write the test out (x != x, fabs(x) < INFINITY, a < b)
// expect: 13:59: error: '__builtin_isless' (what a <math.h> or compiler macro here expands to: isnormal, fpclassify, isless, ...) has no device version in CUDA; write the test out (x != x, fabs(x) < INFINITY, a < b)
// only-expected
/* <math.h> macros expand to compiler builtins in C; NAN, HUGE_VALF,
 * signbit, isfinite, isinf and isnan have CUDA device forms (no error:
 * tests/emit/cases/math_macros.c), isnormal, fpclassify and isless do not. */
#include <math.h>
long f(int n, const double *x) {
  long s = 0;
#pragma acc parallel loop copyin(x[0:n]) reduction(+:s)
  for (int i = 0; i < n; i++)
    s += isnormal(x[i]) + (fpclassify(x[i]) == FP_ZERO) + isless(x[i], 1.0) + isfinite(x[i]) + signbit(x[i]) + (x[i] == NAN);
  return s;
}
