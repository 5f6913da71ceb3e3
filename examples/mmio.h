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
 * single-file programs. (gtcc writes this header into the .gt.cu without its
 * functions: nvcc, which reads that file as C++, never sees their bodies.) */
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
