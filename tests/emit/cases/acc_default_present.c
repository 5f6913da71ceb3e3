/* default(present): arrays and pointers that no clause names must already be
 * on the device (a routine called inside a data region), as if each were in
 * present(...). A flat loop, a nested loop (CollectiveDP), a global array, a
 * pointer to rows and a compute construct with an inner loop directive.
 * Were the device copies missed, the sums would differ from the CPU build's;
 * data that is not present stops the program (tests/gpu/faults). */
#include <stdio.h>
#include <stdlib.h>

double g[64];

static void axpy(int n, double a, const double *x, double *y) {
#pragma acc parallel loop default(present)
  for (int i = 0; i < n; i++) y[i] += a * x[i] + g[i % 64];
}

static void rowsum(int n, const int *rp, const double *v, double *out) {
#pragma acc parallel loop default(present) // expect-in-cu: nested parallel loop (CollectiveDP
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += v[j];
    out[i] = s;
  }
}

static void blocks(int n, double (*m)[4], double *y) {
#pragma acc parallel default(present)
  {
#pragma acc loop
    for (int i = 0; i < n; i++) y[i] += m[i % 16][i % 4];
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 18;
  if (n < 1) n = 1;
  int *rp = malloc(sizeof(int) * ((size_t)n + 1));
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 331 == 0 ? 5000 : i % 11);
  int nnz = rp[n];
  double *v = malloc(sizeof(double) * (size_t)(nnz ? nnz : 1));
  for (int k = 0; k < nnz; k++) v[k] = (double)(k % 9) - 4.0;
  double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
  double (*m)[4] = malloc(16 * sizeof *m);
  for (int i = 0; i < n; i++) x[i] = (double)(i % 7), y[i] = 1.0;
  for (int i = 0; i < 64; i++) g[i] = (double)i, m[i / 4][i % 4] = (double)(i * 3);
#pragma acc data copyin(x[0:n], rp[0:n+1], v[0:nnz], g, m[0:16]) copy(y[0:n])
  {
    axpy(n, 2.0, x, y);
    rowsum(n, rp, v, x); /* x on the device: the row sums */
    axpy(n, 0.5, x, y);
    blocks(n, m, y);
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += y[i] * (double)(1 + i % 3);
  printf("nnz %d y %.17g\n", nnz, s);
  free(rp), free(v), free(x), free(y), free(m);
  return 0;
}
