/* Data clauses on the inner directive of a nested parallel loop, naming data
 * the outer construct or an enclosing data region already maps (users write
 * the inner `acc parallel loop` / `omp target teams distribute parallel for`
 * as a whole directive, data clauses included): the data is present, so the
 * clause moves nothing. gtcc used to reject every inner data clause. Rows of
 * 0..40 entries and every 97th of 5000, so both the parent's tiers and the
 * next-level kernel run the inner loops. Built once per --cdp mode and
 * compared with the CPU build. Argument: the row count (default 60000). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 60000;
  if (n < 0) return 1;
  int *rp = malloc(sizeof(int) * (size_t)(n + 1));
  if (!rp) return 1;
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 97 == 0 ? 5000 : (i * 7) % 41);
  int nnz = rp[n];
  int *col = malloc(sizeof(int) * ((size_t)nnz + 1));
  double *val = malloc(sizeof(double) * ((size_t)nnz + 1)), *x = malloc(sizeof(double) * ((size_t)n + 1));
  double *y = malloc(sizeof(double) * ((size_t)n + 1)), *z = malloc(sizeof(double) * ((size_t)n + 1));
  if (!col || !val || !x || !y || !z) return 1;
  unsigned s = 12345;
  for (int k = 0; k < nnz; k++) {
    s = s * 1103515245u + 12345u;
    col[k] = (int)((s >> 8) % (unsigned)n);
    val[k] = ((s >> 4) % 17) * 0.125 - 1;
  }
  for (int i = 0; i < n; i++) x[i] = (i % 13) * 0.25;

#pragma acc parallel loop copyin(rp[0:n+1], col[0:nnz], val[0:nnz], x[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double sum = 0;
#pragma acc parallel loop reduction(+:sum) present(col, val) copyin(x[0:n])
    for (int j = rp[i]; j < rp[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }

#pragma omp target data map(to: rp[0:n+1], col[0:nnz], val[0:nnz], y[0:n]) map(from: z[0:n])
  {
#pragma omp target teams distribute
    for (int i = 0; i < n; i++) {
      double m = 0;
#pragma omp target teams distribute parallel for reduction(max:m) map(to: val[0:nnz], col[0:nnz], y[0:n])
      for (int j = rp[i]; j < rp[i + 1]; j++) m = m > val[j] * y[col[j]] ? m : val[j] * y[col[j]];
      z[i] = m;
    }
  }

  double sy = 0, sz = 0;
  for (int i = 0; i < n; i++) sy += y[i] * (i % 5 + 1), sz += z[i] * (i % 3 + 1);
  printf("y %.10e z %.10e y[0] %.10e z[n/2] %.10e\n", sy, sz, n ? y[0] : 0, n ? z[n / 2] : 0);
  return 0;
}
