/* Nested parallel loops whose Before part once broke gtcc (probe nested4):
 * - the inner index declared in Before (`int j;`) and reused by a loop in
 *   After: the tiers declared j only inside the inner loop (nvcc: "j is
 *   undefined"); the loop in After sets j before reading it, so After's
 *   executors now declare j of their own (CollectiveDP);
 * - a const Before local sizing an array in the inner body (`double t[K]`):
 *   the executor re-declared K from the context, no constant for C++;
 * - a Before local's address taken as `&(w)` or `(const double *)&w`: the
 *   text check saw only `&w`, so a pointer into the parent thread's stack
 *   went into the context (the nest must run its inner loop sequentially).
 * Rows of 0..3000 entries reach every tier; values are multiples of 1/4, so
 * sums are exact in any order. */
#include <stdio.h>
#include <stdlib.h>

static double checksum(const double *y, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += y[i] * (double)(1 + i % 7);
  return s;
}

static void index_before(int n, const int *rp, const double *a, double *y) {
#pragma acc parallel loop copyin(rp[0:n+1], a[0:rp[n]]) copyout(y[0:4*n])
  for (int i = 0; i < n; i++) {
    int j;
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (j = rp[i]; j < rp[i + 1]; j++) s += a[j];
    for (j = 0; j < 4; j++) y[4 * i + j] = s * (j + 1);
  }
}
// expect-in-cu: int j;

static void const_size(int n, const int *rp, const double *a, double *y) {
#pragma acc parallel loop copyin(rp[0:n+1], a[0:rp[n]]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    const int K = 4;
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) {
      double t[K];
      for (int q = 0; q < K; q++) t[q] = a[j] * (q + 1);
      s += t[j % K];
    }
    y[i] = s;
  }
}

static void address_forms(int n, const int *rp, const double *a, double *y) {
#pragma acc parallel loop copyin(rp[0:n+1], a[0:rp[n]]) copyout(y[0:2*n])
  for (int i = 0; i < n; i++) {
    double w = 1.0 + i % 5, v = 2.0 - i % 3;
    const double *pw = &(w), *pv = (const double *)&v;
    double s = 0.0, r = 0.0;
#pragma acc loop reduction(+:s, r)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += a[j] * *pw, r += a[j] * *pv;
    y[2 * i] = s, y[2 * i + 1] = r;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4000;
  int *rp = malloc(sizeof(int) * (n + 1));
  if (!rp) return 1;
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i * 37) % 3001;
  double *a = malloc(sizeof(double) * (rp[n] + 1)), *y = malloc(sizeof(double) * 4 * (n + 1));
  if (!a || !y) return 1;
  for (int k = 0; k < rp[n]; k++) a[k] = (double)(k % 17) * 0.25;
  index_before(n, rp, a, y);
  printf("index_before %.17g y[5] %.17g\n", checksum(y, 4 * n), n > 1 ? y[5] : 0.0);
  const_size(n, rp, a, y);
  printf("const_size %.17g y[1] %.17g\n", checksum(y, n), n > 1 ? y[1] : 0.0);
  address_forms(n, rp, a, y);
  printf("address_forms %.17g y[3] %.17g\n", checksum(y, 2 * n), n > 1 ? y[3] : 0.0);
  free(rp), free(a), free(y);
  return 0;
}
