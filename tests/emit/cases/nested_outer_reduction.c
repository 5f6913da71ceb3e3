/* Reductions on the outer loop of a nest (a CG step's fused p.Ap, the
 * largest row sum, a count of long rows, a product of small factors) with
 * CollectiveDP: After runs in every tier (inline, warp-flat, warp, the
 * next-level kernel for rows of 6000), and each adds to its own copy; the
 * parent's blocks and the NLK's blocks are combined by the stub. OpenACC
 * and OpenMP forms. The data are small integers, so every sum is exact in
 * any order and the GPU's results equal the CPU build's. Arguments: N. */
#include <stdio.h>
#include <stdlib.h>

static void fill(long n, long *rp, int *col, double *val, double *x, double *p) {
  long nnz = 0;
  for (long i = 0; i < n; i++) {
    rp[i] = nnz;
    nnz += i % 97 == 3 ? 6000 : i % 13 == 5 ? 300 : i % 9 == 1 ? 40 : i % 9;
  }
  rp[n] = nnz;
  for (long k = 0; k < nnz; k++) col[k] = (int)((k * 7919) % n), val[k] = (double)(k % 7 + 1);
  for (long i = 0; i < n; i++) x[i] = (double)(i % 5 + 1), p[i] = (double)(i % 3 + 1);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 30000;
  if (n < 0 || n > 1000000) return 2;
  long *rp = malloc(sizeof(long) * (size_t)(n + 1));
  long cap = 0;
  for (long i = 0; i < n; i++) cap += i % 97 == 3 ? 6000 : i % 13 == 5 ? 300 : i % 9 == 1 ? 40 : i % 9;
  int *col = malloc(sizeof(int) * (size_t)(cap + 1));
  double *val = malloc(sizeof(double) * (size_t)(cap + 1));
  double *x = malloc(sizeof(double) * (size_t)(n + 1)), *p = malloc(sizeof(double) * (size_t)(n + 1));
  double *y = malloc(sizeof(double) * (size_t)(n + 1));
  fill(n, rp, col, val, x, p);
  long nnz = rp[n];

  double pq = 0.5, rmax = -1e300;
  long nlong = 0;
  int sign = 1;
#pragma acc parallel loop copyin(rp[0:n+1], col[0:nnz], val[0:nnz], x[0:n], p[0:n]) copyout(y[0:n]) \
    reduction(+:pq) reduction(max:rmax) reduction(+:nlong) reduction(*:sign)
  for (long i = 0; i < n; i++) { // expect-in-cu: gtrt_red_atomic<gtrt_red_add>(gt_oslot_pq, gt_oacc_pq);
    const long lo = rp[i], hi = rp[i + 1];
    nlong += hi - lo > 1000;
    double sum = 0.0;
#pragma acc loop reduction(+:sum)
    for (long j = lo; j < hi; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
    pq += p[i] * sum;
    if (sum > rmax) rmax = sum;
    if (i % 97 == 3 || i % 1000 == 999) sign *= (long)sum % 4 == 0 ? -1 : 1;
  }

  /* OpenMP nesting; the inner loop runs over a row's entries with a step of 2 */
  double s2 = 0.0;
  long minrow = 1L << 40;
#pragma omp target teams distribute parallel for map(to: rp[0:n+1], col[0:nnz], val[0:nnz], x[0:n]) \
    reduction(+:s2) reduction(min:minrow)
  for (long i = 0; i < n; i++) {
    long t = 0;
#pragma omp parallel for reduction(+:t)
    for (long j = rp[i]; j < rp[i + 1]; j += 2) t += (long)val[j] * col[j] % 11;
    s2 += (double)t * (x[i] - 3);
    if (t < minrow) minrow = t;
  }

  double c = 0;
  for (long i = 0; i < n; i++) c += y[i] * (double)(i % 7 + 1);
  printf("n %ld nnz %ld: pq %.17g rmax %.17g nlong %ld sign %d y %.17g s2 %.17g minrow %ld\n", n, nnz, pq, rmax,
         nlong, sign, c, s2, minrow);
  free(rp), free(col), free(val), free(x), free(p), free(y);
  return 0;
}
// expect-not-in-cu: runs sequentially
