/* nested_spmv: CollectiveDP test program. The SpMV of examples/spmv.c (outer
 * acc parallel loop over rows, inner acc loop reduction over the row) on
 * matrices chosen to hit every tier of the nested-loop lowering: rows run
 * inline by their thread (<= 32 entries), by the warp (33..2048), by a
 * next-level kernel (> 2048), split over several blocks (> 16384), empty
 * rows, no rows at all. Built once per --cdp mode by tests/gpu.
 *
 *   nested_spmv NAME [SIZE]   a generated matrix (below); SIZE as noted
 *   nested_spmv FILE.mtx      a Matrix Market file
 *
 *   zero      no rows (SIZE ignored)
 *   empty     SIZE rows (100000): half empty, the rest 1..8, 33..532 or
 *             2049..7048 entries; the last SIZE/10 + 1 rows are empty
 *   giant1    7 rows: one of SIZE entries (1000000, dense), six of 0..5
 *   allabove  SIZE rows (500), every one of 2049..20048 entries, every
 *             50th of 16385..40000 (40000 columns)
 *   allshort  SIZE rows (200000) of 0..8 entries
 *   medium    SIZE rows (5000) of 33..2000 entries
 *   powerlaw  SIZE rows (200000), power-law lengths (spgen.h), longest
 *             rows above 16384
 *   arrow     SIZE rows (100000): dense first row and column + diagonal
 *   poisson   2D 5-point Laplacian on a SIZE x SIZE grid (300)
 *
 * Values are mapped into [0.5, 1.5) (v -> 0.5 + |v| / (1 + |v|)) and x is in
 * [0.5, 1.5), so no row sum cancels and a different order of additions on
 * the GPU stays well inside numdiff's relative tolerance.
 *
 * The product runs twice. Prints the shape, then for each run the number
 * of rows whose result differs from a sequential host product by more than
 * 1e-9 relative (must be 0), checksums of y and sampled entries, one number
 * per line (%.10g). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../bench/support/spgen.h"
#include "../../../examples/mmio.h"

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

typedef struct csr {
  int nrows, ncols, nnz;
  int *rp, *col;
  double *val;
} csr;

/* Row lengths of the custom kinds, from one LCG stream. */
enum { K_ZERO, K_EMPTY, K_GIANT1, K_ALLABOVE, K_ALLSHORT, K_MEDIUM };

static int row_len(int kind, int n, int size, int i, uint64_t *st) {
  uint64_t r = spgen_lcg_(st) >> 24;
  switch (kind) {
  case K_EMPTY:
    if (i >= n - n / 10 - 1)
      return 0;
    switch (r % 8) {
    case 0: case 1: case 2: case 3: return 0;
    case 4: case 5: return 1 + (int)(r / 8 % 8);
    case 6: return 33 + (int)(r / 8 % 500);
    default: return r / 8 % 16 == 0 ? 2049 + (int)(r / 128 % 5000) : 3;
    }
  case K_GIANT1: {
    static const int len[7] = {3, 0, 5, -1, 1, 2, 0};
    return len[i] < 0 ? size : len[i];
  }
  case K_ALLABOVE:
    return i % 50 == 0 ? 16385 + (int)(r % 23616) : 2049 + (int)(r % 18000);
  case K_ALLSHORT: return (int)(r % 9);
  case K_MEDIUM: return 33 + (int)(r % 1968);
  }
  return 0;
}

static int custom(int kind, int size, csr *A) {
  int n = size, m = size;
  switch (kind) {
  case K_ZERO: n = m = 0; break;
  case K_EMPTY: m = size > 8000 ? size : 8000; break;
  case K_GIANT1: n = 7, m = size > 5 ? size : 5; break;
  case K_ALLABOVE: m = 40000; break;
  case K_MEDIUM: m = size > 2000 ? size : 2000; break;
  case K_ALLSHORT: m = size > 8 ? size : 8; break;
  }
  A->nrows = n, A->ncols = m;
  A->rp = malloc(sizeof *A->rp * ((size_t)n + 1));
  if (!A->rp)
    return -1;
  uint64_t st = 1000 + (uint64_t)kind;
  long long total = 0;
  A->rp[0] = 0;
  for (int i = 0; i < n; i++) {
    total += row_len(kind, n, size, i, &st);
    if (total > 2000000000) {
      fprintf(stderr, "nested_spmv: too many entries\n");
      return -1;
    }
    A->rp[i + 1] = (int)total;
  }
  A->nnz = (int)total;
  A->col = malloc(sizeof *A->col * (size_t)(total ? total : 1));
  A->val = malloc(sizeof *A->val * (size_t)(total ? total : 1));
  if (!A->col || !A->val)
    return -1;
  spgen_spec s = {"custom", "", SPGEN_UNIFORM, m, 0, 0, 0.0, 77 + (uint64_t)kind, 0};
  for (int i = 0; i < n; i++) {
    uint64_t rs = spgen_row_seed_(&s, i);
    spgen_stratified_(m, A->rp[i + 1] - A->rp[i], &rs, A->col + A->rp[i], A->val + A->rp[i]);
  }
  return 0;
}

