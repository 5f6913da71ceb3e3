// expect: 7:38: error: function 'h' is called in an offload region but is not defined in this file
// mode: emit-cu
#include <math.h>
double h(double);
void f(int n, double *y) {
#pragma acc parallel loop copy(y[0:n])
  for (int i = 0; i < n; i++) y[i] = h(sqrt(y[i]));
}
