/* OpenMP's `always` map modifier copies even when the data is already
 * present: inside a target data region, a region's map(always, to:) sees
 * what the host wrote and map(always, from:) brings the device's values
 * back before the data region ends; `close` is only a hint. Without
 * `always` the present data would only be counted, and the sums would
 * differ from the CPU build's. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  double *x = malloc(sizeof(double) * (size_t)n), *z = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) x[i] = 1.0, z[i] = (double)(i % 5);
  double s1 = 0.0, s2 = 0.0, host_after = 0.0, zsum = 0.0;
#pragma omp target data map(tofrom: x[0:n]) map(to: z[0:n])
  {
    for (int i = 0; i < n; i++) x[i] = 2.0 + (double)(i % 3); /* host only */
#pragma omp target teams distribute parallel for map(always, to: x[0:n]) reduction(+:s1)
    for (int i = 0; i < n; i++) s1 += x[i];
#pragma omp target teams distribute parallel for map(always, close, from: x[0:n]) map(close, to: z[0:n])
    for (int i = 0; i < n; i++) x[i] = x[i] * 2.0 + z[i];
    for (int i = 0; i < n; i++) host_after += x[i]; /* the device's values, inside the data region */
    for (int i = 0; i < n; i++) z[i] = -1.0;          /* host only: present data is not copied again */
#pragma omp target enter data map(always, to: x[0:n])
#pragma omp target teams distribute parallel for reduction(+:s2, zsum)
    for (int i = 0; i < n; i++) s2 += x[i], zsum += z[i];
#pragma omp target exit data map(release: x[0:n])
  }
  printf("s1 %.1f host_after %.1f s2 %.1f\n", s1, host_after, s2);
  /* z on the device kept its first values; the CPU build reads the host's -1s */
  printf("zsum_is_device_or_host %d\n", zsum == (double)(n / 5) * 10.0 + (double)((n % 5) * (n % 5 - 1) / 2) || zsum == -(double)n);
  free(x), free(z);
  return 0;
}
