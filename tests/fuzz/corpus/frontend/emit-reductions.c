/* Scalar reductions with every operator on int and double, OpenACC and
 * OpenMP; initial values that are not the identity. */
#include <stdio.h>

#define N 1000

int main(void) {
  static int a[N];
  static double d[N];
  int n = N;
  for (int i = 0; i < n; i++) {
    a[i] = (i * 37) % 101 - 50;
    d[i] = 1.0 + (double)((i * 13) % 17) / 64.0;
  }

  int isum = 3, iprod = 1, imax = -1000, imin = 1000, iand = ~0, ior = 0, ixor = 5, land = 1, lor = 0;
  double dsum = 0.5, dprod = 1.0, dmax = -1e300, dmin = 1e300;

#pragma acc parallel loop copyin(a[0:n]) reduction(+:isum)
  for (int i = 0; i < n; i++)
    isum += a[i];
#pragma acc parallel loop copyin(a[0:n]) reduction(*:iprod)
  for (int i = 0; i < 20; i++)
    iprod *= (a[i] % 3) + 2;
#pragma acc parallel loop copyin(a[0:n]) reduction(max:imax)
  for (int i = 0; i < n; i++)
    imax = a[i] > imax ? a[i] : imax;
#pragma acc parallel loop copyin(a[0:n]) reduction(min:imin)
  for (int i = 0; i < n; i++)
    imin = a[i] < imin ? a[i] : imin;
#pragma acc parallel loop copyin(a[0:n]) reduction(&:iand)
  for (int i = 0; i < n; i++)
    iand &= a[i] | 0x100;
#pragma acc parallel loop copyin(a[0:n]) reduction(|:ior)
  for (int i = 0; i < n; i++)
    ior |= a[i] & 0x0f0;
#pragma omp target teams distribute parallel for map(to: a[0:n]) reduction(^:ixor)
  for (int i = 0; i < n; i++)
    ixor ^= a[i] * 7;
#pragma omp target teams distribute parallel for map(to: a[0:n]) reduction(&&:land)
  for (int i = 0; i < n; i++)
    land = land && (a[i] > -51);
#pragma omp target teams distribute parallel for map(to: a[0:n]) reduction(||:lor)
  for (int i = 0; i < n; i++)
    lor = lor || (a[i] == 49);

#pragma omp target teams distribute parallel for map(to: d[0:n]) reduction(+:dsum)
  for (int i = 0; i < n; i++)
    dsum += d[i];
#pragma omp target teams distribute parallel for map(to: d[0:n]) reduction(*:dprod)
  for (int i = 0; i < 64; i++)
    dprod *= d[i];
#pragma acc parallel loop copyin(d[0:n]) reduction(max:dmax)
  for (int i = 0; i < n; i++)
    dmax = d[i] > dmax ? d[i] : dmax;
#pragma acc parallel loop copyin(d[0:n]) reduction(min:dmin)
  for (int i = 0; i < n; i++)
    dmin = d[i] < dmin ? d[i] : dmin;

  printf("isum %d\niprod %d\nimax %d\nimin %d\niand %d\nior %d\nixor %d\nland %d\nlor %d\n", isum, iprod, imax,
         imin, iand, ior, ixor, land, lor);
  printf("dsum %.10g\ndprod %.10g\ndmax %.10g\ndmin %.10g\n", dsum, dprod, dmax, dmin);
  return 0;
}
