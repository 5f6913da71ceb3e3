/* A 3D wavefront: a[i][j][k] from its three lower neighbours, one task per
 * point in a nest of depth 3.
 *   wave3d [N [M [L]]]   prints a checksum. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 60, m = argc > 2 ? atoi(argv[2]) : 70, l = argc > 3 ? atoi(argv[3]) : 50;
  long long (*a)[m + 1][l + 1] = malloc(sizeof(long long) * (size_t)(n + 1) * (size_t)(m + 1) * (size_t)(l + 1));
  for (int i = 0; i <= n; i++)
    for (int j = 0; j <= m; j++)
      for (int k = 0; k <= l; k++) a[i][j][k] = (i + 2 * j + 3 * k) % 5;
#pragma omp target data map(tofrom: a[0:n+1][0:m+1][0:l+1])
#pragma omp parallel
#pragma omp single
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= m; j++)
      for (int k = 1; k <= l; k++) {
#pragma omp task depend(in: a[i-1][j][k], a[i][j-1][k], a[i][j][k-1]) depend(inout: a[i][j][k])
        a[i][j][k] = (a[i][j][k] + a[i - 1][j][k] + 2 * a[i][j - 1][k] + 3 * a[i][j][k - 1]) % 1000003;
      }
  long long sum = 0;
  for (int i = 0; i <= n; i++)
    for (int j = 0; j <= m; j++)
      for (int k = 0; k <= l; k++) sum = (sum * 7 + a[i][j][k]) % 1000000007LL;
  printf("checksum %lld corner %lld\n", sum, a[n][m][l]);
  return 0;
}
