/* Smith-Waterman local alignment (linear gaps), one task per cell with
 * three inputs (diagonal, up, left) and a 4x4 substitution matrix; doubles.
 *   sw [N [M]]   prints the best local score, where it ends and a checksum. */
#include <stdio.h>
#include <stdlib.h>

static const double SUB[4][4] = {{2.0, -1.0, -0.5, -1.0}, {-1.0, 2.0, -1.0, -0.5}, {-0.5, -1.0, 2.0, -1.0},
                                 {-1.0, -0.5, -1.0, 2.0}};

static double cell(int m, double (*H)[m + 1], const int *a, const int *b, const double (*S)[4], int i, int j) {
  double d = H[i - 1][j - 1] + S[a[i - 1]][b[j - 1]];
  double u = H[i - 1][j] - 0.75, l = H[i][j - 1] - 0.75;
  double best = d > u ? d : u;
  best = best > l ? best : l;
  return best > 0.0 ? best : 0.0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1500, m = argc > 2 ? atoi(argv[2]) : 2500;
  int *a = malloc(sizeof(int) * (size_t)(n + 1)), *b = malloc(sizeof(int) * (size_t)(m + 1));
  double (*H)[m + 1] = malloc(sizeof(double) * (size_t)(n + 1) * (size_t)(m + 1));
  double (*S)[4] = malloc(sizeof SUB);
  unsigned s = 7;
  for (int i = 0; i < n; i++) a[i] = (int)((s = s * 1664525u + 1013904223u) >> 30);
  for (int j = 0; j < m; j++) b[j] = (int)((s = s * 1664525u + 1013904223u) >> 30);
  for (int x = 0; x < 4; x++)
    for (int y = 0; y < 4; y++) S[x][y] = SUB[x][y];
  for (int i = 0; i <= n; i++) H[i][0] = 0.0;
  for (int j = 0; j <= m; j++) H[0][j] = 0.0;
#pragma omp target data map(tofrom: H[0:n+1][0:m+1]) map(to: a[0:n+1], b[0:m+1], S[0:4][0:4])
#pragma omp parallel
#pragma omp single
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= m; j++) {
#pragma omp task depend(in: H[i-1][j-1]) depend(in: H[i-1][j], H[i][j-1]) depend(out: H[i][j])
      H[i][j] = cell(m, H, a, b, S, i, j);
    }
  double best = 0.0, sum = 0.0;
  int bi = 0, bj = 0;
  for (int i = 0; i <= n; i++)
    for (int j = 0; j <= m; j++) {
      sum += H[i][j];
      if (H[i][j] > best) best = H[i][j], bi = i, bj = j;
    }
  printf("best %.4f at %d %d sum %.6e\n", best, bi, bj, sum);
  return 0;
}
