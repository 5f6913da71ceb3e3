/* Const lookup tables (a static const global and a const local array) read
 * in offload regions without data clauses: implicitly copied to the device
 * only (copying back would write read-only memory). */
#include <stdio.h>

static const unsigned lut[8] = {1, 2, 3, 5, 8, 13, 21, 34};

int main(void) {
  enum { N = 100000 };
  static unsigned out[N];
  const double w[3] = {0.25, 0.5, 0.25};
  static double y[N];

#pragma omp target teams distribute parallel for map(from: out[0:N])
  for (int i = 0; i < N; i++)
    out[i] = lut[i % 8] * (unsigned)i;

#pragma acc parallel loop copyout(y[0:N])
  for (int i = 0; i < N; i++)
    y[i] = w[0] * (i - 1) + w[1] * i + w[2] * (i + 1);

  unsigned long long s = 0;
  double t = 0.0;
  for (int i = 0; i < N; i++) {
    s += out[i];
    t += y[i];
  }
  printf("lut sum %llu, stencil sum %.1f, lut[7] %u, w[1] %.2f\n", s, t, lut[7], w[1]);
  return 0;
}
