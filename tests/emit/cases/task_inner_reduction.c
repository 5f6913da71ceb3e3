/* A task whose parallel loop has a reduction clause, followed by statements
 * that use the result (gtcc once required every other statement of such a
 * body to be a declaration). The worker's threads share the loop; the
 * reduction combines their partial values with the variable's value before
 * the loop; the statements after the loop run once per task.
 * - a one-loop task region: per-block sum (+, starting from 1.5), maximum
 *   and a count (long) with writes after the loop;
 * - a phased region (iterations with taskwait): a blocked relaxation whose
 *   tasks also leave their block's residual, then a single task that adds
 *   the residuals up.
 * Compared with the CPU build. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 300, bs = 1000, n = nb * bs, steps = 20;
  double *x = malloc(sizeof(double) * (size_t)n), *u = malloc(sizeof(double) * (size_t)n);
  double *sum = malloc(sizeof(double) * (size_t)nb), *mx = malloc(sizeof(double) * (size_t)nb);
  long *cnt = malloc(sizeof(long) * (size_t)nb);
  double *res = malloc(sizeof(double) * (size_t)nb), *hist = malloc(sizeof(double) * (size_t)steps);
  if (!x || !u || !sum || !mx || !cnt || !res || !hist) return 1;
  for (int i = 0; i < n; i++) x[i] = (double)((i * 7919) % 1009) * 0.01, u[i] = 0.0;

#pragma omp target data map(to: x[0:n]) map(from: sum[0:nb], mx[0:nb], cnt[0:nb])
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < nb; b++) {
#pragma omp task depend(out: sum[b])
    {
      double s = 1.5, m = -1.0;
      long c = 0;
#pragma omp parallel for reduction(+:s) reduction(max:m) reduction(+:c)
      for (int i = b * bs; i < (b + 1) * bs; i++) {
        s += x[i];
        m = fmax(m, x[i] * (double)(i % 3));
        c += x[i] > 5.0;
      }
      sum[b] = s;
      mx[b] = m;
      if (c > bs / 2) cnt[b] = c;
      else cnt[b] = -c;
    }
  }

#pragma omp target data map(to: x[0:n]) map(tofrom: u[0:n]) map(alloc: res[0:nb]) map(from: hist[0:steps])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: u[b * bs]) depend(out: res[b])
      {
        double r = 0.0;
#pragma omp parallel for reduction(+:r)
        for (int i = b * bs; i < (b + 1) * bs; i++) {
          double nu = 0.5 * u[i] + 0.5 * x[i];
          r += fabs(nu - u[i]);
          u[i] = nu;
        }
        res[b] = r / bs;
      }
    }
#pragma omp taskwait
#pragma omp task depend(in: res[0]) depend(out: hist[t])
    {
      double h = 0.0;
      for (int b = 0; b < nb; b++) h += res[b];
      hist[t] = h;
    }
#pragma omp taskwait
  }

  double ss = 0.0, sm = 0.0, su = 0.0;
  long sc = 0;
  for (int b = 0; b < nb; b++) ss += sum[b], sm += mx[b], sc += cnt[b];
  for (int i = 0; i < n; i++) su += u[i];
  printf("sum %.12e max %.12e cnt %ld\nu %.12e hist %.12e %.12e %.12e\n", ss, sm, sc, su, hist[0], hist[1],
         hist[steps - 1]);
  return 0;
}
