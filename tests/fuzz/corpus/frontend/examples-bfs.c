/* bfs: breadth-first search in a CSR graph, one offload region per level.
 * The outer loop runs over the vertices of the frontier, the inner loop
 * over each vertex's neighbours (no reduction), so the inner trip count is
 * the vertex's out-degree: a nested parallel loop for CollectiveDP.
 *
 *   bfs [VERTICES [SOURCES]]   built-in power-law graph with VERTICES
 *                              vertices (default 2^21 = 2,097,152, ~25M
 *                              edges), searched from SOURCES sources
 *                              (default 2) spread over the vertices
 *   bfs FILE.mtx [SOURCES]     the pattern of a square Matrix Market
 *                              matrix (see mmio.h): edge i -> j per entry
 *
 * The built-in graph has power-law out-degrees (Pareto, alpha = 4/3, at
 * least 3, at most 65536 neighbours; the largest hubs have tens of
 * thousands), half of the neighbours near the vertex and half uniform. It
 * comes from a 64-bit LCG and only exact IEEE operations, so every build
 * sees the same graph.
 *
 * Each level marks the unvisited neighbours of the frontier: every thread
 * that finds level[w] < 0 writes level[w] = d + 1 and next[w] = 1, the same
 * values whoever writes them, so the races are benign and the result is
 * deterministic. The host then collects the next frontier (in vertex order)
 * and clears next[].
 *
 * Prints, per source, the number of levels, the vertices reached, the
 * vertex count of every level and a checksum of the levels, one number per
 * line; time and traversed edges per second to stderr. */
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

/* One level: the neighbours of front[0..nf) not yet visited get level d + 1
 * and are flagged in next[]. */
