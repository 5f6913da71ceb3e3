/* A struct (or union) local of the outer body that the inner loop or After
 * reads goes into the CollectiveDP context by value, like a scalar:
 *  A: a typedef'd copy of an array-of-structs element (`bucket_t bk = B[i];`)
 *     gives the inner loop's bounds and step, and After reads a member;
 *  B: a struct with an initializer list, read in the inner body;
 *  C: a struct with an array member, filled member by member in Before;
 *  D: a struct filled by an out-parameter call (`get_seg(rp, i, &q);`);
 *  E: a named union, written through one member, read through another.
 * Rows of 6000 entries reach the next-level kernel, rows of 300 the warp
 * tier. The values are integers, so the GPU's sums equal the CPU build's
 * exactly. Argument: N. */
#include <stdio.h>
#include <stdlib.h>

struct bucket {
  long start;
  int len;
  short kind;
  short stride;
};
typedef struct bucket bucket_t;

struct seg {
  long lo, hi;
  long scale;
  int tag;
};

struct win {
  long lo, hi;
  long w[4];
};

union bits {
  double d;
  long long u;
};

static void get_seg(const long *rp, long i, struct seg *q) {
  q->lo = rp[i];
  q->hi = rp[i + 1];
  q->scale = i % 3 + 1;
  q->tag = (int)(i % 5);
}
#pragma acc routine(get_seg) seq

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000;
  if (n < 0 || n > 2000000) return 2;
  long *rp = malloc(sizeof(long) * (size_t)(n + 1));
  bucket_t *B = malloc(sizeof(bucket_t) * (size_t)(n + 1));
  long nnz = 0;
  for (long i = 0; i < n; i++) {
    rp[i] = nnz;
    long len = i % 97 == 3 ? 6000 : i % 13 == 5 ? 300 : i % 9;
    B[i].start = nnz, B[i].len = (int)len, B[i].kind = (short)(i % 3), B[i].stride = (short)(1 + i % 2);
    nnz += len;
  }
  rp[n] = nnz;
  long *v = malloc(sizeof(long) * (size_t)(nnz + 1));
  for (long k = 0; k < nnz; k++) v[k] = k % 7 - 3;
  long *ya = malloc(sizeof(long) * (size_t)(n + 1)), *yb = malloc(sizeof(long) * (size_t)(n + 1));
  long *yc = malloc(sizeof(long) * (size_t)(n + 1)), *yd = malloc(sizeof(long) * (size_t)(n + 1));
  long *ye = malloc(sizeof(long) * (size_t)(n + 1));

#pragma acc data copyin(rp[0:n+1], v[0:nnz], B[0:n]) copyout(ya[0:n], yb[0:n], yc[0:n], yd[0:n], ye[0:n])
  {
#pragma acc parallel loop present(B, v, ya)
    for (long i = 0; i < n; i++) {
      bucket_t bk = B[i];
      long s = 0;
#pragma acc loop reduction(+:s)
      for (long k = bk.start; k < bk.start + bk.len; k += bk.stride) s += v[k] * (bk.kind + 1);
      ya[i] = bk.kind == 2 ? -s : s + bk.len;
    }

#pragma acc parallel loop present(rp, v, yb)
    for (long i = 0; i < n; i++) {
      struct seg q = {rp[i], rp[i + 1], i % 4 + 1, (int)(i % 5)};
      long s = 0;
#pragma acc loop reduction(+:s)
      for (long k = q.lo; k < q.hi; k++) s += v[k] * q.scale + q.tag;
      yb[i] = s;
    }

#pragma acc parallel loop present(rp, v, yc)
    for (long i = 0; i < n; i++) {
      struct win q;
      q.lo = rp[i];
      q.hi = rp[i + 1];
      for (int t = 0; t < 4; t++) q.w[t] = (i + t) % 6 - 2;
      long m = -1000000;
#pragma acc loop reduction(max:m)
      for (long k = q.lo; k < q.hi; k++) m = v[k] * q.w[k & 3] > m ? v[k] * q.w[k & 3] : m;
      yc[i] = q.hi > q.lo ? m : q.w[0];
    }

#pragma acc parallel loop present(rp, v, yd)
    for (long i = 0; i < n; i++) {
      struct seg q;
      get_seg(rp, i, &q);
      long s = 0;
#pragma acc loop reduction(+:s)
      for (long k = q.lo; k < q.hi; k++) s += v[k] * q.scale;
      yd[i] = s * 10 + q.tag;
    }
  }

#pragma omp target teams distribute parallel for map(to: rp[0:n+1], v[0:nnz]) map(from: ye[0:n])
  for (long i = 0; i < n; i++) {
    union bits b;
    b.u = (long long)(i % 1000) << 20;
    long c = 0;
#pragma omp parallel for reduction(+:c)
    for (long k = rp[i]; k < rp[i + 1]; k++) c += (b.u >> 20) + v[k];
    ye[i] = c;
  }
  // expect-not-in-cu: runs sequentially
  long c[5] = {0, 0, 0, 0, 0};
  for (long i = 0; i < n; i++) {
    c[0] += ya[i] * (i % 5 + 1);
    c[1] += yb[i] * (i % 7 + 1);
    c[2] += yc[i] * (i % 3 + 1);
    c[3] += yd[i] * (i % 5 + 1);
    c[4] += ye[i] * (i % 3 + 1);
  }
  printf("n %ld nnz %ld: %ld %ld %ld %ld %ld\n", n, nnz, c[0], c[1], c[2], c[3], c[4]);
  free(rp), free(B), free(v), free(ya), free(yb), free(yc), free(yd), free(ye);
  return 0;
}
// nvcc-quiet
