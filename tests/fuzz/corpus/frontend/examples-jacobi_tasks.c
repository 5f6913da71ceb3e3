/* Jacobi iteration for a sparse, strictly diagonally dominant system
 * A x = rhs as OpenMP tasks, in the two forms of Pichler's thesis
 * (section 7.4, papers/pichler-dynamic-dependencies-phases.txt).
 *
 *   jacobi_tasks [FORM [N [BS [ITERS [K]]]]]
 *     FORM   stages (default) or checkpoints
 *     N      rows (default 2^17), BS rows per task (default 256),
 *     ITERS  iterations (default 200), K checkpoint interval (default 10)
 *
 * A is a symmetric band matrix generated here: row i couples to i +- d for
 * d = 1 (always) and d = 2..W (pseudo-randomly), W = min(4, BS), with
 * negative off-diagonal values and diag = 1.0125 sum |off-diagonal| + 0.001,
 * so Jacobi converges slowly (about 1.2% per iteration for every W): the
 * residuals stay far above rounding for up to a few thousand iterations
 * (tests compare the GPU with the CPU build to 1e-9). x starts at 1;
 * the exact solution x* is known (rhs = A x*).
 *
 * A Jacobi task computes the rows of one block: x_new = (rhs - (A - D) x) / D.
 * Its rows are split into NSL interleaved slices (the parallel loop: on the
 * GPU one thread per slice), each of which leaves its partial residual
 * sum |x_new - x| in part[b*NSL + s]. The check task (the thesis's
 * CopyAndCheck/Checkpoint, 256 threads there too) adds the partials up in
 * LANES interleaved lane sums, hist[h*LANES + l]; the region's host code
 * cannot read device data, so the history res[h] = sum over l is formed
 * after the region.
 *
 *   stages       per iteration: the Jacobi task loop, taskwait, one check
 *                task (res[it]), taskwait, swap of the x pointers (host code)
 *   checkpoints  the Jacobi tasks name the previous iterate's blocks b-1, b,
 *                b+1 (in) and their own block of the new one (out), and the
 *                pointers swap after every task loop with no taskwait:
 *                iterations overlap through individual dependences. Every
 *                K iterations (and after the last): taskwait, one check task
 *                (res[it / K]), taskwait.
 *
 * Storage: x vectors hold nb+2 blocks of BS entries; x_i is element BS + i,
 * so the items x[b*BS], x[(b+1)*BS], x[(b+2)*BS] exist for every block b
 * (blocks 0 and nb+1 are zero guards; W <= BS keeps a row block's columns
 * inside blocks b-1..b+1).
 *
 * Prints checksums of x, its distance to x* and samples of the residual
 * history with %.12e; tests compare them with the CPU build. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NSL = 32, LANES = 256, WMAX = 4 };

static unsigned mix(unsigned h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

static double unit(unsigned h) { return (double)(mix(h) >> 8) / 16777216.0; } /* [0, 1) */

/* The coupling of rows i and i+d (1 <= d <= W): present? value? */
static int link_present(int i, int d) { return d == 1 || mix((unsigned)i * 8u + (unsigned)d) % 4u != 0; }
static double link_value(int i, int d) { return -(0.25 + 0.75 * unit((unsigned)i * 8u + (unsigned)d + 0x9e3779b9u)); }

/* CSR of the off-diagonal part (columns ascending), the diagonal, x*, rhs. */
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

static int block_len(int b, int bs, int n) {
  int rest = n - b * bs;
  return rest < bs ? rest : bs;
}

/* Rows lo+s, lo+s+NSL, ... of block b: the new iterate and their part of the residual. */
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

/* Lane l of the check: part[l] + part[l + LANES] + ... */
static double lane_sum(const double *part, int l, int total) {
  double s = 0.0;
  for (int q = l; q < total; q += LANES) s += part[q];
  return s;
}

/* Stages: two phases per iteration; x and xn are swapped by the host code
 * after the second taskwait (no task is pending then). The newest iterate
 * ends in xa when iters is even, else in xb. */
