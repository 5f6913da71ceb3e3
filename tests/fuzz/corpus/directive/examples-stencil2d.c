/* stencil2d: Jacobi sweeps of the 2D 5-point Laplace stencil on an N x M grid
 * with fixed boundary values, flat row-major indexing a[i*m+j].
 *
 *   stencil2d [N [M [SWEEPS]]]   defaults 4096 x 4096 (128 MiB per grid), 50 sweeps
 *
 * Both grids stay on the device for all sweeps (one acc data region); each
 * sweep is a collapse(2) parallel loop from src into dst, then the host swaps
 * the two pointers. Prints the grid size, checksums of the final grid (sum,
 * sum of squares) and sampled points, one number per line; time to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static long arg_long(int argc, char **argv, int k, long def, long lo, long hi) {
  if (argc <= k)
    return def;
  char *end;
  long v = strtol(argv[k], &end, 10);
  if (*argv[k] == '\0' || *end || v < lo || v > hi) {
    fprintf(stderr, "stencil2d: argument %d ('%s') must be an integer in [%ld, %ld]\n", k, argv[k], lo, hi);
    exit(2);
  }
  return v;
}

/* Boundary and initial values: boundary rows/columns carry a pattern, the
 * interior starts at 0. */
static double init_value(int i, int j, int n, int m) {
  if (i == 0)
    return 1.0;
  if (i == n - 1)
    return 0.25 * (double)(j % 17) / 16.0;
  if (j == 0)
    return 0.5;
  if (j == m - 1)
    return (double)(i % 5) / 4.0;
  return 0.0;
}

int main(int argc, char **argv) {
  int n = (int)arg_long(argc, argv, 1, 4096, 1, 1L << 20);
  int m = (int)arg_long(argc, argv, 2, n, 1, 1L << 20);
  int sweeps = (int)arg_long(argc, argv, 3, 50, 0, 1000000);
  if ((long)n * m > (1L << 31) - 1) {
    fprintf(stderr, "stencil2d: grid %d x %d too large\n", n, m);
    return 2;
  }
  double *a = malloc(sizeof *a * (size_t)n * m);
  double *b = malloc(sizeof *b * (size_t)n * m);
  if (!a || !b) {
    fprintf(stderr, "stencil2d: out of memory for %d x %d\n", n, m);
    return 1;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i * m + j] = b[i * m + j] = init_value(i, j, n, m);

  double *src = a, *dst = b;
  double t0 = now_ms();
#pragma acc data copy(a[0:n*m], b[0:n*m])
  {
    for (int s = 0; s < sweeps; s++) {
#pragma acc parallel loop collapse(2) present(src[0:n*m], dst[0:n*m])
      for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
          dst[i * m + j] = 0.25 * (src[(i - 1) * m + j] + src[(i + 1) * m + j] + src[i * m + j - 1] +
                                   src[i * m + j + 1]);
      double *t = src;
      src = dst;
      dst = t;
    }
  }
  double t1 = now_ms();

  /* src holds the last sweep's result. */
  double sum = 0.0, sumsq = 0.0;
  for (long k = 0; k < (long)n * m; k++) {
    sum += src[k];
    sumsq += src[k] * src[k];
  }
  printf("n %d\n", n);
  printf("m %d\n", m);
  printf("sweeps %d\n", sweeps);
  printf("sum %.10g\n", sum);
  printf("sumsq %.10g\n", sumsq);
  int pts[][2] = {{1, 1}, {n / 4, m / 4}, {n / 2, m / 2}, {n / 2, 1}, {1, m / 2}, {n - 2, m - 2}};
  for (int k = 0; k < 6; k++) {
    int i = pts[k][0] < 0 ? 0 : pts[k][0], j = pts[k][1] < 0 ? 0 : pts[k][1];
    printf("u[%d,%d] %.10g\n", i, j, src[i * m + j]);
  }
  fprintf(stderr, "stencil2d: %d x %d, %d sweeps: %.3f ms (%.3f ms per sweep)\n", n, m, sweeps, t1 - t0,
          sweeps ? (t1 - t0) / sweeps : 0.0);
  free(a);
  free(b);
  return 0;
}
