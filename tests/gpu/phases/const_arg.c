/* Tasks that pass the address of a shared scalar or struct to a helper
 * whose parameter points to const (`apply(&c, ...)`): the helper only reads
 * it, so the tasks may share it (gtcc once counted `&c` as a write and
 * rejected the program). Host code between phases changes c and s: each
 * task must see them as they were at its creation.
 *
 *   const_arg [N [BS [STEPS]]]     (defaults 200000 1000 30)
 *
 * Each step, one task per block maps its block of x through apply() and
 * scaled(); after a taskwait the host code changes c.a and s. Prints
 * checksums of x. Compared with the cc build by run_gpu_tests.sh and
 * tests/fallback. */
#include <stdio.h>
#include <stdlib.h>

struct coef {
  double a, b;
};

static double apply(const struct coef *c, double v) { return c->a * v + c->b; }
static double scaled(const double *s, double v) { return *s * v; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200000, bs = argc > 2 ? atoi(argv[2]) : 1000;
  int steps = argc > 3 ? atoi(argv[3]) : 30;
  if (argc > 4 || n < 0 || bs < 1 || steps < 0) {
    fprintf(stderr, "usage: const_arg [N [BS [STEPS]]]\n");
    return 2;
  }
  int nb = (n + bs - 1) / bs;
  double *x = malloc(sizeof(double) * ((size_t)n + 1));
  if (!x) return 1;
  for (int i = 0; i < n; i++) x[i] = (double)(i % 97) / 97.0;
  struct coef c = {0.5, 0.25};
  double s = 0.75;

#pragma omp target data map(tofrom: x[0:n+1])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: x[b*bs])
      {
        const int lo = b * bs, hi = lo + bs < n ? lo + bs : n;
        for (int i = lo; i < hi; i++) x[i] = apply(&c, x[i]) + scaled(&s, (double)(i % 5)) * 1e-3;
      }
    }
#pragma omp taskwait
    c.a = c.a > 0.9 ? 0.5 : c.a + 0.0625;
    s = -s * 0.5;
  }

  double sum = 0, wsum = 0;
  for (int i = 0; i < n; i++) sum += x[i], wsum += x[i] * (double)(i % 13);
  printf("const_arg n %d bs %d steps %d: sum %.15e wsum %.15e x[0] %.15e x[n-1] %.15e\n", n, bs, steps, sum, wsum,
         n ? x[0] : 0.0, n ? x[n - 1] : 0.0);
  free(x);
  return 0;
}
