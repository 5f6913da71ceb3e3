/* A phased task region whose task bodies call functions that use globals:
 * the block size and the coefficient are globals set by main, a global
 * array of per-block sums is written by one task type and read by another,
 * and a global counter is updated atomically by a function. Steps are
 * ordered by taskwait and by depend clauses. Compared with the CPU build. */
// expect-in-cu: static __device__ int *gt_dg_bs;
// expect-in-cu: (*gt_dg_alpha)
#include <stdio.h>
#include <stdlib.h>

int bs = 64;
double alpha = 0.1;
double blocksum[4096];
long long updates;

static void relax(const double *u, double *v, int b, int n) {
  for (int i = b * bs; i < (b + 1) * bs && i < n; i++) {
    double l = i > 0 ? u[i - 1] : 1.0, r = i + 1 < n ? u[i + 1] : 0.0;
    v[i] = u[i] + alpha * (l - 2.0 * u[i] + r);
  }
  #pragma omp atomic
  updates++;
}

static void sum_block(const double *v, int b, int n) {
  double s = 0.0;
  for (int i = b * bs; i < (b + 1) * bs && i < n; i++) s += v[i];
  blocksum[b] = s;
}

static void copy_back(double *u, const double *v, int b, int n) {
  for (int i = b * bs; i < (b + 1) * bs && i < n; i++) u[i] = v[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200000;
  int steps = argc > 2 ? atoi(argv[2]) : 30;
  bs = argc > 3 ? atoi(argv[3]) : 128;
  alpha = 0.2;
  if (n < 1 || bs < 1 || (n + bs - 1) / bs > 4096) return 1;
  int nb = (n + bs - 1) / bs;
  double *u = malloc(sizeof(double) * (size_t)n), *v = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) u[i] = (double)(i % 13) / 13.0, v[i] = 0.0;
  double trace = 0.0;
#pragma omp target data map(tofrom: u[0:n], v[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: u[b*bs]) depend(out: v[b*bs])
      relax(u, v, b, n);
    }
#pragma omp taskwait
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: v[b*bs]) depend(out: u[b*bs])
      {
        sum_block(v, b, n);
        copy_back(u, v, b, n);
      }
    }
#pragma omp taskwait
  }
  for (int b = 0; b < nb; b++) trace += blocksum[b];
  double s = 0.0;
  for (int i = 0; i < n; i++) s += u[i] * (double)(i % 5 + 1);
  printf("n=%d steps=%d bs=%d updates=%lld\n", n, steps, bs, updates);
  printf("sum %.12e\ntrace %.12e\nu[n/2] %.12e\n", s, trace, u[n / 2]);
  return 0;
}
