/* Depend items through two pointers that alias: y = x + 1 in the region,
 * so y[b] is x[b+1], which task b-1 writes. The tasks of one loop form a
 * chain. gtcc's affine analysis takes different variables for different
 * memory; for pointers the host walk's addresses must decide (it once
 * ran such a loop as independent tasks: a race).
 *
 *   alias_ptrs [N [STEPS]]     (defaults 20000 3)
 *
 * Each step runs a chain over x through y, then an independent loop over z
 * and w = z + N + 4 (disjoint halves of one buffer: no dependence, but
 * found only at run time). Prints checksums. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000, steps = argc > 2 ? atoi(argv[2]) : 3;
  if (argc > 3 || n < 0 || steps < 0) {
    fprintf(stderr, "usage: alias_ptrs [N [STEPS]]\n");
    return 2;
  }
  double *x = malloc(sizeof(double) * ((size_t)n + 2));
  double *z = malloc(sizeof(double) * (2 * (size_t)n + 8));
  if (!x || !z) return 1;
  for (int i = 0; i < n + 2; i++) x[i] = 1.0 + (i % 3) * 0.25;
  for (int i = 0; i < 2 * n + 8; i++) z[i] = (i % 7) * 0.5;

#pragma omp target data map(tofrom: x[0:n+2], z[0:2*n+8])
#pragma omp parallel
#pragma omp single
  {
    double *y = x + 1, *w = z + n + 4;
    for (int t = 0; t < steps; t++) {
      for (int b = 0; b < n; b++) {
#pragma omp task depend(in: y[b]) depend(out: x[b + 2])
        x[b + 2] = 0.5 * y[b] + 0.25 * t + 1.0;
      }
      for (int b = 0; b < n; b++) {
#pragma omp task depend(in: z[b]) depend(out: w[b])
        w[b] = z[b] * 0.5 + t;
      }
#pragma omp taskwait
    }
  }
  double s = 0, sw = 0;
  for (int i = 0; i < n + 2; i++) s += x[i] * (i % 7 + 1);
  for (int i = 0; i < 2 * n + 8; i++) sw += z[i] * (i % 5 + 1);
  printf("alias_ptrs n %d steps %d\n", n, steps);
  printf("x sum %.12g last %.12g z sum %.12g\n", s, x[n + 1], sw);
  free(x);
  free(z);
  return 0;
}
