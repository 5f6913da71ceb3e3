/* A scalar declared before the region and made private by the inner loop's
 * own clause (`acc loop private(t)`, `omp parallel for private(t)`), used
 * nowhere else in the region: each inner iteration has its own t, as for an
 * inner index declared outside. The nest is lowered with CollectiveDP (it
 * ran sequentially, with a warning that t was firstprivate). Compared with
 * the CPU build. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 30000;
  if (n < 0 || n > (1 << 22)) return 2;
  int *rp = malloc(sizeof(int) * (size_t)(n + 1));
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 10 == 0 ? 3000 : i % 40);
  int nnz = rp[n];
  int *v = malloc(sizeof(int) * (size_t)(nnz + 1));
  for (int k = 0; k < nnz; k++) v[k] = k % 13 - 6;
  long *o = malloc(sizeof(long) * (size_t)(n + 1));
  double *w = malloc(sizeof(double) * (size_t)(n + 1));
  long t;
  double u;
  int k;
#pragma acc parallel loop copyin(rp[0:n+1], v[0:nnz]) copyout(o[0:n]) // expect-in-cu: nested parallel loop (CollectiveDP
  for (int i = 0; i < n; i++) {
    long s = 0;
#pragma acc loop reduction(+:s) private(t)
    for (k = rp[i]; k < rp[i + 1]; k++) {
      t = v[k] * 3;
      s += t;
    }
    o[i] = s;
  }
#pragma omp target teams distribute map(to: rp[0:n+1], v[0:nnz]) map(from: w[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0;
#pragma omp parallel for reduction(+:s) private(u)
    for (int j = rp[i]; j < rp[i + 1]; j++) {
      u = 0.5 * v[j];
      s += u * u;
    }
    w[i] = s;
  }
  long c = 0;
  double d = 0;
  for (int i = 0; i < n; i++) c += o[i] * (i % 7 + 1), d += w[i] * (i % 5);
  printf("n %d: %ld %.6f\n", n, c, d);
  free(rp), free(v), free(o), free(w);
  return 0;
}
