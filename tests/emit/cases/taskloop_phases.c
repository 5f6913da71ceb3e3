/* omp taskloop in a phased task region: each iteration is a task and the
 * taskloop waits for its tasks at its end (an implicit taskgroup), so a time
 * loop of two taskloops is a sequence of phases; `nogroup` leaves the wait to
 * a later taskwait; `collapse(2)`, `grainsize`, `num_tasks`, `firstprivate`
 * and `shared` clauses; a taskloop beside task loops with depend clauses.
 * Compared with the CPU build. */
// expect-in-cu: task type 1
#include <stdio.h>
#include <stdlib.h>

static void relax(const double *u, double *v, int b, int bs, int n) {
  for (int i = b * bs; i < (b + 1) * bs && i < n; i++) {
    double l = i > 0 ? u[i - 1] : 1.0, r = i + 1 < n ? u[i + 1] : 0.0;
    v[i] = 0.5 * u[i] + 0.25 * (l + r);
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  int steps = argc > 2 ? atoi(argv[2]) : 40;
  int bs = 256;
  if (n < 1) n = 1;
  int nb = (n + bs - 1) / bs;
  double *u = malloc(sizeof(double) * (size_t)n), *v = malloc(sizeof(double) * (size_t)n);
  double *g = malloc(sizeof(double) * 64 * 64);
  for (int i = 0; i < n; i++) u[i] = (double)(i % 17) / 16.0, v[i] = 0.0;
  for (int i = 0; i < 64 * 64; i++) g[i] = 0.0;
  double scale = 0.5;
#pragma omp target data map(tofrom: u[0:n], v[0:n], g[0:4096])
#pragma omp parallel
#pragma omp single
  {
    for (int t = 0; t < steps; t++) {
#pragma omp taskloop grainsize(4) shared(u, v)
      for (int b = 0; b < nb; b++) relax(u, v, b, bs, n);
#pragma omp taskloop num_tasks(16) firstprivate(scale)
      for (int b = 0; b < nb; b++)
        for (int i = b * bs; i < (b + 1) * bs && i < n; i++) u[i] = v[i] + scale * 0.0;
    }
#pragma omp taskloop collapse(2) nogroup
    for (int r = 0; r < 64; r++)
      for (int c = 0; c < 64; c++) g[r * 64 + c] = u[(r * 64 + c) % n] * (double)(r - c);
#pragma omp taskwait
    for (int r = 0; r < 64; r++) {
#pragma omp task depend(inout: g[r * 64])
      for (int c = 1; c < 64; c++) g[r * 64 + c] += g[r * 64 + c - 1];
    }
  }
  double s = 0.0, sg = 0.0;
  for (int i = 0; i < n; i++) s += u[i] * (double)(i % 7 + 1);
  for (int i = 0; i < 4096; i++) sg += g[i];
  printf("n=%d steps=%d\nsum %.12e\ngrid %.12e\nu[n/3] %.12e\n", n, steps, s, sg, u[n / 3]);
  return 0;
}
