/* Bandwidth of a gtcc-compiled 2D 5-point Jacobi sweep (fp64) with
 * collapse(2): at least 16 bytes move per interior point (one read, one
 * write; neighbours come from cache). Both grids stay on the GPU.
 * usage: stencil_bench [n] [reps] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 8192;
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  double *u = malloc(n * n * sizeof *u), *v = malloc(n * n * sizeof *v);
  if (!u || !v) return 1;
  for (long i = 0; i < n * n; i++) u[i] = (double)(i % 977), v[i] = 0.0;
  double best = 1e30;
  #pragma acc data copy(u[0:n*n]) create(v[0:n*n])
  {
    for (int r = 0; r < reps + 1; r++) {
      double t0 = now_s();
      #pragma acc parallel loop collapse(2) present(u[0:n*n], v[0:n*n])
      for (long i = 1; i < n - 1; i++)
        for (long j = 1; j < n - 1; j++)
          v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
      double t = now_s() - t0;
      if (r > 0 && t < best) best = t;
    }
  }
  long pts = (n - 2) * (n - 2);
  printf("kernel,n,bytes,best_ms,GBps\n");
  printf("stencil2d,%ld,%ld,%.4f,%.1f\n", n, 16 * pts, best * 1e3, 16.0 * pts / best / 1e9);
  return 0;
}
