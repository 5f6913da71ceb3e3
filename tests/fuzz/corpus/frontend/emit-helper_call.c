/* Kernels that call functions defined in the file (one calling another)
 * and math.h functions. */
#include <math.h>
#include <stdio.h>

static double sq(double v) { return v * v; }

static double smooth(double v, double w) { return sqrt(sq(v) + sq(w)) + exp(-fabs(v)); }

int main(void) {
  enum { N = 3000 };
  static double x[N], y[N];
  int n = N;
  for (int i = 0; i < n; i++)
    x[i] = (double)(i - n / 2) / 100.0;
#pragma acc parallel loop copyin(x[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = smooth(x[i], 0.5);
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += y[i];
  printf("sum %.10g\n", s);
  printf("y[0] %.10g\n", y[0]);
  printf("y[n/2] %.10g\n", y[n / 2]);
  return 0;
}
