/* Pointers declared before the task region and assigned by its host code.
 *
 *   outer_ptrs [N [BS [STEPS]]]     (defaults 1000000 10000 40)
 *
 * xa and xb are declared (and set) before `omp parallel`; the block under
 * the single swaps them after each step's task loop, and a second pair,
 * declared without a value before the region, is first assigned inside it.
 * Each task reads its block of xa and its neighbours' edge cells and writes
 * its block of xb, so a task that used the pointers' values from the
 * region's start (instead of those at its creation) would read and write
 * the wrong buffers. Only x0 and x1 are mapped. Prints checksums. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000000;
  int bs = argc > 2 ? atoi(argv[2]) : 10000;
  int steps = argc > 3 ? atoi(argv[3]) : 40;
  int nb = (n + bs - 1) / bs;
  double *x0 = malloc(sizeof(double) * (size_t)n), *x1 = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) x0[i] = (double)((i * 7) % 64), x1[i] = 0.0;
  double *xa = x0, *xb = x1;
  double *ya, *yb;
#pragma omp target data map(tofrom: x0[0:n], x1[0:n])
#pragma omp parallel
#pragma omp single
  {
    for (int t = 0; t < steps; t++) {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: xa[b * bs]) depend(in: xa[(b > 0 ? b - 1 : b) * bs]) \
    depend(in: xa[(b + 1 < nb ? b + 1 : b) * bs]) depend(out: xb[b * bs])
        {
          int lo = b * bs, hi = lo + bs < n ? lo + bs : n;
          for (int i = lo; i < hi; i++) {
            double l = i > 0 ? xa[i - 1] : xa[i], r = i + 1 < n ? xa[i + 1] : xa[i];
            xb[i] = 0.25 * l + 0.5 * xa[i] + 0.25 * r;
          }
        }
      }
      double *tmp = xa;
      xa = xb;
      xb = tmp;
    }
    ya = xa;
    yb = xb;
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: ya[b * bs]) depend(in: yb[b * bs])
      {
        int lo = b * bs, hi = lo + bs < n ? lo + bs : n;
        for (int i = lo; i < hi; i++) ya[i] = ya[i] * 2.0 - yb[i];
      }
    }
  }
  double s0 = 0.0, s1 = 0.0;
  for (int i = 0; i < n; i++) s0 += x0[i] * (double)(1 + i % 3), s1 += x1[i] * (double)(1 + i % 5);
  printf("x0 %.6f x1 %.6f last_is_x0 %d\n", s0, s1, xa == x0);
  free(x0), free(x1);
  return 0;
}
