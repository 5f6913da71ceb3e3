/* spmv: y = A*x for a CSR matrix, one row per outer iteration and an inner
 * reduction over the row (the form of the CollectiveDP paper's Figure 1).
 *
 *   spmv [ROWS [REPS]]       built-in irregular matrix with ROWS rows
 *                            (default 2^22 = 4,194,304 rows, ~50M entries)
 *   spmv FILE.mtx [REPS]     a Matrix Market file (see mmio.h)
 *
 * The built-in matrix has power-law row lengths (Pareto, alpha = 4/3, at
 * least 3, at most 131072 entries per row; the longest rows are tens of
 * thousands long), half of the columns near the diagonal and half uniform,
 * values in [0.5, 1.5). It comes from a 64-bit LCG and only exact IEEE
 * operations (+ * / sqrt), so every build on every machine sees the same
 * matrix. x is pseudo-random in [0.5, 1.5).
 *
 * Prints the shape, checksums of y (sum, sum of squares, sum of |y|) and
 * sampled entries (incl. the longest row), one number per line; time and
 * effective bandwidth to stderr. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmio.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static void spmv(int n, int m, int nnz, const int *restrict rp, const int *restrict col,
                 const double *restrict val, const double *restrict x, double *restrict y) {
  (void)m, (void)nnz; /* used only by the data clauses */
#pragma acc parallel loop copyin(rp[0:n+1], col[0:nnz], val[0:nnz], x[0:m]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double sum = 0.0;
#pragma acc loop reduction(+:sum)
    for (int j = rp[i]; j < rp[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

/* Knuth's MMIX LCG; uniform doubles in [0, 1) from the top 53 bits. */
static uint64_t lcg_next(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s;
}

static double lcg_unit(uint64_t *s) {
  return (double)(lcg_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* Row length ~ Pareto(x_m = 3, alpha = 4/3): 3 / v^(3/4) with v in (0, 1]. */
static int row_length(uint64_t *s, int maxlen) {
  double v = 1.0 - lcg_unit(s);
  double len = 3.0 / (sqrt(v) * sqrt(sqrt(v)));
  return len >= (double)maxlen ? maxlen : (int)len;
}

static int generate(int n, mm_csr *A) {
  uint64_t s = 20261120u;
  int maxlen = n < 131072 ? n : 131072;
  memset(A, 0, sizeof *A);
  A->nrows = A->ncols = n;
  A->rp = malloc(sizeof *A->rp * ((size_t)n + 1));
  if (!A->rp)
    return -1;
  long total = 0;
  A->rp[0] = 0;
  for (int i = 0; i < n; i++) {
    total += row_length(&s, maxlen);
    if (total > INT_MAX) {
      fprintf(stderr, "spmv: %d rows give more than 2^31-1 entries\n", n);
      return -1;
    }
    A->rp[i + 1] = (int)total;
  }
  A->nnz = (int)total;
  A->col = malloc(sizeof *A->col * (size_t)(total ? total : 1));
  A->val = malloc(sizeof *A->val * (size_t)(total ? total : 1));
  if (!A->col || !A->val)
    return -1;
  for (int i = 0; i < n; i++)
    for (int j = A->rp[i]; j < A->rp[i + 1]; j++) {
      uint64_t r = lcg_next(&s) >> 16;
      long c;
      if (r & 1) /* near the diagonal */
        c = ((long)i + (long)((r >> 1) % 257) - 128 + n) % n;
      else
        c = (long)((r >> 1) % (uint64_t)n);
      A->col[j] = (int)c;
      A->val[j] = 0.5 + lcg_unit(&s);
    }
  return 0;
}

static int all_digits(const char *s) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return 0;
  return 1;
}

int main(int argc, char **argv) {
  mm_csr A;
  int reps = 3;
  if (argc > 3) {
    fprintf(stderr, "usage: spmv [ROWS | FILE.mtx] [REPS]\n");
    return 2;
  }
  if (argc > 2) {
    char *end;
    long r = strtol(argv[2], &end, 10);
    if (*end || end == argv[2] || r < 1 || r > 1000) {
      fprintf(stderr, "spmv: REPS ('%s') must be an integer in [1, 1000]\n", argv[2]);
      return 2;
    }
    reps = (int)r;
  }
  if (argc > 1 && !all_digits(argv[1])) {
    char err[512];
    if (mm_read_csr(argv[1], &A, err, sizeof err) != 0) {
      fprintf(stderr, "spmv: %s\n", err);
      return 1;
    }
  } else {
    long rows = 1L << 22;
    if (argc > 1) {
      rows = strtol(argv[1], NULL, 10);
      if (rows > (1L << 30)) {
        fprintf(stderr, "spmv: ROWS ('%s') must be at most 2^30\n", argv[1]);
        return 2;
      }
    }
    if (generate((int)rows, &A) != 0) {
      fprintf(stderr, "spmv: cannot generate a matrix with %ld rows (out of memory?)\n", rows);
      return 1;
    }
  }
  int n = A.nrows, m = A.ncols, nnz = A.nnz;

  double *x = malloc(sizeof *x * (size_t)(m ? m : 1));
  double *y = malloc(sizeof *y * (size_t)(n ? n : 1));
  if (!x || !y) {
    fprintf(stderr, "spmv: out of memory\n");
    return 1;
  }
  uint64_t s = 42;
  for (int j = 0; j < m; j++)
    x[j] = 0.5 + lcg_unit(&s);
  for (int i = 0; i < n; i++)
    y[i] = -1.0;

  /* The first call also pays for device start-up: report it apart. */
  double first = 0.0, best = 0.0;
  for (int r = 0; r < reps; r++) {
    double t0 = now_ms();
    spmv(n, m, nnz, A.rp, A.col, A.val, x, y);
    double t = now_ms() - t0;
    if (r == 0)
      first = t;
    else if (r == 1 || t < best)
      best = t;
  }

  int longest = 0, maxrow = 0;
  for (int i = 0; i < n; i++)
    if (A.rp[i + 1] - A.rp[i] > maxrow) {
      maxrow = A.rp[i + 1] - A.rp[i];
      longest = i;
    }
  double sum = 0.0, sumsq = 0.0, sumabs = 0.0;
  for (int i = 0; i < n; i++) {
    sum += y[i];
    sumsq += y[i] * y[i];
    sumabs += fabs(y[i]);
  }
  printf("rows %d\n", n);
  printf("cols %d\n", m);
  printf("nnz %d\n", nnz);
  printf("maxrow %d\n", maxrow);
  printf("sum %.10g\n", sum);
  printf("sumsq %.10g\n", sumsq);
  printf("sumabs %.10g\n", sumabs);
  if (n > 0) {
    long idx[] = {0, n / 3, n / 2, n - 1, longest};
    for (int k = 0; k < 5; k++)
      printf("y[%ld] %.10g\n", idx[k], y[idx[k]]);
  }
  double per = reps > 1 ? best : first;
  double bytes = 12.0 * nnz + 4.0 * (n + 1.0) + 8.0 * m + 8.0 * n;
  fprintf(stderr,
          "spmv: %d x %d, %d entries, longest row %d: first call %.3f ms, best other call %.3f ms "
          "(incl. transfers; %.1f GB/s)\n",
          n, m, nnz, maxrow, first, best, per > 0 ? bytes / (per * 1e6) : 0.0);
  mm_free(&A);
  free(x);
  free(y);
  return 0;
}
