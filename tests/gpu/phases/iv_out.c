/* Loop variables of task loops declared before the region keep the values
 * the CPU build leaves on the host: after each task loop nest, what the
 * source loop leaves (lb + trip * step), read by host code (`last = b`) and
 * by a later task (firstprivate at its creation), and after the region.
 * gtcc once declared its own `int b` in the host walk, so the host's b was
 * never assigned (`b 1 last -1` against `b 6 last 6`).
 *
 *   iv_out [NB [BS [STEPS]]]     (defaults 40 32 7)
 *
 * Stages: a 1-deep loop whose trip count changes with t (none when
 * NB <= 3 * (t % 4)), a task that reads b, a 2-deep nest whose outer loop
 * has no iteration when t % 3 == 1 (then j keeps the value of the step
 * before, not the one its bounds give now), a loop counting down whose
 * variable a task reads after a taskwait. Prints the host's loop
 * variables, the values the tasks recorded and checksums. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 40, bs = argc > 2 ? atoi(argv[2]) : 32;
  int steps = argc > 3 ? atoi(argv[3]) : 7;
  if (argc > 4 || nb < 0 || bs < 4 || steps < 0) { /* the nest writes a[i * BS + 4] */
    fprintf(stderr, "usage: iv_out [NB [BS >= 4 [STEPS]]]\n");
    return 2;
  }
  int n = nb * bs, nh = steps + 1;
  long *a = calloc((size_t)n + 1, sizeof(long)), *seen = calloc((size_t)nh * 4, sizeof(long));
  if (!a || !seen) return 1;
  int b = -7, i = -8, j = -9, k = -10, t, last = -1;
  long sum_b = 0, sum_j = 0;

#pragma omp target data map(tofrom: a[0:n+1], seen[0:4*nh])
#pragma omp parallel
#pragma omp single
  for (t = 0; t < steps; t++) {
    for (b = 0; b < nb - 3 * (t % 4); b += 2) {
#pragma omp task depend(inout: a[b * bs])
      for (int x = b * bs; x < (b + 1) * bs; x++) a[x] = (a[x] * 3 + t + b) % 1000003;
    }
    last = b;
    sum_b += b;
#pragma omp task depend(inout: seen[4 * t])
    seen[4 * t] = b * 100 + t; /* b as the host left it after the loop */
#pragma omp taskwait
    for (i = t % 3 == 1 ? nb : 0; i < nb; i++)
      for (j = 1; j <= 3 + t % 2; j++) {
#pragma omp task depend(inout: a[i * bs + j])
        a[i * bs + j] += i + 10 * j;
      }
    sum_j += j;
#pragma omp task depend(inout: seen[4 * t + 1])
    seen[4 * t + 1] = i * 1000 + j;
#pragma omp taskwait
    for (k = nb - 1; k >= t % 2; k--) {
#pragma omp task depend(inout: a[k * bs + bs - 1])
      a[k * bs + bs - 1] += k;
    }
#pragma omp taskwait
#pragma omp task depend(out: seen[4 * t + 2])
    seen[4 * t + 2] = k;
  }

  long long s = 0, sh = 0;
  for (int x = 0; x < n; x++) s += a[x] * (x % 11 + 1);
  for (int x = 0; x < 4 * nh; x++) sh += seen[x] * (x % 7 + 1);
  printf("iv_out nb %d bs %d steps %d\n", nb, bs, steps);
  printf("t %d b %d last %d sum_b %ld i %d j %d sum_j %ld k %d\n", t, b, last, sum_b, i, j, sum_j, k);
  printf("checksum %lld seen %lld\n", s, sh);
  for (int x = 0; x < steps && x < 6; x++)
    printf("step %d: %ld %ld %ld\n", x, seen[4 * x], seen[4 * x + 1], seen[4 * x + 2]);
  free(a), free(seen);
  return 0;
}
