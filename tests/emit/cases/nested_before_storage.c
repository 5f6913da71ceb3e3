/* Before locals of a nest whose storage the inner loop must not reach
 * through the parent thread (cnest15 findings 01 and 02):
 *  A: out-parameters of a helper (`bounds(rp, i, &blo, &bhi)`) and a local
 *     array filled by a call: the address goes only to the callee, the inner
 *     loop uses copies, so CollectiveDP (rows of 6000 entries reach the
 *     next-level kernel);
 *  B: a `static const` table read by the inner loop and After: declared
 *     again in each executor, CollectiveDP;
 *  C: a pointer to a Before local array (`double *p = w`) used by the inner
 *     loop: the next-level kernel cannot read the parent thread's stack, so
 *     the inner loop stays sequential (it once saved p and read garbage);
 *  D: a static local that is not const: one object, so sequential.
 * The values are integers, so the GPU's sums equal the CPU build's exactly.
 * Argument: N. */
#include <stdio.h>
#include <stdlib.h>

#pragma acc routine seq
static void bounds(const long *rp, long i, long *lo, long *hi) {
  *lo = rp[i];
  *hi = rp[i + 1];
}

#pragma acc routine seq
static void fill_weights(long i, long w[3]) {
  w[0] = i % 3 + 1;
  w[1] = i % 5;
  w[2] = 2;
}

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
  long *v = malloc(sizeof(long) * (size_t)(nnz + 1));
  long *ya = malloc(sizeof(long) * (size_t)(n + 1)), *yb = malloc(sizeof(long) * (size_t)(n + 1));
  long *yc = malloc(sizeof(long) * (size_t)(n + 1)), *yd = malloc(sizeof(long) * (size_t)(n + 1));
  for (long k = 0; k < nnz; k++) v[k] = k % 7 - 3;

#pragma acc data copyin(rp[0:n+1], v[0:nnz]) copyout(ya[0:n], yb[0:n], yc[0:n], yd[0:n])
  {
#pragma acc parallel loop present(rp, v, ya)
    for (long i = 0; i < n; i++) {
      long blo, bhi, w[3];
      bounds(rp, i, &blo, &bhi);
      fill_weights(i, w);
      long lo = blo, hi = bhi, w0 = w[0], w1 = w[1];
      long s = 0;
#pragma acc loop reduction(+:s)
      for (long j = lo; j < hi; j++) s += w0 * v[j] + w1;
      ya[i] = s + blo % 3; // blo: saved by value for After
    }
    // expect-in-cu: long w0 = gt_ctx.w0;

#pragma acc parallel loop present(rp, v, yb)
    for (long i = 0; i < n; i++) {
      static const long weight[7] = {1, 2, 3, 5, 8, 13, 21}, bias = 4;
      long s = 0;
#pragma acc loop reduction(+:s)
      for (long j = rp[i]; j < rp[i + 1]; j++) s += weight[v[j] + 3];
      yb[i] = s * bias + weight[i % 7];
    }
    // expect-in-cu: (void)bias;

#pragma acc parallel loop present(rp, v, yc)
    for (long i = 0; i < n; i++) {
      long w[3] = {i % 4, 1, -1};
      long *p = w;
      long s = 0;
#pragma acc loop reduction(+:s)
      for (long j = rp[i]; j < rp[i + 1]; j++) s += v[j] * p[j % 3];
      yc[i] = s;
    }
    // expect-in-cu: nested_before_storage.c:77 runs sequentially in each thread: the address of a local

#pragma acc parallel loop present(rp, v, yd)
    for (long i = 0; i < n; i++) {
      static long scale = 3;
      long s = 0;
#pragma acc loop reduction(+:s)
      for (long j = rp[i]; j < rp[i + 1]; j++) s += scale * v[j];
      yd[i] = s;
    }
    // expect-in-cu: nested_before_storage.c:87 runs sequentially in each thread: a static local
  }
  long c[4] = {0, 0, 0, 0};
  for (long i = 0; i < n; i++) {
    c[0] += ya[i] % 100003 * (i % 5 + 1);
    c[1] += yb[i] % 100003 * (i % 5 + 1);
    c[2] += yc[i] % 100003 * (i % 5 + 1);
    c[3] += yd[i] % 100003 * (i % 5 + 1);
  }
  printf("n %ld nnz %ld: %ld %ld %ld %ld\n", n, nnz, c[0], c[1], c[2], c[3]);
  free(rp), free(v), free(ya), free(yb), free(yc), free(yd);
  return 0;
}
// nvcc-quiet
