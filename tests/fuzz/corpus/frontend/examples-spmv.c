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

/* mmio.h: a small, header-only Matrix Market reader that builds CSR.
 *
 *   mm_csr A;
 *   char err[256];
 *   if (mm_read_csr("m.mtx", &A, err, sizeof err) != 0) { fprintf(stderr, "%s\n", err); ... }
 *   ... A.rp[0..nrows], A.col[0..nnz), A.val[0..nnz) ...
 *   mm_free(&A);
 *
 * Handles `%%MatrixMarket matrix coordinate (real|integer|pattern)
 * (general|symmetric|skew-symmetric)`, comment lines (`%...`) and blank
 * lines, 1-based indices. Symmetric files store one triangle: the reader
 * stores both (skew-symmetric mirrors with the opposite sign). Pattern
 * entries get the value 1.0. Within a row, entries keep the order of the
 * file (mirrored ones in the order of their stored twins), so the CSR is
 * deterministic. Anything else (complex/hermitian/array, indices out of
 * range, too few or too many entries, trailing garbage) is rejected with a
 * message `FILE:LINE: error: ...` in err; the function returns -1 then.
 *
 * Plain C11 (+ POSIX getline); everything is static so the examples stay
 * single-file programs. The code is also valid C++ (casts on malloc): gtcc
 * copies a file's includes into the generated .gt.cu, which nvcc compiles
 * as C++. */
#ifndef GTCC_EXAMPLES_MMIO_H
#define GTCC_EXAMPLES_MMIO_H

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct mm_csr {
  int nrows, ncols;
  int nnz;  /* stored entries after symmetric expansion */
  int *rp;  /* nrows + 1 row starts */
  int *col; /* nnz column indices, 0-based */
  double *val;
} mm_csr;

static void mm_free(mm_csr *A) {
  free(A->rp);
  free(A->col);
  free(A->val);
  memset(A, 0, sizeof *A);
}

static int mm_err_(char *err, size_t errlen, const char *path, long line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int mm_err_(char *err, size_t errlen, const char *path, long line, const char *fmt, ...) {
  if (err && errlen) {
    int k = line > 0 ? snprintf(err, errlen, "%s:%ld: error: ", path, line)
                     : snprintf(err, errlen, "%s: error: ", path);
    if (k < 0)
      k = 0;
    if ((size_t)k < errlen) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
      va_end(ap);
    }
  }
  return -1;
}

/* Splits s in place into at most max whitespace-separated words; returns the count
 * (max + 1 if there were more). */
static int mm_words_(char *s, char **w, int max) {
  int n = 0;
  for (;;) {
    while (*s && isspace((unsigned char)*s))
      s++;
    if (!*s)
      return n;
    if (n == max)
      return max + 1;
    w[n++] = s;
    while (*s && !isspace((unsigned char)*s))
      s++;
    if (*s)
      *s++ = '\0';
  }
}

/* Parses a whole word as a long; 0 on success. */
static int mm_long_(const char *s, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end)
    return -1;
  *out = v;
  return 0;
}

static int mm_double_(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || (errno == ERANGE && (v > 1.0 || v < -1.0)))
    return -1;
  *out = v;
  return 0;
}

static int mm_blank_(const char *s) {
  while (*s && isspace((unsigned char)*s))
    s++;
  return *s == '\0';
}

