/* A phased task region whose host code reads and writes local arrays and a
 * local struct's array member that no task can reach (no task names them,
 * and their address never becomes a pointer value): the region needs no
 * split for them, and runs in one megakernel. `shared`'s address does
 * become a value (`alias`, which the tasks use), so its host write still
 * splits the region and goes back to the device before the next tasks.
 * Compared with the CPU build. Arguments: NB BS STEPS. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double a[4];
  int k;
} Table;

static double run(double *x, int nb, int bs, int steps) {
  const int n = nb * bs;
  Table tb = {{0.5, 0.25, 1.0, 2.0}, 3};
  double loc[4] = {1.0, 2.0, 3.0, 4.0};
  double hist[64] = {0};
  double grid[4][4] = {{0}};
  double total = 0;
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    const double f = tb.a[t % 4] * 0.5; // expect-not-in-cu: split before the statement at line 27
    const double g = loc[t % 4] + grid[t % 4][(t + 1) % 4]; // expect-not-in-cu: split before the statement at line 28
    hist[t % 64] += f + tb.k; // expect-not-in-cu: split before the statement at line 29
    grid[t % 4][t % 3] = g * 0.125; // expect-not-in-cu: split before the statement at line 30
    loc[(t + 2) % 4] = 1.0 + 0.5 * loc[t % 4]; // expect-not-in-cu: split before the statement at line 31
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: x[b * bs])
      for (int i = b * bs; i < (b + 1) * bs; i++) x[i] = x[i] * f + g * 1e-3;
    }
  }
  for (int i = 0; i < 64; i++) total += hist[i] * (i + 1);
  for (int i = 0; i < 16; i++) total += grid[i / 4][i % 4] * (i + 2);
  return total;
}

/* `shared` reaches the tasks through `alias`: writing it splits the region.
 * (The taskwait orders it after the tasks that read it, as OpenMP needs.)
 * `mapped` is in a map clause: its device copy comes back at the data
 * region's end, so the host's writes split the region and go to the device
 * before the next tasks, although no task reads it. */
static double run_alias(double *x, int nb, int bs, int steps) {
  const int n = nb * bs;
  double shared[4] = {0.5, 0.75, 1.0, 1.25};
  double mapped[4] = {0};
  double *alias = shared;
#pragma omp target data map(tofrom: x[0:n], mapped[0:4]) map(to: alias[0:4])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
#pragma omp taskwait
    shared[t % 4] = 0.25 + 0.125 * t; // expect-in-cu: split before the statement at line 57
    mapped[t % 4] += 1.0 + t; // expect-in-cu: split before the statement at line 58
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: x[b * bs])
      for (int i = b * bs; i < (b + 1) * bs; i++) x[i] = x[i] * 0.5 + alias[(i + t) % 4];
    }
  }
  return shared[0] + shared[3] + mapped[0] + 2 * mapped[1] + 3 * mapped[2] + 4 * mapped[3];
}

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 64, bs = argc > 2 ? atoi(argv[2]) : 1024;
  int steps = argc > 3 ? atoi(argv[3]) : 100;
  if (nb < 0 || bs < 1 || steps < 0 || (long)nb * bs > (1 << 24)) return 2;
  int n = nb * bs;
  double *x = malloc(sizeof(double) * (size_t)(n + 1));
  for (int i = 0; i < n; i++) x[i] = 1.0 + i % 9;
  double h = run(x, nb, bs, steps);
  double s1 = 0;
  for (int i = 0; i < n; i++) s1 += x[i] * (i % 7 + 1);
  double a = run_alias(x, nb, bs, steps);
  double s2 = 0;
  for (int i = 0; i < n; i++) s2 += x[i] * (i % 5 + 1);
  printf("n %d steps %d: %.12e %.12e %.12e %.12e\n", n, steps, h, s1, a, s2);
  free(x);
  return 0;
}
