/* Atomic constructs in the tasks of a phased region: many tasks of a step
 * update a shared scalar counter, a shared scalar sum and shared bins, and a
 * depend-only chain of steps updates them too; the host reads them after the
 * region. OpenMP makes these variables shared in the tasks (they are
 * declared before `omp parallel`), so a task working on its own copy would
 * lose its updates: the counts would differ from the CPU build's.
 *
 *   atomics [N [BS [STEPS]]]     (defaults 200000 500 20)
 *
 * Per step: task loop A (taskwait after it) scales its block and counts the
 * cells that cross a threshold; single task S captures the step number of
 * the counter's update; task loop B (depend on the block only) adds to
 * histogram bins. Values are multiples of 1/8, so sums are exact in any
 * order. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200000, bs = argc > 2 ? atoi(argv[2]) : 500;
  int steps = argc > 3 ? atoi(argv[3]) : 20;
  if (n < 0 || bs < 1 || steps < 0) return 1;
  int nb = (n + bs - 1) / bs;
  double *u = malloc(sizeof(double) * ((size_t)n + 1));
  int *stamp = malloc(sizeof(int) * ((size_t)steps + 1));
  if (!u || !stamp) return 1;
  for (int i = 0; i < n; i++) u[i] = (double)(i % 64) * 0.125;
  for (int t = 0; t < steps; t++) stamp[t] = -1;
  long long crossed = 0;
  double total = 0.0;
  int bins[8] = {0};
  unsigned ticks = 0;
#pragma omp target data map(tofrom: u[0:n], stamp[0:steps])
  {
#pragma omp parallel
#pragma omp single
    for (int t = 0; t < steps; t++) {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: u[b * bs])
        {
          int hi = (b + 1) * bs < n ? (b + 1) * bs : n;
          for (int i = b * bs; i < hi; i++) {
            double v = u[i] >= 8.0 ? u[i] - 7.875 : u[i] + 0.5;
            if (v < u[i]) {
#pragma omp atomic
              crossed++;
            }
            u[i] = v;
          }
#pragma omp atomic update
          total += u[b * bs];
        }
      }
#pragma omp taskwait
#pragma omp task depend(inout: stamp[t])
      {
        unsigned mine;
#pragma omp atomic capture
        mine = ticks++;
        stamp[t] = (int)mine;
      }
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: u[b * bs])
        {
          int hi = (b + 1) * bs < n ? (b + 1) * bs : n;
          for (int i = b * bs; i < hi; i++) {
#pragma omp atomic
            bins[(int)u[i] & 7] += 1;
          }
        }
      }
#pragma omp taskwait
    }
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += u[i] * (i % 5 + 1);
  long long st = 0;
  for (int t = 0; t < steps; t++) st += (long long)stamp[t] * (t + 1);
  printf("crossed=%lld ticks=%u stamps=%lld bins=%d,%d,%d,%d,%d,%d,%d,%d\n", crossed, ticks, st, bins[0], bins[1],
         bins[2], bins[3], bins[4], bins[5], bins[6], bins[7]);
  printf("total %.17g\nu %.17g\n", total, s);
  free(u), free(stamp);
  return 0;
}
