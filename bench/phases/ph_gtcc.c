/* Phases benchmark, the gtcc side: iterative task programs written as a
 * user of gtcc writes them (examples/heat.c and examples/jacobi_tasks.c,
 * same computations, inputs and checksums), each run as ONE task region:
 * init tasks, taskwait, then the whole time loop. gtcc turns the region
 * into one persistent megakernel; ph_baselines.cu launches one kernel per
 * phase instead.
 *
 * usage: ph_gtcc PROGRAM N BS STEPS REPS [IMPL]
 *   PROGRAM  heat_taskwait       per step: update tasks, taskwait, copy tasks, taskwait
 *            heat_depend         the same tasks, no taskwait: each update names
 *                                its block and both neighbours of u
 *            jacobi_stages       per iteration: Jacobi tasks, taskwait, check task, taskwait, swap
 *            jacobi_checkpoints  Jacobi tasks on the neighbour blocks of the previous
 *                                iterate, swap, no taskwait; every K = 10 iterations
 *                                taskwait, check task, taskwait
 *   N        cells (heat) or rows (jacobi); BS cells/rows per task
 *   STEPS    time steps or iterations; REPS timed repetitions (median reported)
 *   IMPL     label of the first CSV column (default: $PH_IMPL, else "gtcc")
 *
 * Timing: wall clock around the task region alone (`omp parallel` + `omp
 * single`: gtcc's host code and plan, the megakernel, the wait for it); the
 * enclosing `omp target data` (allocation and transfers) is outside it, and
 * the matrix is generated before. Each repetition starts with init tasks
 * that reset the state, so every repetition computes the same thing; one
 * untimed warm-up repetition runs first.
 *
 * After the data region the result (heat: u; jacobi: the newest x and the
 * residual history) is compared with a plain sequential computation; a
 * mismatch prints CHECK FAIL and exits 1 without the CSV line.
 *
 * Output: '#' comment lines (checksums as in the examples), then
 *   IMPL,PROGRAM,N,STEPS,ms
 * Built by gtcc (ph_gtcc) and by the host C compiler (ph_cpu: the pragmas
 * are ignored, the tasks run in program order). Exit status: 0 ok,
 * 1 check failure or out of memory, 2 usage. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { NSL = 32, LANES = 256, WMAX = 4, JACOBI_K = 10 };

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int cmp_double(const void *x, const void *y) {
  double p = *(const double *)x, q = *(const double *)y;
  return (p > q) - (p < q);
}

static int block_len(int b, int bs, int n) {
  int rest = n - b * bs;
  return rest < bs ? rest : bs;
}

/* ---- heat (examples/heat.c) ---------------------------------------------- */

static const double heat_r = 0.3, left_value = 1.0, right_value = -0.5;

static double heat_initial(int i) {
  unsigned h = (unsigned)i * 2654435761u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (double)(h >> 8) / 16777216.0;
}

/* u, v: nb+2 blocks of bs cells, cell i at bs + i, boundary cells set. */
static void run_heat_taskwait(int n, int bs, int nb, int steps, double r, double *u, double *v, int reps, double *ms) {
#pragma omp target data map(tofrom: u[0:(nb+2)*bs]) map(alloc: v[0:(nb+2)*bs])
  for (int rep = -1; rep < reps; rep++) {
    double t0 = now_ms();
#pragma omp parallel
#pragma omp single
    {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(out: u[(b+1)*bs])
        {
          const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
          for (int i = lo; i < hi; i++) u[i] = heat_initial(i - bs);
        }
      }
#pragma omp taskwait
      for (int t = 0; t < steps; t++) {
        for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: u[(b+1)*bs]) depend(out: v[(b+1)*bs])
          {
            const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
            for (int i = lo; i < hi; i++) v[i] = u[i] + r * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
          }
        }
#pragma omp taskwait
        for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: v[(b+1)*bs]) depend(out: u[(b+1)*bs])
          {
            const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
            for (int i = lo; i < hi; i++) u[i] = v[i];
          }
        }
#pragma omp taskwait
      }
    }
    double t1 = now_ms();
    if (rep >= 0) ms[rep] = t1 - t0;
  }
}

