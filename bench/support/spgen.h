/* spgen.h: deterministic sparse-matrix generators (CSR, int32 row starts
 * and column indices, fp64 values) for the SpMV benchmarks. Header-only,
 * every function static; plain C11 that is also valid C++.
 *
 *   spgen_csr A;
 *   const spgen_spec *s = spgen_find("powerlaw");
 *   if (spgen_generate(s, &A) != 0) ... out of memory / too many entries ...
 *   ... A.rp[0..nrows], A.col[0..nnz), A.val[0..nnz) ...
 *   spgen_free(&A);
 *
 * Generation is two steps so callers can fill rows on several threads:
 * spgen_shape() computes the row lengths (one sequential LCG stream) and
 * allocates; spgen_fill(s, &A, lo, hi) writes rows [lo, hi) and touches
 * nothing else. Every row draws from its own 64-bit LCG (Knuth's MMIX
 * constants) whose seed is the spec's seed mixed with the row index, so the
 * matrix is the same whatever the split. Only integer arithmetic and exact
 * IEEE operations (+ * sqrt) are used: the same spec gives the same bits on
 * every machine.
 *
 * Columns of a row of length L (random kinds) are stratified: [0, ncols) is
 * cut into L equal strata and the row takes one uniformly random column in
 * each. Columns are therefore sorted and distinct, spread over the whole
 * row, and a row with L = ncols is dense. Values are uniform in [-1, 1)
 * (Poisson: 4 on the diagonal, -1 off it).
 *
 * Kinds:
 *   POISSON2D  5-point Laplacian on a k x k grid (n = k: rows = k^2).
 *   POISSON3D  7-point Laplacian on a k x k x k grid (rows = k^3; 6 on the diagonal).
 *   UNIFORM    n rows of exactly `len` entries.
 *   POWERLAW   n rows; length = min(n, len + floor(scale * v^(-3/4))),
 *              v uniform in (0, 1]: a Pareto tail with alpha = 4/3 above a
 *              floor of `len` entries.
 *   GIANT      n rows of `len` entries, except `ngiant` rows, evenly spread,
 *              that are dense (n entries).
 *   ARROW      dense first row and first column plus the diagonal.
 *
 * spgen_specs[] holds the matrices of BRIEF §5 (and a few extras): see the
 * table at the end of this file. */
#ifndef GTCC_BENCH_SPGEN_H
#define GTCC_BENCH_SPGEN_H

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct spgen_csr {
  int nrows, ncols;
  int nnz;
  int *rp;  /* nrows + 1 row starts */
  int *col; /* nnz column indices, 0-based, sorted within each row */
  double *val;
} spgen_csr;

typedef enum spgen_kind { SPGEN_POISSON2D, SPGEN_UNIFORM, SPGEN_POWERLAW, SPGEN_GIANT, SPGEN_ARROW, SPGEN_POISSON3D } spgen_kind;

typedef struct spgen_spec {
  const char *name;
  const char *desc;
  spgen_kind kind;
  int n;        /* rows = columns; POISSON2D/3D: the grid side k (k^2 / k^3 rows) */
  int len;      /* UNIFORM, GIANT: entries per (ordinary) row; POWERLAW: minimum length */
  int ngiant;   /* GIANT: number of dense rows */
  double scale; /* POWERLAW: scale of the Pareto tail */
  uint64_t seed;
  int brief; /* 1: one of the five matrices of BRIEF §5 (the default set) */
} spgen_spec;

static uint64_t spgen_lcg_(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s;
}