static int mm_read_csr(const char *path, mm_csr *A, char *err, size_t errlen) {
  enum { F_REAL, F_INTEGER, F_PATTERN } field;
  enum { S_GENERAL, S_SYMMETRIC, S_SKEW } sym;
  FILE *f;
  char *line = NULL;
  size_t cap = 0;
  long lineno = 0, nrows = 0, ncols = 0, nent = 0, got = 0;
  long *ei = NULL, *ej = NULL;
  double *ev = NULL;
  char *w[8];
  int rc = -1;

  memset(A, 0, sizeof *A);
  f = fopen(path, "r");
  if (!f)
    return mm_err_(err, errlen, path, 0, "cannot open: %s", strerror(errno));

  /* Banner. */
  if (getline(&line, &cap, f) < 0) {
    mm_err_(err, errlen, path, 1, "empty file (expected a %%%%MatrixMarket banner)");
    goto out;
  }
  lineno = 1;
  {
    int k = mm_words_(line, w, 5);
    if (k != 5 || strcasecmp(w[0], "%%MatrixMarket") != 0 || strcasecmp(w[1], "matrix") != 0) {
      mm_err_(err, errlen, path, 1, "expected '%%%%MatrixMarket matrix coordinate FIELD SYMMETRY'");
      goto out;
    }
    if (strcasecmp(w[2], "coordinate") != 0) {
      mm_err_(err, errlen, path, 1, "format '%s' is not supported (only 'coordinate')", w[2]);
      goto out;
    }
    if (strcasecmp(w[3], "real") == 0)
      field = F_REAL;
    else if (strcasecmp(w[3], "integer") == 0)
      field = F_INTEGER;
    else if (strcasecmp(w[3], "pattern") == 0)
      field = F_PATTERN;
    else {
      mm_err_(err, errlen, path, 1, "field '%s' is not supported (real, integer or pattern)", w[3]);
      goto out;
    }
    if (strcasecmp(w[4], "general") == 0)
      sym = S_GENERAL;
    else if (strcasecmp(w[4], "symmetric") == 0)
      sym = S_SYMMETRIC;
    else if (strcasecmp(w[4], "skew-symmetric") == 0)
      sym = S_SKEW;
    else {
      mm_err_(err, errlen, path, 1, "symmetry '%s' is not supported (general, symmetric or skew-symmetric)",
              w[4]);
      goto out;
    }
  }

  /* Size line, after comments and blank lines. */
  for (;;) {
    if (getline(&line, &cap, f) < 0) {
      mm_err_(err, errlen, path, lineno, "missing size line 'ROWS COLS ENTRIES'");
      goto out;
    }
    lineno++;
    if (line[0] != '%' && !mm_blank_(line))
      break;
  }
  if (mm_words_(line, w, 3) != 3 || mm_long_(w[0], &nrows) || mm_long_(w[1], &ncols) || mm_long_(w[2], &nent) ||
      nrows < 0 || ncols < 0 || nent < 0) {
    mm_err_(err, errlen, path, lineno, "malformed size line (expected three non-negative integers ROWS COLS ENTRIES)");
    goto out;
  }
  if (nrows >= INT_MAX || ncols >= INT_MAX || nent > INT_MAX / 2) {
    mm_err_(err, errlen, path, lineno, "matrix too large for 32-bit indices");
    goto out;
  }
  if (sym != S_GENERAL && nrows != ncols) {
    mm_err_(err, errlen, path, lineno, "a symmetric matrix must be square (%ld x %ld)", nrows, ncols);
    goto out;
  }

  ei = (long *)malloc(sizeof *ei * (size_t)(nent ? nent : 1));
  ej = (long *)malloc(sizeof *ej * (size_t)(nent ? nent : 1));
  ev = (double *)malloc(sizeof *ev * (size_t)(nent ? nent : 1));
  if (!ei || !ej || !ev) {
    mm_err_(err, errlen, path, 0, "out of memory for %ld entries", nent);
    goto out;
  }

  /* Entries. */
  while (getline(&line, &cap, f) >= 0) {
    long i, j;
    double v = 1.0;
    int want = field == F_PATTERN ? 2 : 3, k;
    lineno++;
    if (line[0] == '%' || mm_blank_(line))
      continue;
    if (got == nent) {
      mm_err_(err, errlen, path, lineno, "more entries than the %ld announced", nent);
      goto out;
    }
    k = mm_words_(line, w, want);
    if (k != want || mm_long_(w[0], &i) || mm_long_(w[1], &j)) {
      mm_err_(err, errlen, path, lineno, "malformed entry (expected %s)", field == F_PATTERN ? "'I J'" : "'I J VALUE'");
      goto out;
    }
    if (field == F_INTEGER) {
      long iv;
      if (mm_long_(w[2], &iv)) {
        mm_err_(err, errlen, path, lineno, "malformed integer value '%s'", w[2]);
        goto out;
      }
      v = (double)iv;
    } else if (field == F_REAL && mm_double_(w[2], &v)) {
      mm_err_(err, errlen, path, lineno, "malformed real value '%s'", w[2]);
      goto out;
    }
    if (i < 1 || i > nrows || j < 1 || j > ncols) {
      mm_err_(err, errlen, path, lineno, "index (%ld, %ld) outside the %ld x %ld matrix (indices are 1-based)", i,
              j, nrows, ncols);
      goto out;
    }
    if (sym != S_GENERAL && j > i) {
      mm_err_(err, errlen, path, lineno, "entry (%ld, %ld) above the diagonal in a symmetric file", i, j);
      goto out;
    }
    if (sym == S_SKEW && i == j) {
      mm_err_(err, errlen, path, lineno, "diagonal entry (%ld, %ld) in a skew-symmetric file", i, j);
      goto out;
    }
    ei[got] = i - 1;
    ej[got] = j - 1;
    ev[got] = v;
    got++;
  }
  if (ferror(f)) {
    mm_err_(err, errlen, path, lineno, "read error: %s", strerror(errno));
    goto out;
  }
  if (got != nent) {
    mm_err_(err, errlen, path, lineno, "expected %ld entries, found %ld", nent, got);
    goto out;
  }

  /* CSR by counting sort on rows (stable). */
  {
    long total = 0;
    A->nrows = (int)nrows;
    A->ncols = (int)ncols;
    A->rp = (int *)calloc((size_t)nrows + 1, sizeof *A->rp);
    if (!A->rp) {
      mm_err_(err, errlen, path, 0, "out of memory");
      goto out;
    }
    for (long e = 0; e < nent; e++) {
      A->rp[ei[e] + 1]++;
      total++;
      if (sym != S_GENERAL && ei[e] != ej[e]) {
        A->rp[ej[e] + 1]++;
        total++;
      }
    }
    for (long r = 0; r < nrows; r++)
      A->rp[r + 1] += A->rp[r];
    A->nnz = (int)total;
    A->col = (int *)malloc(sizeof *A->col * (size_t)(total ? total : 1));
    A->val = (double *)malloc(sizeof *A->val * (size_t)(total ? total : 1));
    int *next = (int *)malloc(sizeof *next * (size_t)(nrows ? nrows : 1));
    if (!A->col || !A->val || !next) {
      free(next);
      mm_err_(err, errlen, path, 0, "out of memory for %ld entries", total);
      goto out;
    }
    memcpy(next, A->rp, sizeof *next * (size_t)nrows);
    for (long e = 0; e < nent; e++) {
      int p = next[ei[e]]++;
      A->col[p] = (int)ej[e];
      A->val[p] = ev[e];
      if (sym != S_GENERAL && ei[e] != ej[e]) {
        p = next[ej[e]]++;
        A->col[p] = (int)ei[e];
        A->val[p] = sym == S_SKEW ? -ev[e] : ev[e];
      }
    }
    free(next);
  }
  rc = 0;

out:
  if (rc != 0)
    mm_free(A);
  free(ei);
  free(ej);
  free(ev);
  free(line);
  fclose(f);
  return rc;
}

#endif

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
