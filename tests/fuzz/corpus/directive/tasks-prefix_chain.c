/* 1D chains: x[i] = x[i-1] * c + f(i) (distance 1) and y[i] = y[i-2] + y[i-3]
 * mod p (distances 2 and 3), one task per element, counting up and down.
 *   prefix_chain [N]   prints checksums. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200000;
  double *x = malloc(sizeof(double) * (size_t)(n + 1));
  long long *y = malloc(sizeof(long long) * (size_t)(n + 3));
  x[0] = 1.0;
  for (int i = 0; i < n + 3; i++) y[i] = i + 1;
#pragma omp target data map(tofrom: x[0:n+1], y[0:n+3])
  {
#pragma omp parallel
#pragma omp single
    for (int i = 1; i <= n; i++) {
#pragma omp task depend(in: x[i-1]) depend(out: x[i])
      x[i] = x[i - 1] * 0.999 + (i % 7) * 0.5;
    }
#pragma omp parallel
#pragma omp single
    for (int i = n + 2; i >= 3; i--) { /* counting down: reads the two later elements */
#pragma omp task depend(in: y[i-2], y[i-3]) depend(inout: y[i])
      y[i] = (y[i] + 3 * y[i - 2] + y[i - 3]) % 1000003;
    }
  }
  double sx = 0.0;
  long long sy = 0;
  for (int i = 0; i <= n; i++) sx += x[i];
  for (int i = 0; i < n + 3; i++) sy = (sy * 31 + y[i]) % 1000000007LL;
  printf("x[n] %.12f sum %.10e y %lld\n", x[n], sx, sy);
  return 0;
}
