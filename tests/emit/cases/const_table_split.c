/* A phased task region whose loop bounds read through a mapped struct
 * pointer (p->nb), so host code splits it, and whose tasks read a static
 * const table. Each split copies every mapped section back to the host
 * first; the table's host copy lies in read-only memory, so a copy back into
 * it faulted (segfault on the GPU, found by a probe). A const object is
 * mapped so that nothing is ever copied back into it. Compared with the CPU
 * build. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int nb, bs;
} Shape;

static const double weights[4] = {0.5, 0.25, 0.125, 1.0};

static void sweep(double *x, double *y, const Shape *p, int steps) {
  const int n = p->nb * p->bs;
#pragma omp target data map(tofrom: x[0:n], y[0:n]) map(to: p[0:1])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int b = 0; b < p->nb; b++) { // expect-in-cu: the region is split before the statement at line 23
#pragma omp task depend(inout: x[b * p->bs]) depend(in: y[b * p->bs])
      for (int i = b * p->bs; i < (b + 1) * p->bs; i++) x[i] = x[i] * weights[(i + t) % 4] + y[i];
    }
    for (int b = 0; b < p->nb; b++) {
#pragma omp task depend(in: x[b * p->bs]) depend(inout: y[b * p->bs])
      for (int i = b * p->bs; i < (b + 1) * p->bs; i++) y[i] = 0.5 * y[i] + weights[i % 4] * x[i] * 1e-3;
    }
  }
}

int main(int argc, char **argv) {
  Shape s = {argc > 1 ? atoi(argv[1]) : 40, argc > 2 ? atoi(argv[2]) : 500};
  int steps = argc > 3 ? atoi(argv[3]) : 4;
  if (s.nb < 1 || s.bs < 1 || steps < 0 || (long)s.nb * s.bs > (1 << 24)) return 2;
  int n = s.nb * s.bs;
  double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) x[i] = i % 9, y[i] = i % 4;
  sweep(x, y, &s, steps);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += x[i] * (i % 7) + y[i];
  printf("n %d steps %d: %.12e\n", n, steps, sum);
  free(x), free(y);
  return 0;
}
