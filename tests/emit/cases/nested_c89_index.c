// expect-in-cu: nested_c89_index.c:33: nested parallel loop (CollectiveDP
// expect-in-cu: nested_c89_index.c:43: nested parallel loop (CollectiveDP
/* C89 style: the loop indices are declared at the top of the function,
 * outside the region. The inner loop's index is private to it (OpenACC and
 * OpenMP make a loop's index private), so the nest is CollectiveDP (it fell
 * back to a sequential inner loop before, with a note about an assigned
 * firstprivate variable). Where the index is also used after the inner loop
 * the nest stays flat (the third region). CSR rows of 0 to 9000 entries;
 * compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n, i, j, nnz;
  int *rp, *col;
  double *val, *x, *y, *z, *w;
  n = argc > 1 ? atoi(argv[1]) : 60000;
  rp = malloc(sizeof(int) * ((size_t)n + 1));
  if (!rp) return 1;
  rp[0] = 0;
  for (i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 997 == 0 ? 9000 : i % 23);
  nnz = rp[n];
  col = malloc(sizeof(int) * (size_t)nnz);
  val = malloc(sizeof(double) * (size_t)nnz);
  x = malloc(sizeof(double) * (size_t)n);
  y = malloc(sizeof(double) * (size_t)n);
  z = malloc(sizeof(double) * (size_t)n);
  w = malloc(sizeof(double) * (size_t)n);
  if (!col || !val || !x || !y || !z || !w) return 1;
  for (j = 0; j < nnz; j++) col[j] = (int)(((unsigned)j * 2654435761u) % (unsigned)n), val[j] = (j % 13) * 0.125;
  for (i = 0; i < n; i++) x[i] = (i % 7) - 3.0;

#pragma acc parallel loop copyin(rp[0:n + 1], col[0:nnz], val[0:nnz], x[0:n]) copyout(y[0:n])
  for (i = 0; i < n; i++) {
    double sum = 0.0;
#pragma acc loop reduction(+:sum)
    for (j = rp[i]; j < rp[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum;
  }

  int k;
#pragma omp target teams distribute parallel for map(to: rp[0:n + 1], col[0:nnz], val[0:nnz], x[0:n]) map(from: z[0:n])
  for (i = 0; i < n; i++) {
    double m = -1e300;
#pragma omp parallel for reduction(max:m)
    for (k = rp[i + 1] - 1; k >= rp[i]; k--)
      m = val[k] * x[col[k]] > m ? val[k] * x[col[k]] : m;
    z[i] = m > -1e300 ? m : 0.0; /* empty rows */
  }

#pragma acc parallel loop copyin(rp[0:n + 1], val[0:nnz]) copyout(w[0:n])
  for (i = 0; i < n; i++) {
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (j = rp[i]; j < rp[i + 1]; j++)
      s += val[j];
    w[i] = s + j; /* j after the loop: rp[i + 1] in both builds */
  }

  double sy = 0.0, sq = 0.0, sz = 0.0, sw = 0.0;
  for (i = 0; i < n; i++) sy += y[i] * (i % 5 + 1), sq += y[i] * y[i], sz += z[i], sw += w[i];
  printf("y %.17g %.17g\nz %.17g\nw %.17g\n", sy, sq, sz, sw);
  free(rp), free(col), free(val), free(x), free(y), free(z), free(w);
  return 0;
}