/* Uniform in [0, 1) from the top 53 bits. */
static double spgen_unit_(uint64_t *s) {
  return (double)(spgen_lcg_(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* splitmix64 finaliser: decorrelates the per-row seeds. */
static uint64_t spgen_mix_(uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static uint64_t spgen_row_seed_(const spgen_spec *s, long long row) {
  return spgen_mix_(s->seed ^ spgen_mix_((uint64_t)row));
}

static long long spgen_rows_(const spgen_spec *s) {
  if (s->kind == SPGEN_POISSON2D) return (long long)s->n * s->n;
  if (s->kind == SPGEN_POISSON3D) return (long long)s->n * s->n * s->n;
  return (long long)s->n;
}

static int spgen_powerlaw_len_(const spgen_spec *s, uint64_t *st) {
  double v = 1.0 - spgen_unit_(st); /* (0, 1] */
  double t = s->scale / (sqrt(v) * sqrt(sqrt(v)));
  double len = (double)s->len + t;
  return len >= (double)s->n ? s->n : (int)len;
}

static int spgen_is_giant_row_(const spgen_spec *s, int i) {
  if (s->ngiant <= 0) return 0;
  int stride = s->n / s->ngiant;
  return stride > 0 && i % stride == stride / 2 && i / stride < s->ngiant;
}

static int spgen_row_len_(const spgen_spec *s, int i, uint64_t *st) {
  switch (s->kind) {
  case SPGEN_POISSON2D: {
    int k = s->n, x = i % k, y = i / k;
    return 1 + (x > 0) + (x < k - 1) + (y > 0) + (y < k - 1);
  }
  case SPGEN_POISSON3D: {
    int k = s->n, x = i % k, y = i / k % k, z = i / k / k;
    return 1 + (x > 0) + (x < k - 1) + (y > 0) + (y < k - 1) + (z > 0) + (z < k - 1);
  }
  case SPGEN_UNIFORM: return s->len;
  case SPGEN_POWERLAW: return spgen_powerlaw_len_(s, st);
  case SPGEN_GIANT: return spgen_is_giant_row_(s, i) ? s->n : s->len;
  case SPGEN_ARROW: return i == 0 ? s->n : 2;
  }
  return 0;
}

static void spgen_free(spgen_csr *A) {
  free(A->rp);
  free(A->col);
  free(A->val);
  memset(A, 0, sizeof *A);
}

/* Row lengths, row starts and the allocations. Returns 0, or -1 when the
 * matrix does not fit in int32 indices or memory (A is then empty). */
static int spgen_shape(const spgen_spec *s, spgen_csr *A) {
  memset(A, 0, sizeof *A);
  long long rows = spgen_rows_(s);
  if (s->n < 1 || rows > INT_MAX - 1 || (s->kind == SPGEN_UNIFORM && s->len > s->n) ||
      (s->kind == SPGEN_GIANT && s->len > s->n))
    return -1;
  A->nrows = A->ncols = (int)rows;
  A->rp = (int *)malloc(sizeof *A->rp * ((size_t)rows + 1));
  if (!A->rp) return -1;
  uint64_t st = s->seed;
  long long total = 0;
  A->rp[0] = 0;
  for (int i = 0; i < (int)rows; i++) {
    total += spgen_row_len_(s, i, &st);
    if (total > INT_MAX) {
      spgen_free(A);
      return -1;
    }
    A->rp[i + 1] = (int)total;
  }
  A->nnz = (int)total;
  A->col = (int *)malloc(sizeof *A->col * (size_t)(total ? total : 1));
  A->val = (double *)malloc(sizeof *A->val * (size_t)(total ? total : 1));
  if (!A->col || !A->val) {
    spgen_free(A);
    return -1;
  }
  return 0;
}

/* One random column in each of L equal strata of [0, ncols). */
static void spgen_stratified_(int ncols, int L, uint64_t *st, int *col, double *val) {
  if (L <= 0) return;
  uint64_t step = ((uint64_t)ncols << 32) / (uint64_t)L; /* 32.32 fixed point, >= 1.0 */
  uint64_t pos = 0;
  for (int j = 0; j < L; j++, pos += step) {
    uint64_t lo = pos >> 32, hi = (pos + step) >> 32;
    if (j == L - 1) hi = (uint64_t)ncols;
    uint64_t r = spgen_lcg_(st) >> 32; /* top 32 bits */
    col[j] = (int)(lo + ((r * (hi - lo)) >> 32));
    val[j] = 2.0 * spgen_unit_(st) - 1.0;
  }
}

/* Columns and values of rows [lo, hi); safe to call concurrently on
 * disjoint ranges once spgen_shape() has run. */
static void spgen_fill(const spgen_spec *s, spgen_csr *A, int lo, int hi) {
  for (int i = lo; i < hi; i++) {
    int b = A->rp[i], L = A->rp[i + 1] - b;
    int *c = A->col + b;
    double *v = A->val + b;
    uint64_t st = spgen_row_seed_(s, i);
    if (s->kind == SPGEN_POISSON2D) {
      int k = s->n, x = i % k, y = i / k, e = 0;
      if (y > 0) c[e] = i - k, v[e++] = -1.0;
      if (x > 0) c[e] = i - 1, v[e++] = -1.0;
      c[e] = i, v[e++] = 4.0;
      if (x < k - 1) c[e] = i + 1, v[e++] = -1.0;
      if (y < k - 1) c[e] = i + k, v[e++] = -1.0;
    } else if (s->kind == SPGEN_POISSON3D) {
      int k = s->n, x = i % k, y = i / k % k, z = i / k / k, e = 0, kk = k * k;
      if (z > 0) c[e] = i - kk, v[e++] = -1.0;
      if (y > 0) c[e] = i - k, v[e++] = -1.0;
      if (x > 0) c[e] = i - 1, v[e++] = -1.0;
      c[e] = i, v[e++] = 6.0;
      if (x < k - 1) c[e] = i + 1, v[e++] = -1.0;
      if (y < k - 1) c[e] = i + k, v[e++] = -1.0;
      if (z < k - 1) c[e] = i + kk, v[e++] = -1.0;
    } else if (s->kind == SPGEN_ARROW && i > 0) {
      c[0] = 0, v[0] = 2.0 * spgen_unit_(&st) - 1.0;
      c[1] = i, v[1] = 2.0 * spgen_unit_(&st) - 1.0;
    } else {
      spgen_stratified_(A->ncols, L, &st, c, v);
    }
  }
}

static int spgen_generate(const spgen_spec *s, spgen_csr *A) {
  if (spgen_shape(s, A) != 0) return -1;
  spgen_fill(s, A, 0, A->nrows);
  return 0;
}

/* Longest row (its index in *argmax when argmax is not NULL). */
static int spgen_max_row(const spgen_csr *A, int *argmax) {
  int best = 0, at = 0;
  for (int i = 0; i < A->nrows; i++)
    if (A->rp[i + 1] - A->rp[i] > best) best = A->rp[i + 1] - A->rp[i], at = i;
  if (argmax) *argmax = at;
  return best;
}

/* FNV-1a over the shape, row starts, columns and value bits: equal
 * checksums mean equal matrices (for determinism checks). */
static uint64_t spgen_checksum(const spgen_csr *A) {
  uint64_t h = 1469598103934665603ULL;
#define SPGEN_FNV_(x) (h = (h ^ (uint64_t)(x)) * 1099511628211ULL)
  SPGEN_FNV_(A->nrows);
  SPGEN_FNV_(A->ncols);
  SPGEN_FNV_(A->nnz);
  for (int i = 0; i <= A->nrows; i++) SPGEN_FNV_((uint32_t)A->rp[i]);
  for (int j = 0; j < A->nnz; j++) {
    uint64_t bits;
    memcpy(&bits, &A->val[j], sizeof bits);
    SPGEN_FNV_((uint32_t)A->col[j]);
    SPGEN_FNV_(bits);
  }
#undef SPGEN_FNV_
  return h;
}

/* The matrices. The first five are BRIEF §5's (sizes there: 16.8M rows /
 * 83.9M nnz / max 5; 4.19M / 67.1M / 16; 4.19M / 64.3M / 79,138;
 * 1.05M / 71.3M / 1,048,576; 65,536 / 0.99M / 14,298); the power-law
 * parameters and seeds were tuned to land close to those. */
static const spgen_spec spgen_specs[] = {
    {"poisson", "2D Poisson 4096^2", SPGEN_POISSON2D, 4096, 5, 0, 0.0, 1, 1},
    {"uniform", "uniform, 16/row", SPGEN_UNIFORM, 1 << 22, 16, 0, 0.0, 2, 1},
    {"powerlaw", "power-law rows", SPGEN_POWERLAW, 1 << 22, 12, 0, 0.96, 325, 1},
    {"giant", "64 giant rows", SPGEN_GIANT, 1 << 20, 4, 64, 0.0, 4, 1},
    {"smallpl", "small power-law", SPGEN_POWERLAW, 1 << 16, 5, 0, 2.8, 114, 1},
    {"arrow", "arrow 2^20", SPGEN_ARROW, 1 << 20, 0, 0, 0.0, 6, 0},
    /* rows of 7 and 8, random or a 3D 7-point stencil: either side of gtcc's inline limit */
    {"poisson3d", "3D Poisson 256^3", SPGEN_POISSON3D, 256, 7, 0, 0.0, 12, 0},
    {"uniform7", "uniform, 7/row", SPGEN_UNIFORM, 1 << 23, 7, 0, 0.0, 10, 0},
    {"uniform8", "uniform, 8/row", SPGEN_UNIFORM, 1 << 23, 8, 0, 0.0, 11, 0},
    /* small ones for quick checks */
    {"tiny-poisson", "2D Poisson 64^2", SPGEN_POISSON2D, 64, 5, 0, 0.0, 7, 0},
    {"tiny-powerlaw", "power-law 4096 rows", SPGEN_POWERLAW, 4096, 3, 0, 3.0, 8, 0},
    {"tiny-giant", "4 giant rows of 16384", SPGEN_GIANT, 16384, 4, 4, 0.0, 9, 0},
};

static const spgen_spec *spgen_find(const char *name) {
  for (size_t i = 0; i < sizeof spgen_specs / sizeof *spgen_specs; i++)
    if (!strcmp(spgen_specs[i].name, name)) return &spgen_specs[i];
  return NULL;
}

#endif
