/* Array parameters: `double A[n][m]`, `double B[][m]` and `double x[n]`
 * are pointers (C adjusts them), passed to kernels as views / pointers. */
#include <stdio.h>
#include <stdlib.h>

/* called in a region: its VLA parameter becomes a view too */
static double cell(int m, double h[][m], int i, int j) { return h[i][j]; }

static void rowsum(int n, int m, double A[n][m], double B[][m], double x[n], double y[n]) {
#pragma acc parallel loop copyin(A[0:n], B[0:n], x[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < m; j++) s += A[i][j] * x[i] - cell(m, B, i, j);
    y[i] = s;
  }
}

static void scale(int n, int m, double A[n][m], double f) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: A[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) A[i][j] *= f * (1 + (i + j) % 3);
}

int main(void) {
  const int n = 300, m = 77;
  double (*A)[m] = malloc(sizeof(double[n][m])), (*B)[m] = malloc(sizeof(double[n][m]));
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; i++) {
    x[i] = 0.5 * (i % 5);
    for (int j = 0; j < m; j++) A[i][j] = 0.25 * ((i * 7 + j) % 11), B[i][j] = 0.125 * ((i + j * 3) % 13);
  }
  scale(n, m, A, 2.0);
  rowsum(n, m, A, B, x, y);
  double t = 0.0;
  for (int i = 0; i < n; i++) t += y[i] * (1 + i % 4);
  printf("vla params: %.4f %.4f %.4f\n", t, y[0], y[n - 1]);
  free(A), free(B), free(x), free(y);
  return 0;
}
