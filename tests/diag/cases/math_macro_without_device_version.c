// expect: 13:10: error: '__builtin_isnormal' is a compiler builtin (also what <math.h>'s isnormal, fpclassify, isless, ... expand to) with no device version in CUDA; write the operation out in C
// expect: 13:28: error: '__builtin_fpclassify' is a compiler builtin (also what <math.h>'s isnormal, fpclassify, isless, ... expand to) with no device version in CUDA; write the operation out in C
// expect: 13:59: error: '__builtin_isless' is a compiler builtin (also what <math.h>'s isnormal, fpclassify, isless, ... expand to) with no device version in CUDA; write the operation out in C
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
