/* More inner loops in blocks of the outer body (nested_scoped.c has the
 * basic forms), each compared with the CPU build:
 *  1: the block of an if with an else-if chain declares a pointer to the
 *     row, a static const table, a private of the inner loop and the inner
 *     loop's C89 index, and may end the outer iteration before the loop;
 *  2: a bare block calls an out-parameter routine for the bounds, and its
 *     rest runs a plain loop over an index declared outside the region;
 *  3: three stages: plain, in an if's block (writing what the third
 *     reads), in a bare block;
 *  4: OpenMP, collapse(2), an if's block whose else ends the iteration;
 *  5: OpenMP, an if's block that updates a Before local After reads.
 * Rows of 5000 entries reach the next-level kernel. Argument: N. */
#include <stdio.h>
#include <stdlib.h>

static void bounds(const long *rp, long i, long *lo, long *hi) { *lo = rp[i]; *hi = rp[i + 1]; }
#pragma acc routine(bounds) seq

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000;
  if (n < 0 || n > 2000000) return 2;
  long *rp = malloc(sizeof(long) * (size_t)(n + 1));
  long nnz = 0;
  for (long i = 0; i < n; i++) { rp[i] = nnz; nnz += i % 89 == 7 ? 5000 : i % 11 == 4 ? 200 : i % 10; }
  rp[n] = nnz;
  double *val = malloc(sizeof(double) * (size_t)(nnz + 1));
  long *w = malloc(sizeof(long) * (size_t)(nnz + 1));
  for (long k = 0; k < nnz; k++) val[k] = (double)(k % 13) - 6.0, w[k] = 0;
  double *y1 = malloc(sizeof(double) * (size_t)(n + 1)), *y2 = malloc(sizeof(double) * (size_t)(n + 1));
  long *y3 = malloc(sizeof(long) * (size_t)(n + 1)), *y4 = malloc(sizeof(long) * (size_t)(n + 1));
  long *y5 = malloc(sizeof(long) * (size_t)(n * 2 + 1));
  int j;

#pragma acc data copyin(rp[0:n+1], val[0:nnz]) copyout(y1[0:n], y2[0:n], y3[0:n], y4[0:n], y5[0:2*n]) copy(w[0:nnz])
  {
    /* 1: pointer local, static const table, private declared in B, continue in B, C89 index in B */
#pragma acc parallel loop present(rp, val, y1)
    for (long i = 0; i < n; i++) {
      y1[i] = -1.0;
      if (i % 7 != 3) {
        if (i % 50 == 49) continue;
        static const double wt[4] = {1.0, 2.0, 0.5, 4.0};
        const double *row = val + rp[i];
        long len = rp[i + 1] - rp[i];
        double t, s = 0.0;
        int jj;
#pragma acc loop reduction(+:s) private(t)
        for (jj = 0; jj < len; jj++) { t = row[jj] * wt[jj & 3]; s += t; }
        y1[i] = s + (double)len;
      } else if (i % 2) {
        for (long q = 0; q < 3; q++) y1[i] += (double)q;
      } else
        y1[i] = 7.0;
    }

    /* 2: out-parameter call in B, plain loop over an outside C89 index in A, Before local read only in A */
#pragma acc parallel loop present(rp, val, y2) private(j)
    for (long i = 0; i < n; i++) {
      double bias = (double)(i % 5);
      {
        long lo, hi;
        bounds(rp, i, &lo, &hi);
        double m = -1e300;
#pragma acc loop reduction(max:m)
        for (long k = lo; k < hi; k++) m = val[k] > m ? val[k] : m;
        double acc = 0.0;
        for (j = 0; j < 4; j++) acc += bias * j;
        y2[i] = (hi > lo ? m : 0.0) + acc;
      }
    }

    /* 3: three stages: plain, if-block, bare block; a later stage's B reads the earlier reduction */
#pragma acc parallel loop present(rp, val, y3, w)
    for (long i = 0; i < n; i++) {
      long a = 0;
#pragma acc loop reduction(+:a)
      for (long k = rp[i]; k < rp[i + 1]; k++) a += (long)val[k];
      if (a % 3 != 0) {
        long b = a * 2, lo = rp[i];
#pragma acc loop
        for (long k = lo; k < rp[i + 1]; k++) w[k] = b + k % 7;
        a += b;
      }
      {
        long c = 0, hi = rp[i + 1];
#pragma acc loop reduction(+:c)
        for (long k = rp[i]; k < hi; k++) c += w[k] % 5;
        y3[i] = a * 1000 + c;
      }
    }
  }

  /* 4: OpenMP, collapse(2) outer, if-block with else that continues */
#pragma omp target teams distribute parallel for collapse(2) map(to: rp[0:n+1], val[0:nnz]) map(from: y5[0:2*n])
  for (long i = 0; i < n; i++)
    for (int h = 0; h < 2; h++) {
      long r = -5;
      if ((i + h) % 4 != 0) {
        long s = h;
        const long lo = rp[i] + h;
#pragma omp parallel for reduction(+:s)
        for (long k = lo; k < rp[i + 1]; k += 2) s += (long)val[k] * (k % 3);
        r = s;
      } else
        continue;
      y5[2 * i + h] = r;
    }
  /* y5 entries skipped by continue are never written on either build: give them a value */
  for (long i = 0; i < n; i++)
    for (int h = 0; h < 2; h++)
      if ((i + h) % 4 == 0) y5[2 * i + h] = 0;

  /* 5: the block's locals shadow nothing, but After uses the outer index and a Before local */
#pragma omp target teams distribute parallel for map(to: rp[0:n+1], val[0:nnz]) map(from: y4[0:n])
  for (long i = 0; i < n; i++) {
    long base = i % 9;
    if (rp[i + 1] - rp[i] > 1) {
      long cnt = 0;
#pragma omp parallel for reduction(+:cnt)
      for (long k = rp[i]; k < rp[i + 1]; k++) cnt += val[k] > 0.0;
      base += cnt;
    }
    y4[i] = base * 3 + i % 2;
  }

  double c1 = 0, c2 = 0;
  long c3 = 0, c4 = 0, c5 = 0, c6 = 0;
  for (long i = 0; i < n; i++) {
    c1 += y1[i] * (double)(i % 5 + 1);
    c2 += y2[i] * (double)(i % 3 + 1);
    c3 += y3[i] % 100003 * (i % 7 + 1);
    c4 += y4[i] * (i % 5 + 1);
    c5 += (y5[2 * i] + 3 * y5[2 * i + 1]) * (i % 3 + 1);
  }
  for (long k = 0; k < nnz; k++) c6 += w[k] % 1009;
  // expect-not-in-cu: runs sequentially
  printf("n %ld nnz %ld: %.12g %.12g %ld %ld %ld %ld\n", n, nnz, c1, c2, c3, c4, c5, c6);
  free(rp), free(val), free(w), free(y1), free(y2), free(y3), free(y4), free(y5);
  return 0;
}
// nvcc-quiet
