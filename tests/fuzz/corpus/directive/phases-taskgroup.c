/* taskgroup: the end of a taskgroup waits for every task created in it
 * (a phase boundary), and the time loop's steps are separated only by
 * taskgroups.
 *
 *   taskgroup [N [BS [STEPS]]]     (defaults 40000 400 30)
 *
 * Per step t:
 *   taskgroup {  A (task loop)  a = 0.5 p + 0.25 q + d(t)         out a[b]
 *                B (task loop)  c = a + 0.5 * (a rotated by one in the block)
 *                                                                  in a[b], out c[b] }
 *   taskgroup {  S (single task) hist[t] = weighted sum of all of c (every
 *                                cell: needs the first taskgroup to be over)
 *                D (task loop)  p = c - 0.5 q, q = 0.5 (q + c)     in c[b], out p[b] }
 * and after the loop one more taskgroup with a single task that folds hist
 * into tot[0]. Prints checksums of p, q, hist and tot. */
#include <stdio.h>
#include <stdlib.h>

static int block_len(int b, int bs, int n) {
  int rest = n - b * bs;
  return rest < bs ? rest : bs;
}

static double weighted_sum(const double *c, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += c[i] * (double)(i % 4 + 1);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 40000, bs = argc > 2 ? atoi(argv[2]) : 400;
  int steps = argc > 3 ? atoi(argv[3]) : 30;
  if (argc > 4 || n < 0 || bs < 1 || steps < 0) {
    fprintf(stderr, "usage: taskgroup [N [BS [STEPS]]]\n");
    return 2;
  }
  int nb = (n + bs - 1) / bs;
  double *p = malloc(sizeof(double) * ((size_t)n + 1)), *q = malloc(sizeof(double) * ((size_t)n + 1));
  double *a = calloc((size_t)n + 1, sizeof(double)), *c = calloc((size_t)n + 1, sizeof(double));
  double *hist = calloc((size_t)steps + 1, sizeof(double)), *tot = calloc(1, sizeof(double));
  if (!p || !q || !a || !c || !hist || !tot) return 1;
  for (int i = 0; i < n; i++) p[i] = ((i * 17) % 23) * 0.05, q[i] = ((i * 5) % 9) * 0.1 - 0.3;

#pragma omp target data map(tofrom: p[0:n+1], q[0:n+1], hist[0:steps+1], tot[0:1]) map(alloc: a[0:n+1], c[0:n+1])
#pragma omp parallel
#pragma omp single
  {
    for (int t = 0; t < steps; t++) {
#pragma omp taskgroup
      {
        for (int b = 0; b < nb; b++) {
#pragma omp task depend(out: a[b*bs])
          {
            const int lo = b * bs, hi = lo + block_len(b, bs, n);
            const double d = 0.01 * (t % 11);
#pragma omp parallel for
            for (int i = lo; i < hi; i++) a[i] = 0.5 * p[i] + 0.25 * q[i] + d;
          }
        }
        for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: a[b*bs]) depend(out: c[b*bs])
          {
            const int lo = b * bs, len = block_len(b, bs, n);
#pragma omp parallel for
            for (int k = 0; k < len; k++) c[lo + k] = a[lo + k] + 0.5 * a[lo + (k + 1) % len];
          }
        }
      }
#pragma omp taskgroup
      {
#pragma omp task depend(out: hist[t])
        hist[t] = weighted_sum(c, n);
        for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: c[b*bs]) depend(out: p[b*bs])
          {
            const int lo = b * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
            for (int i = lo; i < hi; i++) {
              p[i] = c[i] - 0.5 * q[i];
              q[i] = 0.5 * (q[i] + c[i]);
            }
          }
        }
      }
    }
#pragma omp taskgroup
    {
#pragma omp task depend(in: hist[0]) depend(out: tot[0])
      {
        double s = 0.0;
        for (int t = 0; t < steps; t++) s += hist[t] * (double)(t % 3 + 1);
        tot[0] = s;
      }
    }
  }

  double sp = 0.0, sq = 0.0, sh = 0.0;
  for (int i = 0; i < n; i++) sp += p[i] * (double)(i % 6 + 1), sq += q[i];
  for (int t = 0; t < steps; t++) sh += hist[t];
  printf("taskgroup n %d bs %d blocks %d steps %d\n", n, bs, nb, steps);
  printf("p wsum %.12e q sum %.12e hist sum %.12e tot %.12e\n", sp, sq, sh, tot[0]);
  if (n > 0) printf("p[0] %.12e q[n-1] %.12e\n", p[0], q[n - 1]);
  free(p), free(q), free(a), free(c), free(hist), free(tot);
  return 0;
}