static void run_heat_depend(int n, int bs, int nb, int steps, double r, double *u, double *v, int reps, double *ms) {
#pragma omp target data map(tofrom: u[0:(nb+2)*bs]) map(alloc: v[0:(nb+2)*bs])
  for (int rep = -1; rep < reps; rep++) {
    double t0 = now_ms();
#pragma omp parallel
#pragma omp single
    {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(out: u[(b+1)*bs])
        {
          const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
          for (int i = lo; i < hi; i++) u[i] = heat_initial(i - bs);
        }
      }
#pragma omp taskwait
      for (int t = 0; t < steps; t++) {
        for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: u[b*bs], u[(b+1)*bs], u[(b+2)*bs]) depend(out: v[(b+1)*bs])
          {
            const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
            for (int i = lo; i < hi; i++) v[i] = u[i] + r * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
          }
        }
        for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: v[(b+1)*bs]) depend(out: u[(b+1)*bs])
          {
            const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
            for (int i = lo; i < hi; i++) u[i] = v[i];
          }
        }
      }
    }
    double t1 = now_ms();
    if (rep >= 0) ms[rep] = t1 - t0;
  }
}

/* The plain sequential computation: cells only (ref[i], i < n). */
static void heat_reference(int n, int steps, double r, double *ref, double *tmp) {
  for (int i = 0; i < n; i++) ref[i] = heat_initial(i);
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++) {
      double l = i > 0 ? ref[i - 1] : left_value, rr = i + 1 < n ? ref[i + 1] : right_value;
      tmp[i] = ref[i] + r * (l - 2.0 * ref[i] + rr);
    }
    memcpy(ref, tmp, sizeof(double) * (size_t)n);
  }
}

static int bench_heat(int depend, int n, int bs, int steps, int reps, double *ms, const char *impl) {
  const char *prog = depend ? "heat_depend" : "heat_taskwait";
  int nb = (n + bs - 1) / bs;
  size_t len = (size_t)(nb + 2) * (size_t)bs;
  double *u = calloc(len, sizeof(double)), *v = calloc(len, sizeof(double));
  double *ref = malloc(sizeof(double) * ((size_t)n + 1)), *tmp = malloc(sizeof(double) * ((size_t)n + 1));
  if (!u || !v || !ref || !tmp) {
    fprintf(stderr, "ph_gtcc: out of memory (N=%d)\n", n);
    return 1;
  }
  u[bs - 1] = v[bs - 1] = left_value;
  u[bs + n] = v[bs + n] = right_value;
  if (depend)
    run_heat_depend(n, bs, nb, steps, heat_r, u, v, reps, ms);
  else
    run_heat_taskwait(n, bs, nb, steps, heat_r, u, v, reps, ms);
  heat_reference(n, steps, heat_r, ref, tmp);
  int status = 0;
  double sum = 0.0, wsum = 0.0;
  for (int i = 0; i < n; i++) {
    double x = u[bs + i];
    if (!(fabs(x - ref[i]) <= 1e-9 * (1.0 + fabs(ref[i])))) {
      printf("CHECK FAIL %s %s N=%d: u[%d] = %.15e, sequential CPU %.15e\n", impl, prog, n, i, x, ref[i]);
      status = 1;
      break;
    }
    sum += x;
    wsum += x * (double)(i % 7 - 3);
  }
  if (!status)
    printf("# check ok %s %s N=%d BS=%d blocks=%d steps=%d: sum %.12e wsum %.12e (every cell compared with the CPU)\n",
           impl, prog, n, bs, nb, steps, sum, wsum);
  free(u), free(v), free(ref), free(tmp);
  return status;
}

/* ---- jacobi (examples/jacobi_tasks.c) ------------------------------------ */

