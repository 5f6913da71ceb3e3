/* Several inner parallel loops in one outer body run CollectiveDP in
 * stages: the parent runs the first loop's tiers; whoever runs the code
 * after it (M) decides the next loop's tier there: short loops run in that
 * thread, long ones are saved for the next stage's next-level kernel,
 * which runs the loop and the rest of the body.
 *  A: acc, two reductions; the second uses the first's result (M);
 *  B: omp, three loops: a max, a loop writing w[j] (no reduction), a sum
 *     reading back what the second wrote;
 *  C: one index `long j;` declared before the region for both loops, the
 *     second loop's bound computed in M, private(d) of a `long d;` from
 *     outside the region, an outer reduction in After;
 *  D: both loops under an if, the second with an else and private(t);
 *  E: gang / worker / vector: the worker loop is the inner loop, and the
 *     vector loop inside it runs sequentially in each of its iterations.
 * Rows of 6000 entries reach the next-level kernels. The values are
 * integers, so the GPU's sums equal the CPU build's exactly. Argument: N. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000;
  if (n < 0 || n > 2000000) return 2;
  long *rp = malloc(sizeof(long) * (size_t)(n + 1));
  long nnz = 0;
  for (long i = 0; i < n; i++) {
    rp[i] = nnz;
    nnz += i % 97 == 3 ? 6000 : i % 13 == 5 ? 300 : i % 9;
  }
  rp[n] = nnz;
  long *v = malloc(sizeof(long) * (size_t)(nnz + 1)), *w = malloc(sizeof(long) * (size_t)(nnz + 1));
  long *ya = malloc(sizeof(long) * (size_t)(n + 1)), *yb = malloc(sizeof(long) * (size_t)(n + 1));
  long *yc = malloc(sizeof(long) * (size_t)(n + 1)), *yd = malloc(sizeof(long) * (size_t)(n + 1));
  long *ye = malloc(sizeof(long) * (size_t)(n + 1)), *z = malloc(sizeof(long) * (size_t)(nnz + 1));
  for (long k = 0; k < nnz; k++) v[k] = k % 7 - 3 + (k % 11 == 4 ? 9 : 0);
  long total = 5;

#pragma acc data copyin(rp[0:n+1], v[0:nnz]) copyout(ya[0:n], yc[0:n], yd[0:n])
  {
#pragma acc parallel loop present(rp, v, ya)
    for (long i = 0; i < n; i++) {
      long s = 0;
#pragma acc loop reduction(+:s)
      for (long j = rp[i]; j < rp[i + 1]; j++) s += v[j];
      long m = (s % 7 + 7) % 7 + 1, t = i % 3;
#pragma acc loop reduction(+:t)
      for (long j = rp[i]; j < rp[i + 1]; j++) t += v[j] * m + (j & 1);
      ya[i] = s * 1000 + t;
    }
    // expect-in-cu: stage 2: a long inner loop goes to its next-level kernel

    long j, d;
#pragma acc parallel loop present(rp, v, yc) reduction(+:total)
    for (long i = 0; i < n; i++) {
      long cnt = 0;
#pragma acc loop reduction(+:cnt)
      for (j = rp[i]; j < rp[i + 1]; j++) cnt += v[j] > 0;
      long hi = rp[i] + cnt * 2 < rp[i + 1] ? rp[i] + cnt * 2 : rp[i + 1], p = 1;
#pragma acc loop reduction(+:p) private(d)
      for (j = rp[i]; j < hi; j++) {
        d = v[j] * v[j];
        p += d;
      }
      yc[i] = cnt * 100000 + p;
      total += p % 13;
    }

#pragma acc parallel loop present(rp, v, yd)
    for (long i = 0; i < n; i++) {
      long len = rp[i + 1] - rp[i], s = -1;
      if (len > 2) {
#pragma acc loop reduction(max:s)
        for (long j = rp[i]; j < rp[i + 1]; j++) s = v[j] > s ? v[j] : s;
      }
      long q = 0, t;
      if (len % 4 != 1) {
#pragma acc loop reduction(+:q) private(t)
        for (long j = rp[i]; j < rp[i + 1]; j++) {
          t = v[j] - s;
          q += t * t;
        }
      } else
        q = -5 - len;
      yd[i] = q * 16 + s;
    }
  }
#pragma omp target teams distribute map(to: rp[0:n+1], v[0:nnz]) map(tofrom: w[0:nnz]) map(from: yb[0:n])
  for (long i = 0; i < n; i++) {
    long mx = -1000;
#pragma omp parallel for reduction(max:mx)
    for (long k = rp[i]; k < rp[i + 1]; k++) mx = v[k] > mx ? v[k] : mx;
#pragma omp parallel for
    for (long k = rp[i]; k < rp[i + 1]; k++) w[k] = (mx - v[k]) * (k % 4);
    long s = 0;
#pragma omp parallel for reduction(+:s)
    for (long k = rp[i]; k < rp[i + 1]; k++) s += w[k] + (k == rp[i] ? mx : 0);
    yb[i] = s;
  }
  // expect-in-cu: stage 3: a long inner loop goes to its next-level kernel

#pragma acc parallel loop gang copyin(rp[0:n+1], v[0:nnz]) copyout(ye[0:n], z[0:nnz])
  for (long i = 0; i < n; i++) {
    long s = i % 11;
#pragma acc loop worker reduction(+:s)
    for (long j = rp[i]; j < rp[i + 1]; j++) {
      long t = 0;
#pragma acc loop vector reduction(+:t)
      for (int k = 0; k < 6; k++) t += v[(j + k * 7) % nnz] * (k + 1);
      z[j] = t;
      s += t % 5;
    }
    ye[i] = s;
  }
  // expect-in-cu: runs sequentially in each iteration of the inner loop around it
  // expect-not-in-cu: runs sequentially in each thread
  long c[5] = {0, 0, 0, 0, 0};
  for (long i = 0; i < n; i++) {
    c[0] += ya[i] % 100003 * (i % 5 + 1);
    c[1] += yb[i] % 100003 * (i % 5 + 1);
    c[2] += yc[i] % 100003 * (i % 5 + 1);
    c[3] += yd[i] % 100003 * (i % 7 + 1);
    c[4] += ye[i] * (i % 3 + 1);
  }
  for (long k = 0; k < nnz; k++) c[4] += w[k] * (k % 3 + 1) + z[k] % 1000;
  printf("n %ld nnz %ld: %ld %ld %ld %ld %ld total %ld\n", n, nnz, c[0], c[1], c[2], c[3], c[4], total);
  free(rp), free(v), free(w), free(ya), free(yb), free(yc), free(yd), free(ye), free(z);
  return 0;
}
// nvcc-quiet