static void jacobi_stages(int n, int bs, int nb, int iters, const int *rowptr, const int *col, const double *val,
                          const double *diag, const double *rhs, double *x, double *xn, double *part, double *hist) {
  const int total = nb * NSL;
#pragma omp target data map(to: rowptr[0:n+1], col[0:rowptr[n]], val[0:rowptr[n]], diag[0:n], rhs[0:n]) \
    map(tofrom: x[0:(nb+2)*bs], xn[0:(nb+2)*bs], hist[0:(iters+1)*LANES]) map(alloc: part[0:(nb+1)*NSL])
#pragma omp parallel
#pragma omp single
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

/* Checkpoints: no taskwait between iterations; x and xn are the region's
 * own pointers (declared in it, so each task gets their values when it is
 * created). The newest iterate ends in xa when iters is even, else in xb. */
static void jacobi_checkpoints(int n, int bs, int nb, int iters, int K, const int *rowptr, const int *col,
                               const double *val, const double *diag, const double *rhs, double *xa, double *xb,
                               double *part, double *hist) {
  const int total = nb * NSL;
#pragma omp target data map(to: rowptr[0:n+1], col[0:rowptr[n]], val[0:rowptr[n]], diag[0:n], rhs[0:n]) \
    map(tofrom: xa[0:(nb+2)*bs], xb[0:(nb+2)*bs], hist[0:((iters+K-1)/K+1)*LANES]) map(alloc: part[0:(nb+1)*NSL])
#pragma omp parallel
#pragma omp single
  {
    double *x = xa, *xn = xb;
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
}

static int usage(void) {
  fprintf(stderr, "usage: jacobi_tasks [stages|checkpoints [N [BS [ITERS [K]]]]]   (N >= 0, BS >= 1, ITERS >= 0, "
                  "K >= 1)\n");
  return 2;
}

int main(int argc, char **argv) {
  const char *form = argc > 1 ? argv[1] : "stages";
  long nl = argc > 2 ? atol(argv[2]) : 1L << 17, bsl = argc > 3 ? atol(argv[3]) : 256;
  long itl = argc > 4 ? atol(argv[4]) : 200, kl = argc > 5 ? atol(argv[5]) : 10;
  int checkpoints = strcmp(form, "checkpoints") == 0;
  if (argc > 6 || (!checkpoints && strcmp(form, "stages") != 0) || nl < 0 || bsl < 1 || itl < 0 || kl < 1 ||
      nl + 2 * bsl > (1L << 28) || itl > (1L << 20))
    return usage();
  int n = (int)nl, bs = (int)bsl, iters = (int)itl, K = (int)kl;
  int nb = (n + bs - 1) / bs, w = bs < WMAX ? bs : WMAX;
  int nhist = checkpoints ? (iters + K - 1) / K : iters;
  size_t xlen = (size_t)(nb + 2) * (size_t)bs;
  double *diag = malloc(sizeof(double) * ((size_t)n + 1)), *xstar = malloc(sizeof(double) * ((size_t)n + 1));
  double *rhs = malloc(sizeof(double) * ((size_t)n + 1));
  double *xa = calloc(xlen, sizeof(double)), *xb = calloc(xlen, sizeof(double));
  double *part = calloc((size_t)(nb + 1) * NSL, sizeof(double));   /* +1: never empty */
  double *hist = calloc((size_t)(nhist + 1) * LANES, sizeof(double));
  int *rowptr, *col;
  double *val;
  if (!diag || !xstar || !rhs || !xa || !xb || !part || !hist ||
      !build_matrix(n, w, &rowptr, &col, &val, diag, xstar, rhs)) {
    fprintf(stderr, "jacobi_tasks: out of memory (N=%d)\n", n);
    return 1;
  }
  for (int i = 0; i < n; i++) xa[bs + i] = 1.0;

  if (checkpoints)
    jacobi_checkpoints(n, bs, nb, iters, K, rowptr, col, val, diag, rhs, xa, xb, part, hist);
  else
    jacobi_stages(n, bs, nb, iters, rowptr, col, val, diag, rhs, xa, xb, part, hist);

  const double *x = iters % 2 ? xb : xa;
  double sum = 0.0, wsum = 0.0, err = 0.0, hsum = 0.0;
  for (int i = 0; i < n; i++) {
    sum += x[bs + i];
    wsum += x[bs + i] * (double)(i % 7 - 3);
    err += fabs(x[bs + i] - xstar[i]);
  }
  printf("jacobi %s n %d bs %d blocks %d nnz %d iters %d K %d residuals %d\n", form, n, bs, nb, rowptr[n], iters,
         checkpoints ? K : 1, nhist);
  printf("x sum %.12e wsum %.12e |x - x*|_1 %.12e\n", sum, wsum, err);
  for (int h = 0; h < nhist; h++) {
    double res = 0.0;
    for (int l = 0; l < LANES; l++) res += hist[h * LANES + l];
    hsum += res * (double)(h % 5 + 1);
    if (h < 2 || h == nhist / 2 || h == nhist - 1) printf("res[%d] %.12e\n", h, res);
  }
  printf("residual history checksum %.12e\n", hsum);
  free(diag), free(xstar), free(rhs), free(xa), free(xb), free(part), free(hist);
  free(rowptr), free(col), free(val);
  return 0;
}
