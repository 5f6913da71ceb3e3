/* An inner parallel loop that is one statement of a block, `{ B; loop; A }` or
 * `if (c) { B; loop; A } [else E]`, runs CollectiveDP. The parent thread runs
 * the block's text around its decision (B, then the trip count); a loop that
 * leaves the thread takes B's locals in its context, and whoever runs it then
 * runs `{ A }` and After (c held there, so E never runs in a tier).
 *  A: acc, an if with an else, B declares the bounds and the accumulator, A
 *     declares a local of its own and runs a plain loop over a C89 index;
 *  B: omp, a bare block whose A ends the outer iteration (`continue`) or not;
 *  C: a frontier: the outer loop walks a list, the block's condition reads a
 *     mark, the inner loop writes its own part of `out` (no reduction);
 *  D: two stages, both blocks, each declaring its own `s`, the first one's
 *     A assigning a Before local that the second reads, and an outer
 *     reduction fed from the second block's A.
 * Rows of 6000 entries reach the next-level kernel, rows of 300 the warp
 * tier. The values are integers, so the GPU's sums equal the CPU build's
 * exactly. Argument: N. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000;
  if (n < 0 || n > 2000000) return 2;
  long *rp = malloc(sizeof(long) * (size_t)(n + 1)), *front = malloc(sizeof(long) * (size_t)(n + 1));
  long nnz = 0, nf = 0;
  for (long i = 0; i < n; i++) {
    rp[i] = nnz;
    nnz += i % 97 == 3 ? 6000 : i % 13 == 5 ? 300 : i % 9;
    if (i % 3 != 0) front[nf++] = n - 1 - i; /* the frontier, in another order than the rows */
  }
  rp[n] = nnz;
  long *v = malloc(sizeof(long) * (size_t)(nnz + 1)), *out = malloc(sizeof(long) * (size_t)(nnz + 1));
  int *mark = malloc(sizeof(int) * (size_t)(n + 1));
  long *ya = malloc(sizeof(long) * (size_t)(n + 1)), *yb = malloc(sizeof(long) * (size_t)(n + 1));
  long *yd = malloc(sizeof(long) * (size_t)(n + 1));
  for (long k = 0; k < nnz; k++) v[k] = k % 7 - 3, out[k] = -1;
  for (long i = 0; i < n; i++) mark[i] = i % 4 != 2;
  long tot = 5;
  int q;

#pragma acc data copyin(rp[0:n+1], v[0:nnz]) copyout(ya[0:n], yd[0:n])
  {
#pragma acc parallel loop present(rp, v, ya) private(q)
    for (long i = 0; i < n; i++) {
      long len = rp[i + 1] - rp[i];
      if (len > 0 && i % 5 != 1) {
        long s = i % 7, lo = rp[i], hi = rp[i + 1];
#pragma acc loop reduction(+:s)
        for (long j = lo; j < hi; j++) s += v[j] * (j % 3);
        long t = s * 2 + len;
        for (q = 0; q < 3; q++) t += q * lo;
        ya[i] = t;
      } else {
        ya[i] = -len - 1;
      }
      ya[i] += i % 3;
    }
    // expect-in-cu: if (len > 0 && i % 5 != 1) {

#pragma acc parallel loop present(rp, v, yd) reduction(+:tot)
    for (long i = 0; i < n; i++) {
      long r = 1;
      if (i % 2 == 0) {
        long s = 0;
#pragma acc loop reduction(+:s)
        for (long j = rp[i]; j < rp[i + 1]; j++) s += v[j];
        r = s;
      }
      {
        long s = r;
#pragma acc loop reduction(max:s)
        for (long j = rp[i]; j < rp[i + 1]; j++) s = s > v[j] * 3 ? s : v[j] * 3;
        yd[i] = s;
        tot += s % 1000;
      }
    }
    // expect-in-cu: _2_nlk(
  }

#pragma omp target teams distribute parallel for map(to: rp[0:n+1], v[0:nnz]) map(from: yb[0:n])
  for (long i = 0; i < n; i++) {
    long base = i & 3;
    {
      long c = base;
      const long lo = rp[i];
#pragma omp parallel for reduction(+:c)
      for (long j = lo; j < rp[i + 1]; j++) c += v[j] > 0 ? v[j] : -v[j];
      if (c % 2) {
        yb[i] = c;
        continue;
      }
      yb[i] = -c;
    }
    yb[i] += 1000;
  }

#pragma acc parallel loop copyin(rp[0:n+1], v[0:nnz], front[0:nf], mark[0:n]) copy(out[0:nnz])
  for (long k = 0; k < nf; k++) {
    long u = front[k];
    if (mark[u] == 1) {
      long b = rp[u], e = rp[u + 1];
      long d = u % 11;
#pragma acc loop
      for (long j = b; j < e; j++) out[j] = v[j] * d + k;
    }
  }
  // expect-not-in-cu: runs sequentially
  long c[5] = {0, 0, 0, 0, 0};
  for (long i = 0; i < n; i++) {
    c[0] += ya[i] % 100003 * (i % 5 + 1);
    c[1] += yb[i] * (i % 5 + 1);
    c[2] += yd[i] * (i % 7 + 1);
  }
  for (long k = 0; k < nnz; k++) c[3] += out[k] % 100003 * (k % 5 + 1);
  c[4] = tot;
  printf("n %ld nnz %ld: %ld %ld %ld %ld %ld\n", n, nnz, c[0], c[1], c[2], c[3], c[4]);
  free(rp), free(front), free(v), free(out), free(mark), free(ya), free(yb), free(yd);
  return 0;
}
// nvcc-quiet
