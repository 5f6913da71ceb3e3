/* An inner parallel loop that is the only statement of an if's then
 * branch (`if (c) { inner loop } [else ...]`) runs CollectiveDP: the parent
 * evaluates c and the else branch, and the loop has no iterations when c is
 * false (its bounds are then not evaluated at all).
 *  A: acc, no else, the condition reads the outer index and a Before local;
 *  B: an else branch that assigns a Before local After reads;
 *  C: omp, no braces, bounds that are only valid when the condition holds
 *     (off[k + 1] with k = -1 for unlisted rows);
 *  D: an else branch that ends the outer iteration (`continue`: no After).
 * Rows of 6000 entries reach the next-level kernel. The values are
 * integers, so the GPU's sums equal the CPU build's exactly. Argument: N. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000;
  if (n < 0 || n > 2000000) return 2;
  long *rp = malloc(sizeof(long) * (size_t)(n + 1)), *idx = malloc(sizeof(long) * (size_t)(n + 1));
  long nnz = 0, nl = 0;
  for (long i = 0; i < n; i++) {
    rp[i] = nnz;
    nnz += i % 97 == 3 ? 6000 : i % 13 == 5 ? 300 : i % 9;
    idx[i] = i % 4 == 1 ? -1 : nl++; /* rows of the sublist C walks; -1: not listed */
  }
  rp[n] = nnz;
  long *v = malloc(sizeof(long) * (size_t)(nnz + 1));
  long *ya = malloc(sizeof(long) * (size_t)(n + 1)), *yb = malloc(sizeof(long) * (size_t)(n + 1));
  long *yc = malloc(sizeof(long) * (size_t)(n + 1)), *yd = malloc(sizeof(long) * (size_t)(n + 1));
  long *off = malloc(sizeof(long) * (size_t)(nl + 1));
  for (long k = 0; k < nnz; k++) v[k] = k % 7 - 3;
  for (long i = 0, k = 0; i < n; i++)
    if (idx[i] >= 0) off[k++] = rp[i];
  off[nl] = nnz;
  for (long i = 0; i < n; i++) yd[i] = -7;

#pragma acc data copyin(rp[0:n+1], v[0:nnz]) copyout(ya[0:n], yb[0:n]) copy(yd[0:n])
  {
#pragma acc parallel loop present(rp, v, ya)
    for (long i = 0; i < n; i++) {
      long len = rp[i + 1] - rp[i], s = i;
      if (i % 3 != 2 && len > 1) {
#pragma acc loop reduction(+:s)
        for (long j = rp[i]; j < rp[i + 1]; j++) s += v[j] * (j % 5);
      }
      ya[i] = s * 3 + len;
    }
    // expect-in-cu: bool gt_take = false; if (i % 3 != 2 && len > 1) gt_take = true;

#pragma acc parallel loop present(rp, v, yb)
    for (long i = 0; i < n; i++) {
      long s = 0;
      if (i % 2 == 0) {
#pragma acc loop reduction(+:s)
        for (long j = rp[i]; j < rp[i + 1]; j++) s += v[j];
      } else {
        s = -1000 - i % 17;
      }
      yb[i] = s;
    }

#pragma acc parallel loop present(rp, v, yd)
    for (long i = 0; i < n; i++) {
      long s = 1;
      if (i % 5 != 4) {
#pragma acc loop reduction(*:s)
        for (long j = rp[i]; j < rp[i + 1]; j++) s *= v[j] == 0 ? 1 : (v[j] < 0 ? -1 : 1);
      } else
        continue;
      yd[i] = s;
    }
  }
#pragma omp target teams distribute parallel for map(to: idx[0:n], off[0:nl+1], v[0:nnz]) map(from: yc[0:n])
  for (long i = 0; i < n; i++) {
    long k = idx[i], m = -100;
    if (k >= 0)
#pragma omp parallel for reduction(max:m)
      for (long j = off[k]; j < off[k + 1]; j++) m = v[j] * (j % 3) > m ? v[j] * (j % 3) : m;
    yc[i] = m + k;
  }
  // expect-not-in-cu: runs sequentially
  long c[4] = {0, 0, 0, 0};
  for (long i = 0; i < n; i++) {
    c[0] += ya[i] % 100003 * (i % 5 + 1);
    c[1] += yb[i] % 100003 * (i % 5 + 1);
    c[2] += yc[i] * (i % 5 + 1);
    c[3] += yd[i] * (i % 7 + 1);
  }
  printf("n %ld nnz %ld: %ld %ld %ld %ld\n", n, nnz, c[0], c[1], c[2], c[3]);
  free(rp), free(idx), free(v), free(ya), free(yb), free(yc), free(yd), free(off);
  return 0;
}
// nvcc-quiet
