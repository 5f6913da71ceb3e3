/* Data clauses naming sections of struct members: `copyin(A.rp[0:n+1])`,
 * `map(to: P->col[0:P->nnz])`, `update device(A.val[...])`. The data a
 * member points to (or an array member holds) moves; the struct stays on
 * the host. The regions then use local pointers (a region that reads a
 * pointer member itself is an error: tests/diag/cases/struct_pointer_member.c),
 * which find the member's data present. A nested SpMV (CollectiveDP) and
 * flat loops, compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

struct csr {
  int n, nnz;
  int *rp, *col;
  double *val;
  double wt[8]; /* an array member */
};

static void spmv(const struct csr *A, const double *x, double *y) {
  const int n = A->n, nnz = A->nnz;
  const int *rp = A->rp, *col = A->col;
  const double *val = A->val, *wt = A->wt;
#pragma acc parallel loop present(rp[0:n+1], col[0:nnz], val[0:nnz], wt[0:8]) copyin(x[0:n]) copyout(y[0:n]) // expect-in-cu: nested parallel loop (CollectiveDP
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += val[j] * wt[j % 8] * x[col[j]];
    y[i] = s;
  }
}

int main(int argc, char **argv) {
  struct csr A, *P = &A;
  int n = argc > 1 ? atoi(argv[1]) : 200000;
  if (n < 1) n = 1;
  A.n = n;
  A.rp = malloc(sizeof(int) * ((size_t)n + 1));
  A.rp[0] = 0;
  for (int i = 0; i < n; i++) A.rp[i + 1] = A.rp[i] + (i % 211 == 0 ? 3000 : i % 9); /* empty rows too */
  A.nnz = A.rp[n];
  A.col = malloc(sizeof(int) * (size_t)(A.nnz ? A.nnz : 1));
  A.val = malloc(sizeof(double) * (size_t)(A.nnz ? A.nnz : 1));
  for (int k = 0; k < A.nnz; k++) A.col[k] = (int)((k * 40503u) % (unsigned)n), A.val[k] = (double)(k % 7) - 3.0;
  for (int k = 0; k < 8; k++) A.wt[k] = (double)(k + 1);
  double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) x[i] = (double)(i % 5) - 2.0;

  /* OpenACC: a structured region, a member of a struct pointer, an array member */
  double y1 = 0.0;
#pragma acc data copyin(P->rp[0:n+1], A.col[0:A.nnz], A.val[0:A.nnz], A.wt[0:8])
  {
    spmv(&A, x, y);
    for (int i = 0; i < n; i++) y1 += y[i] * (double)(1 + i % 3);
    for (int k = 0; k < A.nnz; k++) A.val[k] = 1.0; /* host only, then sent */
#pragma acc update device(A.val[0:A.nnz])
    spmv(&A, x, y);
  }
  double y2 = 0.0;
  for (int i = 0; i < n; i++) y2 += y[i] * (double)(1 + i % 3);

  /* OpenMP: enter / exit data on members (one of an array element), an update back from the device */
  struct csr two[2];
  two[0] = A, two[1] = A; /* the same pointers */
#pragma omp target enter data map(to: two[1].rp[0:n+1], P->col[0:P->nnz], A.val[0:A.nnz], A.wt[0:8])
  {
    double *val = A.val;
    const int nnz = A.nnz;
#pragma omp target teams distribute parallel for map(alloc: val[0:nnz])
    for (int k = 0; k < nnz; k++) val[k] = 0.5 * (double)(k % 4);
  }
#pragma omp target update from(A.val[0:A.nnz])
  double v3 = 0.0;
  for (int k = 0; k < A.nnz; k++) v3 += A.val[k];
  spmv(&A, x, y);
#pragma omp target exit data map(release: two[1].rp[0:n+1], P->col[0:P->nnz], A.val[0:A.nnz], A.wt[0:8])
  double y3 = 0.0;
  for (int i = 0; i < n; i++) y3 += y[i] * (double)(1 + i % 3);

  printf("nnz %d y1 %.17g y2 %.17g v3 %.17g y3 %.17g\n", A.nnz, y1, y2, v3, y3);
  free(A.rp), free(A.col), free(A.val), free(x), free(y);
  return 0;
}
