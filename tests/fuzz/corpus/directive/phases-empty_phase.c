/* Phases with no tasks.
 *
 *   empty_phase [N [BS [STEPS [POISON]]]]     (defaults 50000 500 40 0)
 *
 * Per step: task loop A (s += a; a = 0.75 a + c(t) b), taskwait; task loop P over POISON
 * blocks (0 unless given: a phase with zero tasks whose trip count is only
 * known at run time; its tasks would overwrite a with NaN), taskwait,
 * taskwait again (two in a row: an empty phase); task loop B over m blocks
 * where the host code sets m = 0 on every third step (b = g(a)), taskwait;
 * on odd steps a single task records a probe of block 0 of a and b into
 * hist[t] (its depend items name that block).
 * s sums a over the steps, so a lost or repeated task of any step shows
 * in the output. Prints checksums of a, b, s and hist. */
#include <stdio.h>
#include <stdlib.h>

static int block_len(int blk, int bs, int n) {
  int rest = n - blk * bs;
  return rest < bs ? rest : bs;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 50000, bs = argc > 2 ? atoi(argv[2]) : 500;
  int steps = argc > 3 ? atoi(argv[3]) : 40, poison = argc > 4 ? atoi(argv[4]) : 0;
  if (argc > 5 || n < 0 || bs < 1 || steps < 0 || poison < 0) {
    fprintf(stderr, "usage: empty_phase [N [BS [STEPS [POISON]]]]\n");
    return 2;
  }
  int nb = (n + bs - 1) / bs, len0 = n < bs ? n : bs; /* the probe reads block 0 only */
  if (poison > nb) poison = nb;
  double *a = malloc(sizeof(double) * ((size_t)n + 1)), *b = malloc(sizeof(double) * ((size_t)n + 1));
  double *s = calloc((size_t)n + 1, sizeof(double)), *hist = calloc((size_t)steps + 1, sizeof(double));
  if (!a || !b || !s || !hist) return 1;
  for (int i = 0; i < n; i++) a[i] = (i % 13) * 0.125, b[i] = ((i * 7) % 11) * 0.25 - 1.0;

#pragma omp target data map(tofrom: a[0:n+1], b[0:n+1], s[0:n+1], hist[0:steps+1])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int blk = 0; blk < nb; blk++) {
#pragma omp task depend(in: b[blk*bs]) depend(inout: a[blk*bs], s[blk*bs])
      {
        const int lo = blk * bs, hi = lo + block_len(blk, bs, n);
        const double c = 0.5 + 0.01 * (t % 10);
#pragma omp parallel for
        for (int i = lo; i < hi; i++) {
          s[i] += a[i];
          a[i] = 0.75 * a[i] + c * b[i];
        }
      }
    }
#pragma omp taskwait
    for (int blk = 0; blk < poison; blk++) {
#pragma omp task depend(out: a[blk*bs])
      {
        const int lo = blk * bs, hi = lo + block_len(blk, bs, n);
#pragma omp parallel for
        for (int i = lo; i < hi; i++) a[i] = 0.0 / 0.0;
      }
    }
#pragma omp taskwait
#pragma omp taskwait
    int m = t % 3 == 1 ? 0 : nb;
    for (int blk = 0; blk < m; blk++) {
#pragma omp task depend(in: a[blk*bs]) depend(inout: b[blk*bs])
      {
        const int lo = blk * bs, hi = lo + block_len(blk, bs, n);
#pragma omp parallel for
        for (int i = lo; i < hi; i++) b[i] = 0.5 * b[i] - 0.25 * a[i] + 0.1;
      }
    }
#pragma omp taskwait
    if (t % 2 == 1) {
#pragma omp task depend(in: a[0], b[0]) depend(out: hist[t])
      hist[t] = n > 0 ? a[0] + 2.0 * b[len0 / 2] - a[len0 - 1] : 1.0 * t;
    }
  }

  double sa = 0.0, sb = 0.0, wa = 0.0, ss = 0.0, sh = 0.0;
  for (int i = 0; i < n; i++) sa += a[i], sb += b[i], wa += a[i] * (double)(i % 5 + 1), ss += s[i] * (double)(i % 3 + 1);
  for (int t = 0; t < steps; t++) sh += hist[t] * (double)(t % 4 + 1);
  printf("empty_phase n %d bs %d blocks %d steps %d poison %d\n", n, bs, nb, steps, poison);
  printf("a sum %.12e wsum %.12e b sum %.12e s %.12e hist %.12e\n", sa, wa, sb, ss, sh);
  if (n > 0) printf("a[0] %.12e b[n-1] %.12e\n", a[0], b[n - 1]);
  free(a), free(b), free(s), free(hist);
  return 0;
}