static unsigned mix(unsigned h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

static double unit(unsigned h) { return (double)(mix(h) >> 8) / 16777216.0; }
static int link_present(int i, int d) { return d == 1 || mix((unsigned)i * 8u + (unsigned)d) % 4u != 0; }
static double link_value(int i, int d) { return -(0.25 + 0.75 * unit((unsigned)i * 8u + (unsigned)d + 0x9e3779b9u)); }

static int build_matrix(int n, int w, int **rowptr_out, int **col_out, double **val_out, double *diag, double *xstar,
                        double *rhs) {
  int *rowptr = malloc(sizeof(int) * ((size_t)n + 1));
  size_t cap = (size_t)2 * (size_t)w * (size_t)n + 1;
  int *col = malloc(sizeof(int) * cap);
  double *val = malloc(sizeof(double) * cap);
  if (!rowptr || !col || !val) return 0;
  for (int i = 0; i < n; i++) xstar[i] = 2.0 * unit((unsigned)i + 12345u) - 1.0;
  int k = 0;
  for (int i = 0; i < n; i++) {
    rowptr[i] = k;
    double off = 0.0, ax = 0.0;
    for (int d = w; d >= 1; d--)
      if (i - d >= 0 && link_present(i - d, d)) col[k] = i - d, val[k] = link_value(i - d, d), k++;
    for (int d = 1; d <= w; d++)
      if (i + d < n && link_present(i, d)) col[k] = i + d, val[k] = link_value(i, d), k++;
    for (int q = rowptr[i]; q < k; q++) off += fabs(val[q]), ax += val[q] * xstar[col[q]];
    diag[i] = 1.0125 * off + 0.001;
    rhs[i] = diag[i] * xstar[i] + ax;
  }
  rowptr[n] = k;
  *rowptr_out = rowptr, *col_out = col, *val_out = val;
  return 1;
}

static void jacobi_slice(int b, int s, int bs, int n, const int *rowptr, const int *col, const double *val,
                         const double *diag, const double *rhs, const double *x, double *xn, double *part) {
  const int lo = b * bs, hi = lo + block_len(b, bs, n);
  double r = 0.0;
  for (int i = lo + s; i < hi; i += NSL) {
    double acc = rhs[i];
    for (int q = rowptr[i]; q < rowptr[i + 1]; q++) acc -= val[q] * x[bs + col[q]];
    const double xi = acc / diag[i];
    r += fabs(xi - x[bs + i]);
    xn[bs + i] = xi;
  }
  part[b * NSL + s] = r;
}

static double lane_sum(const double *part, int l, int total) {
  double s = 0.0;
  for (int q = l; q < total; q += LANES) s += part[q];
  return s;
}

/* x, xn: the two iterates (swapped by the host code, so after the region
 * x is the newest); hist: iters * LANES lane sums. */
static void run_jacobi_stages(int n, int bs, int nb, int iters, const int *rowptr, const int *col, const double *val,
                              const double *diag, const double *rhs, double **xp, double **xnp, double *part,
                              double *hist, int reps, double *ms) {
  double *x = *xp, *xn = *xnp;
  const int total = nb * NSL;
#pragma omp target data map(to: rowptr[0:n+1], col[0:rowptr[n]], val[0:rowptr[n]], diag[0:n], rhs[0:n]) \
    map(tofrom: x[0:(nb+2)*bs], xn[0:(nb+2)*bs], hist[0:(iters+1)*LANES]) map(alloc: part[0:(nb+1)*NSL])
  for (int rep = -1; rep < reps; rep++) {
    double t0 = now_ms();
#pragma omp parallel
#pragma omp single
    {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(out: x[(b+1)*bs])
        {
          const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
          for (int i = lo; i < hi; i++) x[i] = 1.0;
        }
      }
#pragma omp taskwait
      for (int it = 0; it < iters; it++) {
        for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: x[(b+1)*bs]) depend(out: xn[(b+1)*bs], part[b*NSL])
          {
#pragma omp parallel for
            for (int s = 0; s < NSL; s++) jacobi_slice(b, s, bs, n, rowptr, col, val, diag, rhs, x, xn, part);
          }
        }
#pragma omp taskwait
#pragma omp task depend(in: part[0]) depend(out: hist[it*LANES])
        {
#pragma omp parallel for
          for (int l = 0; l < LANES; l++) hist[it * LANES + l] = lane_sum(part, l, total);
        }
#pragma omp taskwait
        double *tmp = x;
        x = xn;
        xn = tmp;
      }
    }
    double t1 = now_ms();
    if (rep >= 0) ms[rep] = t1 - t0;
  }
  *xp = x, *xnp = xn;
}

/* Checkpoints: the region's own x, xn start at xa, xb in every repetition;
 * the newest iterate ends in xa when iters is even, else in xb. */
