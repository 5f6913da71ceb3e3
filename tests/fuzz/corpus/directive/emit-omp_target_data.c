/* omp target data + target update: two kernels reuse mapped arrays; the
 * host changes `a` in between and pushes it with `target update to`, then
 * pulls an intermediate result with `target update from`. */
#include <stdio.h>

#define N 10000

static double a[N], b[N], c[N];

int main(void) {
  int n = N;
  for (int i = 0; i < n; i++) {
    a[i] = 0.5 * i;
    b[i] = 0.0;
    c[i] = -1.0;
  }
#pragma omp target data map(to: a[0:n]) map(tofrom: b[0:n]) map(alloc: c[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      c[i] = a[i] + 1.0;

#pragma omp target update from(c[0:n])
    double sc = 0.0;
    for (int i = 0; i < n; i++)
      sc += c[i];
    printf("c.sum %.10g\n", sc);

    for (int i = 0; i < n; i++)
      a[i] = 2.0;
#pragma omp target update to(a[0:n])

#pragma omp target teams distribute parallel for map(to: a[0:n])
    for (int i = 0; i < n; i++)
      b[i] = a[i] * c[i];
  }
  double sb = 0.0;
  for (int i = 0; i < n; i++)
    sb += b[i];
  printf("b.sum %.10g\n", sb);
  printf("b[0] %.10g\n", b[0]);
  printf("b[n-1] %.10g\n", b[n - 1]);
  return 0;
}
