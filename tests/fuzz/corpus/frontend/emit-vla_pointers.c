/* Pointers to variable-length arrays (C99 2D/3D arrays) in regions: passed
 * to kernels as views so A[i][j] keeps its meaning; data clauses map whole
 * rows (u[0:n]). */
#include <stdio.h>
#include <stdlib.h>
static void sweep(int n, int m, double (*restrict u)[m], double (*restrict v)[m]) {
  #pragma acc parallel loop collapse(2) present(u[0:n], v[0:n])
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 300, m = argc > 2 ? atoi(argv[2]) : 200, k = 3;
  double (*u)[m] = malloc(sizeof(double[n][m])), (*v)[m] = malloc(sizeof(double[n][m]));
  double (*w)[m][k] = malloc(sizeof(double[n][m][k]));
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) { u[i][j] = (i * 31 + j * 17) % 101; v[i][j] = 0; for (int l = 0; l < k; l++) w[i][j][l] = 0; }
  #pragma acc data copy(u[0:n], v[0:n])
  {
    for (int s = 0; s < 10; s++) { sweep(n, m, u, v); sweep(n, m, v, u); }
  }
  #pragma omp target teams distribute parallel for collapse(2) map(to: u[0:n]) map(tofrom: w[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int l = 0; l < k; l++) w[i][j][l] = u[i][j] * (l + 1);
  double s1 = 0, s2 = 0;
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) { s1 += u[i][j] * (i + 1); for (int l = 0; l < k; l++) s2 += w[i][j][l] * (j + l + 1); }
  printf("%.10g\n%.10g\n", s1, s2);
  return 0;
}
