/* `omp parallel default(none) shared(...)` around tasks whose own clauses
 * say otherwise: firstprivate(c) takes c's value at each task's creation
 * (the host code changes c between creations), private(t) gives each task
 * its own t. The inner clause decides, as OpenMP says; gtcc used to
 * reject the pair as "already in a clause of this construct". Then
 * firstprivate / private on the parallel and single themselves. Compared
 * with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 512, bs = 256, steps = argc > 2 ? atoi(argv[2]) : 20;
  if (nb < 1) nb = 1;
  int n = nb * bs;
  double *u = malloc(sizeof(double) * (size_t)n), *v = malloc(sizeof(double) * (size_t)n);
  char *tok = malloc((size_t)nb + 2);
  for (int i = 0; i < n; i++) u[i] = (double)(i % 17), v[i] = 0.0;
  double c = 0.5, t = -1.0;
#pragma omp target data map(tofrom: u[0:n], v[0:n]) map(alloc: tok[0:nb+2])
#pragma omp parallel default(none) shared(u, v, tok, c, t, nb, bs, n, steps)
#pragma omp single
  for (int s = 0; s < steps; s++) {
    c = 0.25 + 0.01 * s; /* each step's tasks see this step's c */
    for (int b = 0; b < nb; b++) {
#pragma omp task firstprivate(c) private(t) depend(in: tok[b], tok[b+2]) depend(out: tok[b+1])
      {
#pragma omp parallel for
        for (int i = b * bs; i < (b + 1) * bs; i++) {
          double l = i > 0 ? u[i - 1] : 0.0, r = i + 1 < n ? u[i + 1] : 0.0;
          v[i] = u[i] + c * (l - 2.0 * u[i] + r);
        }
        t = v[b * bs]; /* the task's own t */
        v[b * bs] = t + 0.0;
      }
    }
#pragma omp taskwait
    for (int b = 0; b < nb; b++) {
#pragma omp task private(t) depend(in: tok[b+1]) depend(out: tok[b])
      {
#pragma omp parallel for
        for (int i = b * bs; i < (b + 1) * bs; i++) u[i] = v[i];
      }
    }
#pragma omp taskwait
  }
  double sum = 0.0, w = 0.0;
  for (int i = 0; i < n; i++) sum += u[i], w += u[i] * (double)(1 + i % 7);
  /* (t is not printed: the CPU build, without the pragmas, has one t) */
  printf("c %.2f sum %.17g w %.17g\n", c, sum, w);

  /* firstprivate / private on the constructs around the tasks: the region's
   * host code changes its own c and s, step by step (the values after the
   * region differ from the CPU build's, which has no private copies: not
   * printed; tests/driver/test_region_privates.sh checks them) */
  double g = 1.0;
  int s = -1;
#pragma omp target data map(tofrom: u[0:n], v[0:n]) map(alloc: tok[0:nb+2])
#pragma omp parallel firstprivate(g) shared(u, v, tok)
#pragma omp single private(s)
  for (s = 0; s < steps; s++) {
    g = g * 0.75 + 0.125;
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: tok[b]) depend(out: tok[b+1])
      for (int i = b * bs; i < (b + 1) * bs; i++) v[i] = u[i] * g + (double)s;
    }
#pragma omp taskwait
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: tok[b+1]) depend(out: tok[b])
      for (int i = b * bs; i < (b + 1) * bs; i++) u[i] = 0.5 * v[i];
    }
#pragma omp taskwait
  }
  sum = 0.0;
  for (int i = 0; i < n; i++) sum += u[i] * (double)(1 + i % 5);
  printf("second sum %.17g\n", sum);
  free(u), free(v), free(tok);
  return 0;
}