static int from_spgen(const spgen_spec *s, csr *A) {
  spgen_csr B;
  if (spgen_generate(s, &B) != 0)
    return -1;
  A->nrows = B.nrows, A->ncols = B.ncols, A->nnz = B.nnz;
  A->rp = B.rp, A->col = B.col, A->val = B.val;
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
  static const struct {
    const char *name;
    int kind; /* K_* or -1 for spgen kinds */
    int size;
  } named[] = {
      {"zero", K_ZERO, 0},          {"empty", K_EMPTY, 100000},     {"giant1", K_GIANT1, 1000000},
      {"allabove", K_ALLABOVE, 500}, {"allshort", K_ALLSHORT, 200000}, {"medium", K_MEDIUM, 5000},
      {"powerlaw", -1, 200000},     {"arrow", -1, 100000},          {"poisson", -1, 300},
  };
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: nested_spmv NAME [SIZE] | FILE.mtx\n");
    return 2;
  }
  csr A;
  memset(&A, 0, sizeof A);
  int found = -1;
  for (int k = 0; k < (int)(sizeof named / sizeof *named); k++)
    if (!strcmp(argv[1], named[k].name))
      found = k;
  if (found < 0) {
    mm_csr B;
    char err[512];
    if (argc > 2) {
      fprintf(stderr, "nested_spmv: no SIZE with a .mtx file\n");
      return 2;
    }
    if (mm_read_csr(argv[1], &B, err, sizeof err) != 0) {
      fprintf(stderr, "nested_spmv: %s (known matrices: zero empty giant1 allabove allshort medium "
                      "powerlaw arrow poisson)\n", err);
      return 1;
    }
    A.nrows = B.nrows, A.ncols = B.ncols, A.nnz = B.nnz;
    A.rp = B.rp, A.col = B.col, A.val = B.val;
  } else {
    int size = named[found].size;
    if (argc > 2) {
      if (!all_digits(argv[2]) || strlen(argv[2]) > 9) {
        fprintf(stderr, "nested_spmv: SIZE ('%s') must be an integer below 10^9\n", argv[2]);
        return 2;
      }
      size = atoi(argv[2]);
    }
    int rc;
    const char *name = named[found].name;
    if (named[found].kind >= 0) {
      rc = custom(named[found].kind, size, &A);
    } else {
      spgen_spec s = {name, "", SPGEN_POWERLAW, size, 5, 0, 2.8, 114, 0};
      if (!strcmp(name, "arrow"))
        s.kind = SPGEN_ARROW, s.seed = 6;
      else if (!strcmp(name, "poisson"))
        s.kind = SPGEN_POISSON2D, s.len = 5, s.seed = 1;
      rc = size < 1 ? -1 : from_spgen(&s, &A);
    }
    if (rc != 0) {
      fprintf(stderr, "nested_spmv: cannot generate %s of size %d\n", name, size);
      return 1;
    }
  }
  int n = A.nrows, m = A.ncols, nnz = A.nnz;
  for (int j = 0; j < nnz; j++) {
    double a = fabs(A.val[j]);
    A.val[j] = 0.5 + a / (1.0 + a);
  }

  double *x = malloc(sizeof *x * (size_t)(m ? m : 1));
  double *y = malloc(sizeof *y * (size_t)(n ? n : 1));
  double *ref = malloc(sizeof *ref * (size_t)(n ? n : 1));
  if (!x || !y || !ref) {
    fprintf(stderr, "nested_spmv: out of memory\n");
    return 1;
  }
  uint64_t s = 42;
  for (int j = 0; j < m; j++)
    x[j] = 0.5 + spgen_unit_(&s);
  int longest = 0, maxrow = spgen_max_row(&(spgen_csr){n, m, nnz, A.rp, A.col, A.val}, &longest);
  for (int i = 0; i < n; i++) {
    double sum = 0.0;
    for (int j = A.rp[i]; j < A.rp[i + 1]; j++)
      sum += A.val[j] * x[A.col[j]];
    ref[i] = sum;
  }

  printf("rows %d\n", n);
  printf("cols %d\n", m);
  printf("nnz %d\n", nnz);
  printf("maxrow %d\n", maxrow);
  for (int rep = 0; rep < 2; rep++) {
    for (int i = 0; i < n; i++)
      y[i] = -1.0;
    spmv(n, m, nnz, A.rp, A.col, A.val, x, y);
    long bad = 0;
    int firstbad = -1;
    double sum = 0.0, sumsq = 0.0, wsum = 0.0;
    for (int i = 0; i < n; i++) {
      if (!(fabs(y[i] - ref[i]) <= 1e-9 * ref[i])) {
        if (bad++ == 0)
          firstbad = i;
      }
      sum += y[i];
      sumsq += y[i] * y[i];
      wsum += (double)(i % 1000 + 1) * y[i];
    }
    if (bad)
      fprintf(stderr, "nested_spmv: run %d: %ld wrong rows, first %d: y %.17g, expected %.17g (%d entries)\n",
              rep, bad, firstbad, y[firstbad], ref[firstbad], A.rp[firstbad + 1] - A.rp[firstbad]);
    printf("run %d\n", rep);
    printf("wrongrows %ld\n", bad);
    printf("sum %.10g\n", sum);
    printf("sumsq %.10g\n", sumsq);
    printf("wsum %.10g\n", wsum);
    if (n > 0) {
      long idx[] = {0, 1 % n, n / 3, n / 2, n - 2 > 0 ? n - 2 : 0, n - 1, longest};
      for (int k = 0; k < 7; k++)
        printf("y[%ld] %.10g\n", idx[k], y[idx[k]]);
    }
  }
  free(A.rp);
  free(A.col);
  free(A.val);
  free(x);
  free(y);
  free(ref);
  return 0;
}
