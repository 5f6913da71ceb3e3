/* Library calls whose arguments C converts to the parameter type: C++ (the
 * .gt.cu) has overloads that take them as they are. sqrt(f), exp(f) and
 * pow(f, 2) of a float computed in float there (C: in double), abs(d) of
 * a double gave |d| (C: abs(int) of the truncated value), abs(l) of a long
 * the long's value. The generated code now writes C's conversions out.
 * In a flat loop, a nested loop's inner body and a task. Compared with the
 * CPU build. The float inputs are sums of exact products, so nvcc's fused
 * multiply-adds (which C allows) round them as the CPU build does, and a
 * float-precision sqrt (relative error ~1e-8) fails the 1e-9 comparison. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double mixed(float f, double d, int i) {
  return sqrt(f) + exp(f * 0.0078125f) + abs(d) + pow(f, 2) + fabs(f) + floor(f / 3) + (double)abs(i - 500);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000, nb = 50;
  double *y = malloc(sizeof(double) * (size_t)n), *z = malloc(sizeof(double) * (size_t)n);
  if (!y || !z) return 1;

#pragma acc parallel loop copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    float f = (float)(i % 1000) * 0.25f + 0.5f;
    double d = -2.75 - (double)(i % 100) * 0.0625;
    y[i] = sqrt(f) + exp(f * 0.0078125f) + abs(d) + pow(f, 2) + mixed(f, d, i % 1000);
  }

#pragma acc parallel loop copy(y[0:n])
  for (int r = 0; r < n / 100; r++) {
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int k = 0; k < 100; k++) {
      float g = (float)k * 0.5f + (float)(r % 64) * 0.25f;
      s += sqrt(g) + cbrt(g) + log1p(g) + abs(-1.5 * k);
    }
    y[r * 100] += s;
  }

  for (int i = 0; i < n; i++) z[i] = (double)(i % 13);
#pragma omp target data map(tofrom: z[0:n])
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: z[b * (n / nb)])
    for (int i = b * (n / nb); i < (b + 1) * (n / nb); i++) {
      float h = (float)z[i] * 0.5f + 0.25f;
      z[i] = sin(h) + sqrt(h) + abs(z[i] - 6.5);
    }
  }

  double sy = 0.0, sz = 0.0;
  for (int i = 0; i < n; i++) sy += y[i], sz += z[i];
  printf("y %.17g %.17g %.17g\nz %.17g %.17g\n", sy, y[1], y[n / 2], sz, z[n - 1]);
  free(y), free(z);
  return 0;
}
