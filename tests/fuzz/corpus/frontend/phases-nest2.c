/* A task loop nest of depth 2 inside the time loop: in-place Gauss-Seidel
 * sweeps of the 2D Laplace equation over T x T tiles, one task per tile.
 *
 *   nest2 [NB [MB [T [SWEEPS [K]]]]]     (defaults 24 20 16 12 4)
 *
 * The grid has NB*T x MB*T interior points and a fixed boundary ring.
 * Tile (i,j) updates its points row by row from the newest values of its
 * four neighbours, so it names its neighbour tiles (in) and itself (inout)
 * in a token matrix F with a guard ring; sweep s+1 overlaps sweep s (no
 * taskwait between sweeps: the dependences form a wavefront that pipelines
 * over the sweeps). Every K sweeps: taskwait and a single task that records
 * a probe of the grid into hist[]. Prints checksums of the grid and hist. */
#include <stdio.h>
#include <stdlib.h>

/* Gauss-Seidel on tile (ti, tj) of an (rows + 2) x (cols + 2) grid, in
 * place, with a source that changes from sweep to sweep (so the grid never
 * settles and every sweep shows in the result). */
static void gs_tile(int cols, double (*G)[cols + 2], int ti, int tj, int T, int sweep) {
  const double f = 0.002 * (sweep % 3) - 0.001;
  for (int r = 1 + ti * T; r <= (ti + 1) * T; r++)
    for (int c = 1 + tj * T; c <= (tj + 1) * T; c++)
      G[r][c] = 0.25 * (G[r - 1][c] + G[r + 1][c] + G[r][c - 1] + G[r][c + 1]) + f;
}

/* a probe: the interior points on the anti-diagonal, weighted */
static double probe(int rows, int cols, double (*G)[cols + 2]) {
  double s = 0.0;
  for (int r = 1; r <= rows; r++) {
    int c = 1 + (int)((long)(r - 1) * cols / (rows > 0 ? rows : 1));
    if (c <= cols) s += G[r][c] * (double)(r % 3 + 1);
  }
  return s;
}

int main(int argc, char **argv) {
  int NB = argc > 1 ? atoi(argv[1]) : 24, MB = argc > 2 ? atoi(argv[2]) : 20, T = argc > 3 ? atoi(argv[3]) : 16;
  int sweeps = argc > 4 ? atoi(argv[4]) : 12, K = argc > 5 ? atoi(argv[5]) : 4;
  if (argc > 6 || NB < 0 || MB < 0 || T < 1 || sweeps < 0 || K < 1) {
    fprintf(stderr, "usage: nest2 [NB [MB [T [SWEEPS [K]]]]]\n");
    return 2;
  }
  int rows = NB * T, cols = MB * T, nh = sweeps / K + 1;
  double (*G)[cols + 2] = malloc(sizeof(double) * (size_t)(rows + 2) * (size_t)(cols + 2));
  char (*F)[MB + 2] = calloc((size_t)(NB + 2) * (size_t)(MB + 2), 1);
  double *hist = calloc((size_t)nh, sizeof(double));
  if (!G || !F || !hist) return 1;
  for (int r = 0; r < rows + 2; r++)
    for (int c = 0; c < cols + 2; c++)
      G[r][c] = r == 0 ? 1.0 : c == 0 ? -0.5 : (r == rows + 1 || c == cols + 1) ? 0.25 : ((r * 7 + c * 3) % 10) * 0.1;

#pragma omp target data map(tofrom: G[0:rows+2][0:cols+2], hist[0:nh]) map(to: F[0:NB+2][0:MB+2])
#pragma omp parallel
#pragma omp single
  for (int s = 0; s < sweeps; s++) {
    for (int i = 1; i <= NB; i++)
      for (int j = 1; j <= MB; j++) {
#pragma omp task depend(in: F[i-1][j], F[i+1][j], F[i][j-1], F[i][j+1]) depend(inout: F[i][j])
        gs_tile(cols, G, i - 1, j - 1, T, s);
      }
    if ((s + 1) % K == 0) {
#pragma omp taskwait
#pragma omp task depend(out: hist[s / K])
      hist[s / K] = probe(rows, cols, G);
#pragma omp taskwait
    }
  }

  double sum = 0.0, w = 0.0, sh = 0.0;
  for (int r = 1; r <= rows; r++)
    for (int c = 1; c <= cols; c++) sum += G[r][c], w += G[r][c] * (double)((r + 2 * c) % 5 + 1);
  for (int h = 0; h < nh; h++) sh += hist[h] * (double)(h + 1);
  printf("nest2 tiles %d x %d of %d, sweeps %d, K %d\n", NB, MB, T, sweeps, K);
  printf("sum %.12e wsum %.12e hist %.12e\n", sum, w, sh);
  if (rows > 0 && cols > 0) printf("G[1][1] %.12e G[rows][cols] %.12e\n", G[1][1], G[rows][cols]);
  free(G), free(F), free(hist);
  return 0;
}