static void run_jacobi_checkpoints(int n, int bs, int nb, int iters, int K, const int *rowptr, const int *col,
                                   const double *val, const double *diag, const double *rhs, double *xa, double *xb,
                                   double *part, double *hist, int reps, double *ms) {
  const int total = nb * NSL;
#pragma omp target data map(to: rowptr[0:n+1], col[0:rowptr[n]], val[0:rowptr[n]], diag[0:n], rhs[0:n]) \
    map(tofrom: xa[0:(nb+2)*bs], xb[0:(nb+2)*bs], hist[0:((iters+K-1)/K+1)*LANES]) map(alloc: part[0:(nb+1)*NSL])
  for (int rep = -1; rep < reps; rep++) {
    double t0 = now_ms();
#pragma omp parallel
#pragma omp single
    {
      double *x = xa, *xn = xb;
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(out: xa[(b+1)*bs])
        {
          const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
          for (int i = lo; i < hi; i++) xa[i] = 1.0;
        }
      }
#pragma omp taskwait
      for (int it = 0; it < iters; it++) {
        for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: x[b*bs], x[(b+1)*bs], x[(b+2)*bs]) depend(out: xn[(b+1)*bs], part[b*NSL])
          {
#pragma omp parallel for
            for (int s = 0; s < NSL; s++) jacobi_slice(b, s, bs, n, rowptr, col, val, diag, rhs, x, xn, part);
          }
        }
        double *tmp = x;
        x = xn;
        xn = tmp;
        if ((it + 1) % K == 0 || it + 1 == iters) {
          const int c = it / K;
#pragma omp taskwait
#pragma omp task depend(in: part[0]) depend(out: hist[c*LANES])
          {
#pragma omp parallel for
            for (int l = 0; l < LANES; l++) hist[c * LANES + l] = lane_sum(part, l, total);
          }
#pragma omp taskwait
        }
      }
    }
    double t1 = now_ms();
    if (rep >= 0) ms[rep] = t1 - t0;
  }
}

/* Sequential reference: the same slices and lane sums in the same order. */
static void jacobi_reference(int n, int bs, int nb, int iters, int K, const int *rowptr, const int *col,
                             const double *val, const double *diag, const double *rhs, double *x, double *xn,
                             double *part, double *hist, double **newest) {
  const int total = nb * NSL;
  for (int i = 0; i < n; i++) x[bs + i] = 1.0;
  for (int it = 0; it < iters; it++) {
    for (int b = 0; b < nb; b++)
      for (int s = 0; s < NSL; s++) jacobi_slice(b, s, bs, n, rowptr, col, val, diag, rhs, x, xn, part);
    double *tmp = x;
    x = xn;
    xn = tmp;
    if ((it + 1) % K == 0 || it + 1 == iters)
      for (int l = 0; l < LANES; l++) hist[(it / K) * LANES + l] = lane_sum(part, l, total);
  }
  *newest = x;
}

