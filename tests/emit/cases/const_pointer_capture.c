// nvcc-quiet
/* Pointers that are themselves const (`const double *const p`, `int *const
 * idx`) captured by a flat and a nested loop: the launch stub casts the
 * device address to the pointer's type without the outermost qualifier,
 * which nvcc would call meaningless (warning #191). Compared with the CPU
 * build. */
#include <stdio.h>
#include <stdlib.h>

static double weigh(const double *const w, int *const idx, int n, double *out, double *rows) {
#pragma acc parallel loop copyin(w[0:n], idx[0:n+1]) copyout(out[0:n])
  for (int i = 0; i < n; i++) out[i] = 2.0 * w[i] + idx[i];
#pragma acc parallel loop copyin(w[0:n], idx[0:n+1]) copyout(rows[0:n]) // expect-in-cu: nested parallel loop (CollectiveDP
  for (int i = 0; i < n; i++) {
    double r = 0.0;
#pragma acc loop reduction(+:r)
    for (int j = idx[i]; j < idx[i + 1]; j++) r += w[j % n];
    rows[i] = r;
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += rows[i];
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 18;
  if (n < 1) n = 1;
  double *w = malloc(sizeof(double) * (size_t)n), *out = malloc(sizeof(double) * (size_t)n);
  double *rows = malloc(sizeof(double) * (size_t)n);
  int *idx = malloc(sizeof(int) * ((size_t)n + 1));
  idx[0] = 0;
  for (int i = 0; i < n; i++) w[i] = (double)(i % 29), idx[i + 1] = idx[i] + (i % 501 == 0 ? 4000 : i % 7);
  const double *const cw = w;
  int *const cidx = idx;
  double s = weigh(cw, cidx, n, out, rows), t = 0.0;
  for (int i = 0; i < n; i++) t += out[i];
  printf("n %d nested %.1f flat %.1f\n", n, s, t);
  return 0;
}
