/* Tile tasks with a parallel loop inside: the matrix is cut into B x B
 * tiles; tile (bi,bj) waits for the tiles above and to the left (depend on
 * a flag matrix T) and fills its cells in a data-parallel loop from its own
 * input and the edges of those two tiles.
 *   tile_tasks [NB [MB [B]]]   prints a checksum. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 40, mb = argc > 2 ? atoi(argv[2]) : 30, B = argc > 3 ? atoi(argv[3]) : 48;
  int n = nb * B, m = mb * B;
  double (*A)[m] = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1) * (size_t)(m > 0 ? m : 1));
  double (*V)[m] = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1) * (size_t)(m > 0 ? m : 1));
  char (*T)[mb + 1] = malloc((size_t)(nb + 1) * (size_t)(mb + 1));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) A[i][j] = ((i * 7 + j * 3) % 11) * 0.125, V[i][j] = 0.0;
#pragma omp target data map(to: A[0:n][0:m]) map(tofrom: V[0:n][0:m])
#pragma omp parallel
#pragma omp single
  for (int bi = 1; bi <= nb; bi++)
    for (int bj = 1; bj <= mb; bj++) {
#pragma omp task depend(in: T[bi-1][bj], T[bi][bj-1]) depend(out: T[bi][bj])
      {
        const int r0 = (bi - 1) * B, c0 = (bj - 1) * B;
#pragma omp parallel for
        for (int x = 0; x < B * B; x++) {
          int r = r0 + x / B, c = c0 + x % B;
          double up = r0 > 0 ? V[r0 - 1][c] : 1.0, left = c0 > 0 ? V[r][c0 - 1] : 1.0;
          V[r][c] = A[r][c] + 0.5 * up + 0.25 * left;
        }
      }
    }
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) sum += V[i][j] * (1 + (i + 2 * j) % 5);
  printf("n %d m %d sum %.10e last %.10e\n", n, m, sum, n && m ? V[n - 1][m - 1] : 0.0);
  return 0;
}
