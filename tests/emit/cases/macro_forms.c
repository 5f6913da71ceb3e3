/* Variables that offload regions name only inside macros: as arguments
 * (IDX(i, j) with m, SQ(scale)), in a macro's own body (ROW(i) names m,
 * SCALED(v) names alpha, an object-like macro NB names nb) and through a
 * macro that uses another. gtcc once missed them (nvcc: "identifier ... is
 * undefined"). Writes through macros (ACC, SET, SWAP_PTR) must count as
 * writes: the reduction, the task's element and the host code's pointer swap
 * between phases. */
#include <stdio.h>
#include <stdlib.h>

#define IDX(i, j) ((i) * m + (j))
#define ROW(i) ((i) * m)
#define SQ(v) ((v) * (v))
#define SCALED(v) (alpha * SQ(v))
#define ACC(v) (sum += (v))
#define SET(x, v) x = (v)
#define NB nb
#define SWAP_PTR(a, b)   \
  do {                   \
    double *t_ = (a);    \
    (a) = (b);           \
    (b) = t_;            \
  } while (0)

int main(void) {
  int n = 700, m = 300, nb = 64, bs = 1000;
  double scale = 0.5, alpha = 0.25;
  double *a = malloc(sizeof(double) * n * m), *rs = malloc(sizeof(double) * n);
  double *u = malloc(sizeof(double) * nb * bs), *v = malloc(sizeof(double) * nb * bs);
  int *rp = malloc(sizeof(int) * (n + 1));
  if (!a || !rs || !u || !v || !rp) return 1;

  /* flat: arguments and bodies */
#pragma acc parallel loop copyout(a[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[IDX(i, j)] = SQ(scale) * i + SCALED((double)j) + ROW(1);

  /* nested: a reduction through ACC, rows of varying length */
  for (int i = 0; i <= n; i++) rp[i] = i * m - (i % 7) * (i > 0 && i < n);
  rp[n] = n * m;
#pragma acc parallel loop copyin(a[0:n*m], rp[0:n+1]) copyout(rs[0:n])
  for (int i = 0; i < n; i++) {
    double sum = 0.0;
#pragma acc loop reduction(+:sum)
    for (int k = rp[i]; k < rp[i + 1]; k++) ACC(a[k] * SQ(scale));
    rs[i] = sum;
  }

  /* tasks: bodies through macros; the host code swaps u and v by a macro */
  for (int k = 0; k < nb * bs; k++) u[k] = (double)(k % 13), v[k] = 0.0;
#pragma omp target data map(tofrom: u[0:nb*bs], v[0:nb*bs])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < 5; t++) {
    for (int b = 0; b < NB; b++) {
#pragma omp task depend(in: u[b*bs]) depend(out: v[b*bs])
      for (int k = b * bs; k < (b + 1) * bs; k++) SET(v[k], SCALED(u[k]) + 1.0 / (1 + t));
    }
#pragma omp taskwait
    SWAP_PTR(u, v);
  }

  double sa = 0, sr = 0, su = 0;
  for (int k = 0; k < n * m; k++) sa += a[k] * (double)(k % 5);
  for (int i = 0; i < n; i++) sr += rs[i] * (double)(i % 3 + 1);
  for (int k = 0; k < nb * bs; k++) su += u[k] * (double)(k % 11 + 1);
  printf("macro_forms a %.12e rs %.12e u %.12e\n", sa, sr, su);
  printf("a[IDX(5, 7)] %.12e rs[n-1] %.12e u[123] %.12e\n", a[IDX(5, 7)], rs[n - 1], u[123]);
  free(a), free(rs), free(u), free(v), free(rp);
  return 0;
}
