/* OpenMP 5's loop construct, as NVIDIA's compilers recommend writing it:
 * `target teams loop` (flat, and with an inner `loop reduction` over
 * irregular rows: a nested parallel loop, lowered by CollectiveDP),
 * `target parallel loop`, `teams loop` and `loop` inside `omp target` /
 * `target teams`, an inner `parallel loop`, and `bind` / `order` / `collapse`
 * clauses. Compared with the CPU build (sums of dyadic values are exact). */
// expect-in-cu: nested parallel loop (CollectiveDP
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 300000;
  if (n < 2) n = 2;
  int *rp = malloc(sizeof(int) * ((size_t)n + 1));
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 211 == 0 ? 2500 + i % 1000 : (i * 7) % 29);
  int nnz = rp[n];
  int *col = malloc(sizeof(int) * (size_t)nnz);
  double *val = malloc(sizeof(double) * (size_t)nnz), *x = malloc(sizeof(double) * (size_t)n);
  double *y = malloc(sizeof(double) * (size_t)n), *z = malloc(sizeof(double) * (size_t)n);
  double *w = malloc(sizeof(double) * (size_t)n), *m = malloc(sizeof(double) * (size_t)n * 4);
  for (int k = 0; k < nnz; k++) col[k] = (int)(((long long)k * 7919) % n), val[k] = (double)(k % 13 - 6) / 8.0;
  for (int i = 0; i < n; i++) x[i] = (double)(i % 5) / 4.0;

#pragma omp target teams loop map(to: rp[0:n+1], col[0:nnz], val[0:nnz], x[0:n]) map(from: y[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma omp loop bind(parallel) reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += val[j] * x[col[j]];
    y[i] = s;
  }

#pragma omp target parallel loop map(to: x[0:n]) map(from: z[0:n]) order(concurrent)
  for (int i = 0; i < n; i++) z[i] = x[i] * 2.0 + (double)(i & 3);

  double total = 0.0;
#pragma omp target teams map(to: y[0:n], z[0:n]) map(from: w[0:n], m[0:4*n])
  {
#pragma omp loop
    for (int i = 0; i < n; i++) w[i] = y[i] - z[i];
#pragma omp loop collapse(2)
    for (int i = 0; i < n; i++)
      for (int c = 0; c < 4; c++) m[(size_t)i * 4 + c] = y[i] * (double)c;
  }

#pragma omp target map(to: w[0:n]) map(tofrom: total)
#pragma omp teams loop reduction(+:total)
  for (int i = 0; i < n; i++) total += w[i];

  double rows = 0.0;
#pragma omp target teams loop map(to: rp[0:n+1], val[0:nnz]) reduction(max:rows)
  for (int i = 0; i < n; i++) {
    double t = 0.0;
#pragma omp parallel loop reduction(+:t)
    for (int j = rp[i]; j < rp[i + 1]; j++) t += val[j] * val[j];
    rows = t > rows ? t : rows;
  }

  double sy = 0, sz = 0, sm = 0;
  for (int i = 0; i < n; i++) sy += y[i], sz += z[i];
  for (long k = 0; k < 4L * n; k++) sm += m[k];
  printf("n=%d nnz=%d\ny %.17g\nz %.17g\nm %.17g\ntotal %.17g\nrows %.17g\n", n, nnz, sy, sz, sm, total, rows);
  return 0;
}
