/* The other compute forms: acc kernels loop, acc parallel { acc loop },
 * omp target parallel for, omp target teams distribute parallel for with a
 * `<=` bound and a decreasing loop. */
#include <stdio.h>

int main(void) {
  enum { N = 2500 };
  static int a[N + 1];
  static double b[N];
  int n = N;

#pragma acc kernels loop copyout(a[0:n+1])
  for (int i = 0; i <= n; i++)
    a[i] = i * 3 - 7;

#pragma acc parallel copyin(a[0:n+1]) copyout(b[0:n])
  {
#pragma acc loop
    for (int i = 0; i < n; i++)
      b[i] = (double)(a[i] + a[i + 1]) * 0.5;
  }

#pragma omp target parallel for map(tofrom: b[0:n])
  for (int i = n - 1; i >= 0; i--)
    b[i] += 1.0;

#pragma omp target teams distribute parallel for map(tofrom: a[0:n+1])
  for (int i = 0; i < n + 1; i += 3)
    a[i] = -a[i];

  long sa = 0;
  double sb = 0.0;
  for (int i = 0; i <= n; i++)
    sa += a[i];
  for (int i = 0; i < n; i++)
    sb += b[i];
  printf("sa %ld\nsb %.10g\nb[0] %.10g\n", sa, sb, b[0]);
  return 0;
}
