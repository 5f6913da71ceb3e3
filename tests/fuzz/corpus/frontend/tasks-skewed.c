/* A dependence with a negative component, (1,-1): cell (i,j) reads (i-1,j+1)
 * and (i-1,j). Tiles would be illegal; gtcc runs one task per cell.
 *   skewed [N [M]]   prints a checksum. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 300, m = argc > 2 ? atoi(argv[2]) : 400;
  int (*A)[m + 2] = malloc(sizeof(int) * (size_t)(n + 1) * (size_t)(m + 2));
  for (int i = 0; i <= n; i++)
    for (int j = 0; j < m + 2; j++) A[i][j] = (i * 3 + j) % 17;
#pragma omp target data map(tofrom: A[0:n+1][0:m+2])
#pragma omp parallel
#pragma omp single
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= m; j++) {
#pragma omp task depend(in: A[i-1][j+1], A[i-1][j], A[i][j-1]) depend(out: A[i][j])
      A[i][j] = (A[i - 1][j + 1] + 2 * A[i - 1][j] + A[i][j - 1] + A[i][j]) % 10007;
    }
  long long sum = 0;
  for (int i = 0; i <= n; i++)
    for (int j = 0; j < m + 2; j++) sum = (sum * 3 + A[i][j]) % 1000000007LL;
  printf("checksum %lld\n", sum);
  return 0;
}
