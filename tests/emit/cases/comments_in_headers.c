/* Comments inside loop headers, bounds and clause-adjacent code: the
 * canonical-form check reads the header without them, and a `//` comment
 * in a bound does not hide the rest of a generated line. Flat, collapsed,
 * nested (CollectiveDP) and task loops; compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 16;
  if (n < 4) n = 4;
  double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
  int *rp = malloc(sizeof(int) * ((size_t)n + 1));
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 1000 == 0 ? 5000 : i % 9), x[i] = 0.0, y[i] = 0.0;
#pragma acc data copy(x[0:n], y[0:n]) copyin(rp[0:n+1])
  {
#pragma acc parallel loop
    for (int i = 0; i < n // the rows
         ; i++)
      x[i] = i % 13;
#pragma acc parallel loop
    for (int i = 0 /* first */; i /* index */ < n; i++ /* next */)
      x[i] += 1.0;
#pragma acc parallel loop collapse(2)
    for (int b = 0; b < 4; // blocks
         b++)
      for (int j = 0; j < n / 4 /* block length */; j++)
        y[b * (n / 4) + j] = b;
#pragma acc parallel loop // expect-in-cu: nested parallel loop (CollectiveDP
    for (int i = 0; i < n; i++) {
      double s = 0.0;
#pragma acc loop reduction(+:s)
      for (int j = rp[i]; // row start
           j < rp[i + 1] /* row end */;
           j++)
        s += x[j % n];
      y[i] += s;
    }
  }
  double *z = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) z[i] = 1.0;
#pragma omp target data map(tofrom: z[0:n])
#pragma omp parallel
#pragma omp single
  for (int b = 1; b < 8 /* tasks */; b++) {
#pragma omp task depend(in: z[(b - 1) * (n / 8)]) depend(out: z[b * (n / 8)])
    for (int i = b * (n / 8); i < (b + 1) * (n / 8) // block
         ; i++)
      z[i] += z[i - n / 8];
  }
  double sx = 0, sy = 0, sz = 0;
  for (int i = 0; i < n; i++) sx += x[i], sy += y[i], sz += z[i];
  printf("n %d x %.1f y %.1f z %.1f\n", n, sx, sy, sz);
  return 0;
}
