/* Run-time trip counts: a while loop whose counter the host code updates,
 * task loops whose trip count changes from step to step (and may be 0), and
 * a region that runs no step at all when STEPS is 0.
 *
 *   runtime_trip [N [BS [STEPS [STRIDE]]]]     (defaults 30000 300 60 7)
 *
 * Before the loop: a task loop sets a = initial values. Then
 *   t = 0; phase = 0;
 *   while (t < STEPS) {
 *     active = (t * STRIDE + 3) % (nb + 1)       blocks this step (0 .. nb)
 *     task loop over the first `active` blocks:  a = 0.5 a + 0.125 b + e(t), s += a * w(phase)
 *                                                inout a[b], s[b], in b[b]
 *     if (active % 2 == 0) { taskwait; task loop over all blocks: b = b + 0.25 a - 0.5 b   in a[b], inout b[b] }
 *     t += 1 + (active % 3 == 0);                (steps of 1 or 2)
 *     phase++;
 *   }
 *   taskwait; single task: cnt[0] = phase, cnt[1] = t (values the host code computed)
 * Tasks of consecutive steps are ordered by their depend items only.
 * s sums a over the steps, so a lost or repeated task of any step shows in
 * the output. Prints checksums of a, b, s and cnt. */
#include <stdio.h>
#include <stdlib.h>

static int block_len(int b, int bs, int n) {
  int rest = n - b * bs;
  return rest < bs ? rest : bs;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 30000, bs = argc > 2 ? atoi(argv[2]) : 300;
  int steps = argc > 3 ? atoi(argv[3]) : 60, stride = argc > 4 ? atoi(argv[4]) : 7;
  if (argc > 5 || n < 0 || bs < 1 || steps < 0 || stride < 0) {
    fprintf(stderr, "usage: runtime_trip [N [BS [STEPS [STRIDE]]]]\n");
    return 2;
  }
  int nb = (n + bs - 1) / bs;
  double *a = malloc(sizeof(double) * ((size_t)n + 1)), *b = malloc(sizeof(double) * ((size_t)n + 1));
  double *s = calloc((size_t)n + 1, sizeof(double));
  int *cnt = calloc(2, sizeof(int));
  if (!a || !b || !s || !cnt) return 1;
  for (int i = 0; i < n; i++) a[i] = -1.0, b[i] = ((i * 3) % 17) * 0.0625;

#pragma omp target data map(tofrom: a[0:n+1], b[0:n+1], s[0:n+1], cnt[0:2])
#pragma omp parallel
#pragma omp single
  {
    for (int blk = 0; blk < nb; blk++) {
#pragma omp task depend(out: a[blk*bs])
      {
        const int lo = blk * bs, hi = lo + block_len(blk, bs, n);
#pragma omp parallel for
        for (int i = lo; i < hi; i++) a[i] = (i % 29) * 0.03125;
      }
    }
    int t = 0, phase = 0;
    while (t < steps) {
      int active = (int)(((long)t * stride + 3) % (nb + 1));
      for (int blk = 0; blk < active; blk++) {
#pragma omp task depend(in: b[blk*bs]) depend(inout: a[blk*bs], s[blk*bs])
        {
          const int lo = blk * bs, hi = lo + block_len(blk, bs, n);
          const double e = 0.001 * (t % 13);
#pragma omp parallel for
          for (int i = lo; i < hi; i++) {
            a[i] = 0.5 * a[i] + 0.125 * b[i] + e;
            s[i] += a[i] * (double)(phase % 4 + 1);
          }
        }
      }
      if (active % 2 == 0) {
#pragma omp taskwait
        for (int blk = 0; blk < nb; blk++) {
#pragma omp task depend(in: a[blk*bs]) depend(inout: b[blk*bs])
          {
            const int lo = blk * bs, hi = lo + block_len(blk, bs, n);
#pragma omp parallel for
            for (int i = lo; i < hi; i++) b[i] = b[i] + 0.25 * a[i] - 0.5 * b[i];
          }
        }
      }
      t += 1 + (active % 3 == 0);
      phase++;
    }
#pragma omp taskwait
#pragma omp task depend(out: cnt[0])
    {
      cnt[0] = phase;
      cnt[1] = t;
    }
  }

  double sa = 0.0, sb = 0.0, ss = 0.0;
  for (int i = 0; i < n; i++) sa += a[i] * (double)(i % 4 + 1), sb += b[i], ss += s[i];
  printf("runtime_trip n %d bs %d blocks %d steps %d stride %d\n", n, bs, nb, steps, stride);
  printf("a wsum %.12e b sum %.12e s sum %.12e phases %d t %d\n", sa, sb, ss, cnt[0], cnt[1]);
  if (n > 0) printf("a[0] %.12e a[n-1] %.12e b[n/2] %.12e\n", a[0], a[n - 1], b[n / 2]);
  free(a), free(b), free(s), free(cnt);
  return 0;
}