static void expand(int n, int nnz, int nf, int d, const int *restrict rp, const int *restrict col,
                   const int *restrict front, int *restrict level, int *restrict next) {
  (void)n, (void)nnz; /* used only by the data clauses */
#pragma acc parallel loop copyin(rp[0:n+1], col[0:nnz], front[0:nf]) copy(level[0:n], next[0:n])
  for (int k = 0; k < nf; k++) {
    int v = front[k];
#pragma acc loop
    for (int j = rp[v]; j < rp[v + 1]; j++) {
      int w = col[j];
      if (level[w] < 0) {
        level[w] = d + 1;
        next[w] = 1;
      }
    }
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

/* Out-degree ~ Pareto(x_m = 3, alpha = 4/3): 3 / v^(3/4) with v in (0, 1]. */
static int out_degree(uint64_t *s, int maxdeg) {
  double v = 1.0 - lcg_unit(s);
  double deg = 3.0 / (sqrt(v) * sqrt(sqrt(v)));
  return deg >= (double)maxdeg ? maxdeg : (int)deg;
}

static int generate(int n, mm_csr *A) {
  uint64_t s = 20261121u;
  int maxdeg = n < 65536 ? n : 65536;
  memset(A, 0, sizeof *A);
  A->nrows = A->ncols = n;
  A->rp = malloc(sizeof *A->rp * ((size_t)n + 1));
  if (!A->rp)
    return -1;
  long total = 0;
  A->rp[0] = 0;
  for (int i = 0; i < n; i++) {
    total += out_degree(&s, maxdeg);
    if (total > INT_MAX) {
      fprintf(stderr, "bfs: %d vertices give more than 2^31-1 edges\n", n);
      return -1;
    }
    A->rp[i + 1] = (int)total;
  }
  A->nnz = (int)total;
  A->col = malloc(sizeof *A->col * (size_t)(total ? total : 1));
  if (!A->col)
    return -1;
  for (int i = 0; i < n; i++)
    for (int j = A->rp[i]; j < A->rp[i + 1]; j++) {
      uint64_t r = lcg_next(&s) >> 16;
      long c;
      if (r & 1) /* near the vertex */
        c = ((long)i + (long)((r >> 1) % 257) - 128 + n) % n;
      else
        c = (long)((r >> 1) % (uint64_t)n);
      A->col[j] = (int)c;
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
  int nsrc = 2;
  if (argc > 3) {
    fprintf(stderr, "usage: bfs [VERTICES | FILE.mtx] [SOURCES]\n");
    return 2;
  }
  if (argc > 2) {
    char *end;
    long r = strtol(argv[2], &end, 10);
    if (*end || end == argv[2] || r < 1 || r > 1000) {
      fprintf(stderr, "bfs: SOURCES ('%s') must be an integer in [1, 1000]\n", argv[2]);
      return 2;
    }
    nsrc = (int)r;
  }
  if (argc > 1 && !all_digits(argv[1])) {
    char err[512];
    if (mm_read_csr(argv[1], &A, err, sizeof err) != 0) {
      fprintf(stderr, "bfs: %s\n", err);
      return 1;
    }
    if (A.nrows != A.ncols) {
      fprintf(stderr, "bfs: %s: the matrix is %d x %d, not square\n", argv[1], A.nrows, A.ncols);
      return 1;
    }
  } else {
    long verts = 1L << 21;
    if (argc > 1) {
      verts = strtol(argv[1], NULL, 10);
      if (verts > (1L << 30)) {
        fprintf(stderr, "bfs: VERTICES ('%s') must be at most 2^30\n", argv[1]);
        return 2;
      }
    }
    if (generate((int)verts, &A) != 0) {
      fprintf(stderr, "bfs: cannot generate a graph with %ld vertices (out of memory?)\n", verts);
      return 1;
    }
  }
  int n = A.nrows, nnz = A.nnz;

  int *level = malloc(sizeof *level * (size_t)(n ? n : 1));
  int *next = malloc(sizeof *next * (size_t)(n ? n : 1));
  int *front = malloc(sizeof *front * (size_t)(n ? n : 1));
  long *count = malloc(sizeof *count * ((size_t)n + 1));
  if (!level || !next || !front || !count) {
    fprintf(stderr, "bfs: out of memory\n");
    return 1;
  }
  int maxdeg = 0;
  for (int i = 0; i < n; i++)
    if (A.rp[i + 1] - A.rp[i] > maxdeg)
      maxdeg = A.rp[i + 1] - A.rp[i];
  printf("vertices %d\n", n);
  printf("edges %d\n", nnz);
  printf("maxdegree %d\n", maxdeg);
  printf("sources %d\n", n > 0 ? nsrc : 0);

  double first = 0.0, best = 0.0;
  long traversed = 0;
  for (int t = 0; t < nsrc && n > 0; t++) {
    int src = (int)((long)t * n / nsrc);
    for (int i = 0; i < n; i++)
      level[i] = -1, next[i] = 0;
    level[src] = 0;
    front[0] = src;
    int nf = 1, d = 0;
    long edges = 0;
    double t0 = now_ms();
    while (nf > 0) {
      count[d] = nf;
      for (int k = 0; k < nf; k++)
        edges += A.rp[front[k] + 1] - A.rp[front[k]];
      expand(n, nnz, nf, d, A.rp, A.col, front, level, next);
      nf = 0;
      for (int i = 0; i < n; i++)
        if (next[i]) {
          front[nf++] = i;
          next[i] = 0;
        }
      d++;
    }
    double ms = now_ms() - t0;
    traversed += edges;
    if (t == 0)
      first = ms;
    else if (t == 1 || ms < best)
      best = ms;

    long reached = 0, bad = 0;
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) {
      if (level[i] >= 0)
        reached++;
      if (level[i] >= d)
        bad++;
      h = (h ^ (uint64_t)(uint32_t)level[i]) * 1099511628211ULL;
    }
    printf("source %d\n", src);
    printf("levels %d\n", d);
    printf("reached %ld\n", reached);
    printf("bad %ld\n", bad);
    printf("checksum h%016llx\n", (unsigned long long)h);
    for (int l = 0; l < d; l++)
      printf("level %d %ld\n", l, count[l]);
  }
  double per = nsrc > 1 ? best : first;
  fprintf(stderr,
          "bfs: %d vertices, %d edges, largest out-degree %d: first search %.3f ms, best other %.3f "
          "ms (incl. transfers; %.1f M edges/s)\n",
          n, nnz, maxdeg, first, best, per > 0 && nsrc > 0 ? traversed / nsrc / (per * 1e3) : 0.0);
  mm_free(&A);
  free(level);
  free(next);
  free(front);
  free(count);
  return 0;
}