static int bench_jacobi(int checkpoints, int n, int bs, int iters, int reps, double *ms, const char *impl) {
  const char *prog = checkpoints ? "jacobi_checkpoints" : "jacobi_stages";
  const int K = checkpoints ? JACOBI_K : 1;
  int nb = (n + bs - 1) / bs, w = bs < WMAX ? bs : WMAX, nhist = (iters + K - 1) / K;
  size_t xlen = (size_t)(nb + 2) * (size_t)bs;
  double *diag = malloc(sizeof(double) * ((size_t)n + 1)), *xstar = malloc(sizeof(double) * ((size_t)n + 1));
  double *rhs = malloc(sizeof(double) * ((size_t)n + 1));
  double *xa = calloc(xlen, sizeof(double)), *xb = calloc(xlen, sizeof(double));
  double *ra = calloc(xlen, sizeof(double)), *rb = calloc(xlen, sizeof(double));
  double *part = calloc((size_t)(nb + 1) * NSL, sizeof(double)), *rpart = calloc((size_t)(nb + 1) * NSL, sizeof(double));
  double *hist = calloc((size_t)(nhist + 1) * LANES, sizeof(double));
  double *rhist = calloc((size_t)(nhist + 1) * LANES, sizeof(double));
  int *rowptr, *col;
  double *val;
  if (!diag || !xstar || !rhs || !xa || !xb || !ra || !rb || !part || !rpart || !hist || !rhist ||
      !build_matrix(n, w, &rowptr, &col, &val, diag, xstar, rhs)) {
    fprintf(stderr, "ph_gtcc: out of memory (N=%d)\n", n);
    return 1;
  }
  const double *x;
  if (checkpoints) {
    run_jacobi_checkpoints(n, bs, nb, iters, K, rowptr, col, val, diag, rhs, xa, xb, part, hist, reps, ms);
    x = iters % 2 ? xb : xa;
  } else {
    double *xp = xa, *xnp = xb;
    run_jacobi_stages(n, bs, nb, iters, rowptr, col, val, diag, rhs, &xp, &xnp, part, hist, reps, ms);
    x = xp;
  }
  double *ref;
  jacobi_reference(n, bs, nb, iters, K, rowptr, col, val, diag, rhs, ra, rb, rpart, rhist, &ref);
  int status = 0;
  double sum = 0.0, wsum = 0.0;
  for (int i = 0; i < n && !status; i++) {
    if (!(fabs(x[bs + i] - ref[bs + i]) <= 1e-9 * (1.0 + fabs(ref[bs + i])))) {
      printf("CHECK FAIL %s %s N=%d: x[%d] = %.15e, sequential CPU %.15e\n", impl, prog, n, i, x[bs + i],
             ref[bs + i]);
      status = 1;
    }
    sum += x[bs + i];
    wsum += x[bs + i] * (double)(i % 7 - 3);
  }
  double hsum = 0.0;
  for (int h = 0; h < nhist && !status; h++) {
    double res = 0.0, rres = 0.0;
    for (int l = 0; l < LANES; l++) res += hist[h * LANES + l], rres += rhist[h * LANES + l];
    if (!(fabs(res - rres) <= 1e-8 * fabs(rres) + 1e-300)) {
      printf("CHECK FAIL %s %s N=%d: residual %d = %.15e, sequential CPU %.15e\n", impl, prog, n, h, res, rres);
      status = 1;
    }
    hsum += res * (double)(h % 5 + 1);
  }
  if (!status)
    printf("# check ok %s %s N=%d BS=%d blocks=%d nnz=%d iters=%d K=%d: x sum %.12e wsum %.12e, residual history "
           "checksum %.12e (x and every residual compared with the CPU)\n",
           impl, prog, n, bs, nb, rowptr[n], iters, K, sum, wsum, hsum);
  free(diag), free(xstar), free(rhs), free(xa), free(xb), free(ra), free(rb), free(part), free(rpart), free(hist);
  free(rhist), free(rowptr), free(col), free(val);
  return status;
}

static int usage(void) {
  fprintf(stderr, "usage: ph_gtcc heat_taskwait|heat_depend|jacobi_stages|jacobi_checkpoints N BS STEPS REPS [IMPL]\n"
                  "  (IMPL default: $PH_IMPL, else gtcc)\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 6 || argc > 7) return usage();
  const char *prog = argv[1];
  long n = atol(argv[2]), bs = atol(argv[3]), steps = atol(argv[4]), reps = atol(argv[5]);
  if (n < 1 || bs < 1 || n + 2 * bs > (1L << 30) || steps < 0 || steps > (1L << 20) || reps < 1) return usage();
  const char *impl = argc > 6 ? argv[6] : getenv("PH_IMPL");
  if (!impl || !*impl) impl = "gtcc";
  double *ms = malloc(sizeof(double) * (size_t)reps);
  if (!ms) return 1;
  int status;
  if (!strcmp(prog, "heat_taskwait") || !strcmp(prog, "heat_depend"))
    status = bench_heat(!strcmp(prog, "heat_depend"), (int)n, (int)bs, (int)steps, (int)reps, ms, impl);
  else if (!strcmp(prog, "jacobi_stages") || !strcmp(prog, "jacobi_checkpoints"))
    status = bench_jacobi(!strcmp(prog, "jacobi_checkpoints"), (int)n, (int)bs, (int)steps, (int)reps, ms, impl);
  else
    return usage();
  if (!status) {
    qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
    double med = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
    printf("# %s %s N=%ld BS=%ld steps=%ld: median %.4f ms, min %.4f, max %.4f over %ld reps; %.3f us per step\n",
           impl, prog, n, bs, steps, med, ms[0], ms[reps - 1], reps, steps ? med * 1e3 / (double)steps : 0.0);
    printf("%s,%s,%ld,%ld,%.4f\n", impl, prog, n, steps, med);
  }
  free(ms);
  return status;
}
