/* OpenACC `declare`: at file scope the device copy of a global lives for
 * the whole program (gtcc enters it when the file's first construct runs);
 * in a function it lives to the end of the block, and its exits run before
 * every return too (a copyout comes back on the early return as well).
 * Declared scalars are read from the device copy: the serial code's write of
 * `scale` reaches the loop after it without an update (and a reduction over
 * it), and the host sees it only after `acc update self`. The sections of a
 * declare or data region are taken at its start (the exits copy back all of
 * v[0:n] after the loop halved n); a function-scope `declare present` of a
 * global, as the program's first construct, finds the global present. A nested loop (CollectiveDP) uses declared
 * arrays. Compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

#define N 200000
#define ROWS 4000

double grid[N];
double coef[8] = {0.5, 0.25, 0.125, 1.0, 2.0, 4.0, 0.75, 1.5};
double scale;
int rp[ROWS + 1];
#pragma acc declare create(grid, scale)
#pragma acc declare copyin(coef) device_resident(rp)

/* copyout on the early return too; the return value is computed before the exits */
static long fill(double *y, int n, int mode) {
  double *t = malloc(sizeof(double) * (size_t)n);
#pragma acc declare create(t[0:n]) copyout(y[0:n])
#pragma acc parallel loop present(t[0:n])
  for (int i = 0; i < n; i++) t[i] = coef[i % 8] * (double)(i % 1000);
  if (mode == 1) {
#pragma acc parallel loop present(t[0:n], y[0:n])
    for (int i = 0; i < n; i++) y[i] = t[i] + 1.0;
    free(t);
    return (long)n + 1;
  }
#pragma acc parallel loop present(t[0:n], y[0:n])
  for (int i = 0; i < n; i++) y[i] = 2.0 * t[i];
  free(t);
  return (long)n + 2;
}

/* a declare in a loop body: entered and left on every iteration */
static double blocks(const double *x, int n, int nb) {
  double total = 0.0;
  for (int b = 0; b < nb; b++) {
    int lo = b * (n / nb), len = n / nb;
    double part = 0.0;
#pragma acc declare copyin(x[lo:len])
#pragma acc parallel loop reduction(+:part) present(x[lo:len])
    for (int i = lo; i < lo + len; i++) part += x[i] * (double)(b + 1);
    total += part;
  }
  return total;
}

/* the program's first construct: the file-scope data must be entered before the present check */
static double coef_sum(void) {
  double cs = 0.0;
#pragma acc declare present(coef)
#pragma acc parallel loop reduction(+:cs)
  for (int i = 0; i < 8; i++) cs += coef[i];
  return cs;
}

/* the sections are taken when the data's lifetime starts: n and m change before the exits */
static void tree_sum(double *v, int n) {
#pragma acc declare copy(v[0:n])
  while (n > 1) {
    int h = (n + 1) / 2;
#pragma acc parallel loop present(v[0:n])
    for (int i = 0; i < n / 2; i++) v[i] += v[i + h];
    n = h;
  }
}

static double shrink_in_data(double *w, int m) {
  int m0 = m;
#pragma acc data copy(w[0:m])
  {
#pragma acc parallel loop present(w[0:m])
    for (int i = 0; i < m; i++) w[i] = 2.0 * w[i] + 1.0;
    m = 10;
  }
  double t = 0.0;
  for (int i = 0; i < m0; i++) t += w[i];
  return t;
}

int main(void) {
  double cs = coef_sum();
  for (int i = 0; i < N; i++) grid[i] = (double)(i % 97);
#pragma acc update device(grid)
  /* the device copy of scale is set by serial code and read by the loop after it */
#pragma acc serial
  scale = 0.5;
#pragma acc parallel loop
  for (int i = 0; i < N; i++) grid[i] = grid[i] * scale + coef[i % 8];
  double host_scale = scale; /* still the host's value: 0 (the CPU build: 0.5) */
#pragma acc update self(scale)
  /* row pointers built on the device; rows of 0 .. 2500 entries */
#pragma acc serial
  {
    rp[0] = 0;
    for (int r = 0; r < ROWS; r++) rp[r + 1] = rp[r] + (r % 40 == 0 ? 2500 : r % 13);
  }
  double rowsum[ROWS];
#pragma acc parallel loop copyout(rowsum)
  for (int r = 0; r < ROWS; r++) {
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rp[r]; j < rp[r + 1]; j++) s += grid[j % N] * coef[j % 8];
    rowsum[r] = s;
  }
#pragma acc update self(grid)
  double g = 0.0, rs = 0.0;
  for (int i = 0; i < N; i++) g += grid[i];
  for (int r = 0; r < ROWS; r++) rs += rowsum[r] * (double)(r % 5);
  double *y = malloc(sizeof(double) * N);
  long f1 = fill(y, N, 1);
  double y1 = 0.0;
  for (int i = 0; i < N; i++) y1 += y[i];
  long f2 = fill(y, N, 2);
  double y2 = 0.0;
  for (int i = 0; i < N; i++) y2 += y[i];
  double bl = blocks(grid, N, 8);
  for (int i = 0; i < N; i++) y[i] = (double)(i % 10);
  tree_sum(y, N);
  double ts = 0.0;
  for (int i = 0; i < N; i++) ts += y[i] * (double)(1 + i % 3);
  for (int i = 0; i < N; i++) y[i] = (double)(i % 6);
  double sd = shrink_in_data(y, N);
  /* a reduction over a declared scalar starts from its device copy, which serial code set */
#pragma acc serial
  scale = 0.25;
#pragma acc parallel loop reduction(+:scale)
  for (int i = 0; i < N; i++) scale += grid[i] > 40.0 ? 1.0 : 0.0;
#pragma acc update self(scale)
  printf("scale %.3f host_scale_set %d grid %.4f rows %.4f\n", scale, host_scale == 0.5 || host_scale == 0.0, g, rs);
  printf("fill %ld %.4f %ld %.4f blocks %.4f\n", f1, y1, f2, y2, bl);
  printf("coef %.4f tree %.4f shrink %.4f counted %.2f\n", cs, ts, sd, scale);
  free(y);
  return 0;
}
