/* Loop and if headers around tasks that read what the tasks wrote: the
 * region is split inside the header, (split, condition), so every
 * evaluation sees the tasks' results (transform/phases.c, header_places).
 *
 *   split_headers [N [BS [MAXIT [TOL]]]]     (defaults 100000 1000 300 1e-3)
 *
 * 1. while (res[0] > TOL && it < MAXIT): one task per block damps its
 *    block of u, a single task stores the largest change in res[0].
 * 2. for (k = (int)cnt[1]; k < (int)cnt[0]; k++) with cnt set by a task:
 *    the init and the condition read memory.
 * 3. do { ... } while (norm(r, nb) > TOL2 && it2 < MAXIT): a call to a
 *    function of the file that reads r.
 * 4. if (flag[0] > 0.5) { tasks } with flag set by a task.
 * Prints the iteration counts and checksums of u. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double norm(const double *r, int nb) {
  double s = 0.0;
  for (int b = 0; b < nb; b++) s += r[b] * r[b];
  return sqrt(s);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000, bs = argc > 2 ? atoi(argv[2]) : 1000;
  int maxit = argc > 3 ? atoi(argv[3]) : 300;
  double tol = argc > 4 ? atof(argv[4]) : 1e-3;
  if (argc > 5 || n < 0 || bs < 1 || maxit < 0) {
    fprintf(stderr, "usage: split_headers [N [BS [MAXIT [TOL]]]]\n");
    return 2;
  }
  int nb = (n + bs - 1) / bs;
  double *u = malloc(sizeof(double) * ((size_t)n + 1)), *r = calloc((size_t)nb + 1, sizeof(double));
  double *res = malloc(sizeof(double) * 2), *cnt = calloc(2, sizeof(double)), *flag = calloc(1, sizeof(double));
  if (!u || !r || !res || !cnt || !flag) return 1;
  for (int i = 0; i < n; i++) u[i] = (double)((i * 53) % 97) / 97.0;
  res[0] = 1e30;
  int it = 0, it2 = 0, kruns = 0;

#pragma omp target data map(tofrom: u[0:n+1], r[0:nb+1], res[0:2], cnt[0:2], flag[0:1])
#pragma omp parallel
#pragma omp single
  {
    while (res[0] > tol && it < maxit) {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: u[b*bs]) depend(out: r[b])
        {
          const int lo = b * bs, hi = lo + bs < n ? lo + bs : n;
          double big = 0.0;
          for (int i = lo; i < hi; i++) {
            const double nu = 0.9 * u[i] + 0.1 * (double)(i % 3);
            big = fabs(nu - u[i]) > big ? fabs(nu - u[i]) : big;
            u[i] = nu;
          }
          r[b] = big;
        }
      }
#pragma omp taskwait
#pragma omp task depend(out: res[0])
      {
        double m = 0.0;
        for (int b = 0; b < nb; b++) m = r[b] > m ? r[b] : m;
        res[0] = m;
      }
#pragma omp taskwait
      it++;
    }

#pragma omp task depend(out: cnt[0])
    {
      cnt[0] = (double)(it % 7 + 2);
      cnt[1] = 1.0;
    }
    for (int k = (int)cnt[1]; k < (int)cnt[0]; k++) {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: u[b*bs])
        for (int i = b * bs; i < b * bs + bs && i < n; i++) u[i] += 0.001 * k;
      }
#pragma omp taskwait
      kruns++;
    }

    do {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: u[b*bs]) depend(out: r[b])
        {
          double s = 0.0;
          for (int i = b * bs; i < b * bs + bs && i < n; i++) {
            const double d = 0.5 * (0.25 - u[i]);
            u[i] += d;
            s += d * d;
          }
          r[b] = sqrt(s);
        }
      }
#pragma omp taskwait
      it2++;
    } while (norm(r, nb) > tol * 1e-2 && it2 < maxit);

#pragma omp task depend(out: flag[0])
    flag[0] = it2 % 2 == 1 ? 1.0 : 0.0;
#pragma omp taskwait
    if (flag[0] > 0.5) {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: u[b*bs])
        for (int i = b * bs; i < b * bs + bs && i < n; i++) u[i] = -u[i];
      }
    }
  }

  double s = 0.0, ws = 0.0;
  for (int i = 0; i < n; i++) s += u[i], ws += u[i] * (double)(i % 5 + 1);
  printf("it %d\nit2 %d\nkruns %d\nflag %g\nres %.12e\nu %.12e\nweighted %.12e\n", it, it2, kruns, flag[0], res[0], s,
         ws);
  free(u), free(r), free(res), free(cnt), free(flag);
  return 0;
}
