/* Pointer swap after a taskwait, and tasks before and after the time loop.
 *
 *   swap [N [BS [STEPS]]]     (defaults 100000 1000 50)
 *
 * One task region: a task loop fills u (before the time loop), taskwait;
 * per step a task loop smooths u into v block by block (each block reads
 * its neighbours' edge cells), taskwait, and the host code swaps u and v;
 * after the loop a task loop sums each block of the final u into bsum[b],
 * taskwait, and a single task folds bsum[] into tot[0]. The swapped u and v
 * are the mapped pointers themselves (shared in the region: no task is
 * pending when they change). Cell i is u[1 + i]; u[0] and u[n+1] are fixed
 * boundary cells. Prints checksums of u, bsum and tot. */
#include <stdio.h>
#include <stdlib.h>

static double initial(int i) {
  unsigned h = (unsigned)i * 2654435761u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (double)(h >> 8) / 16777216.0;
}

static int block_len(int b, int bs, int n) {
  int rest = n - b * bs;
  return rest < bs ? rest : bs;
}

/* bsum[b] = sum of block b of u, weighted by position in the block */
static void block_summary(const double *u, double *bsum, int b, int bs, int n) {
  double s = 0.0;
  for (int k = 0; k < block_len(b, bs, n); k++) s += u[1 + b * bs + k] * (1.0 + 0.25 * (k % 4));
  bsum[b] = s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000, bs = argc > 2 ? atoi(argv[2]) : 1000;
  int steps = argc > 3 ? atoi(argv[3]) : 50;
  if (argc > 4 || n < 0 || bs < 1 || steps < 0) {
    fprintf(stderr, "usage: swap [N [BS [STEPS]]]\n");
    return 2;
  }
  int nb = (n + bs - 1) / bs;
  double *u = malloc(sizeof(double) * ((size_t)n + 2)), *v = malloc(sizeof(double) * ((size_t)n + 2));
  double *bsum = calloc((size_t)nb + 1, sizeof(double)), *tot = calloc(1, sizeof(double));
  if (!u || !v || !bsum || !tot) return 1;
  for (int i = 0; i < n + 2; i++) u[i] = v[i] = -7.0; /* overwritten by the init tasks */
  u[0] = v[0] = 2.0;
  u[n + 1] = v[n + 1] = -1.0;
  double *u0 = u, *v0 = v;

#pragma omp target data map(tofrom: u[0:n+2], v[0:n+2], bsum[0:nb+1], tot[0:1])
#pragma omp parallel
#pragma omp single
  {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(out: u[1+b*bs])
      {
        const int lo = 1 + b * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
        for (int i = lo; i < hi; i++) u[i] = initial(i - 1);
      }
    }
#pragma omp taskwait
    for (int t = 0; t < steps; t++) {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: u[1+b*bs]) depend(out: v[1+b*bs])
        {
          const int lo = 1 + b * bs, hi = lo + block_len(b, bs, n);
          const double src = 0.001 * (t % 5) - 0.002;
#pragma omp parallel for
          for (int i = lo; i < hi; i++) v[i] = 0.25 * (u[i - 1] + 2.0 * u[i] + u[i + 1]) + src;
        }
      }
#pragma omp taskwait
      double *tmp = u;
      u = v;
      v = tmp;
    }
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: u[1+b*bs]) depend(out: bsum[b])
      block_summary(u, bsum, b, bs, n);
    }
#pragma omp taskwait
#pragma omp task depend(in: bsum[0]) depend(out: tot[0])
    {
      double s = 0.0;
      for (int b = 0; b < nb; b++) s += bsum[b] * (double)(b % 3 + 1);
      tot[0] = s;
    }
  }

  /* the host code ran on the host too: u is the newest buffer */
  if (u != (steps % 2 ? v0 : u0)) {
    printf("swap: u does not point to the newest buffer after the region\n");
    return 1;
  }
  double su = 0.0, wu = 0.0, so = 0.0;
  for (int i = 1; i <= n; i++) su += u[i], wu += u[i] * (double)(i % 7 - 3);
  for (int b = 0; b < nb; b++) so += bsum[b];
  printf("swap n %d bs %d blocks %d steps %d\n", n, bs, nb, steps);
  printf("u sum %.12e wsum %.12e bsum sum %.12e tot %.12e\n", su, wu, so, tot[0]);
  if (n > 0) printf("u[1] %.12e u[n/2] %.12e u[n] %.12e\n", u[1], u[1 + n / 2], u[n]);
  free(u0), free(v0), free(bsum), free(tot);
  return 0;
}
