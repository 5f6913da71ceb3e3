/* In-place Gauss-Seidel sweeps of the 2D Laplace equation, one task per
 * point with depend on the four neighbours (in) and the point (inout).
 *   gauss_seidel [N [M [SWEEPS]]]   prints a checksum and sample values. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 700, m = argc > 2 ? atoi(argv[2]) : 900;
  int sweeps = argc > 3 ? atoi(argv[3]) : 3;
  double (*u)[m + 2] = malloc(sizeof(double) * (size_t)(n + 2) * (size_t)(m + 2));
  for (int i = 0; i < n + 2; i++)
    for (int j = 0; j < m + 2; j++) u[i][j] = (i == 0 || j == 0) ? 1.0 : (i * 13 + j * 7) % 10 * 0.1;
#pragma omp target data map(tofrom: u[0:n+2][0:m+2])
  for (int t = 0; t < sweeps; t++) {
#pragma omp parallel
#pragma omp single
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= m; j++) {
#pragma omp task depend(in: u[i-1][j], u[i+1][j], u[i][j-1], u[i][j+1]) depend(inout: u[i][j])
        u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
      }
  }
  double sum = 0.0;
  for (int i = 0; i < n + 2; i++)
    for (int j = 0; j < m + 2; j++) sum += u[i][j] * (1 + (i + j) % 3);
  printf("sum %.10e u[n/2][m/2] %.12f u[n][m] %.12f\n", sum, u[(n + 1) / 2][(m + 1) / 2], u[n][m]);
  return 0;
}
