// expect: 15:5: error: 'gk' is declared extern inside code that runs on the device; declare it at file scope only
// expect: 9:3: error: 'gw' is declared extern inside code that runs on the device; declare it at file scope only
// only-expected
/* A block-scope extern declaration in a region's body or in a function a
 * region calls would name the host's variable in device code. */
#include <stdio.h>
double gk = 3.0, gw = 0.5;
static double weight(int i) {
  extern double gw;
  return gw * i;
}
void fill(int n, double *x) {
#pragma acc parallel loop copyout(x[0:n])
  for (int i = 0; i < n; i++) {
    extern double gk;
    x[i] = 2 * i + gk + weight(i);
  }
  extern double gk; /* host code: fine */
  printf("%g\n", gk);
}
