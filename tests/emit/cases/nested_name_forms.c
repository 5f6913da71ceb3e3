// expect-in-cu: nested_name_forms.c:31: nested parallel loop (CollectiveDP
// expect-in-cu: nested_name_forms.c:42: nested parallel loop (CollectiveDP
// expect-in-cu: nested_name_forms.c:53: nested parallel loop (CollectiveDP
// expect-in-cu: nested_name_forms.c:66: nested parallel loop (CollectiveDP
// expect-in-cu: nested_name_forms.c:79: nested parallel loop (CollectiveDP
/* Names in nested parallel loops that once stopped nvcc: the inner loop's
 * index named like the outer index (`for (int i ...)` inside the `i` loop)
 * or like a local of the outer body that After reads again, a typedef the
 * outer body declares and the context uses, private variables of the outer
 * loop that only the outer body uses, and blocks of 32 threads (the
 * parent's __launch_bounds__ minimum is capped at 32 blocks per SM). Rows of
 * 0..3000 entries reach the inline, warp and next-level paths; values are
 * multiples of 1/4, so every sum is exact. Compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

static int *row_ptr(int n) {
  int *rp = malloc(sizeof(int) * (size_t)(n + 1));
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 97 == 0 ? 3000 : i % 89 == 0 ? 300 : i % 7);
  return rp;
}

static double checksum(const double *y, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += y[i] * (double)(1 + i % 5);
  return s;
}

static void same_index(int n, int m, const int *rp, const double *v, double *y) {
#pragma acc parallel loop copyin(rp[0:n+1], v[0:m]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    int lo = rp[i], hi = rp[i + 1];
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int i = lo; i < hi; i++) s += v[i];
    y[i] = s;
  }
}

static void index_like_local(int n, int m, const int *rp, const double *v, double *y) {
#pragma omp target teams distribute map(to: rp[0:n+1], v[0:m]) map(from: y[0:n])
  for (int i = 0; i < n; i++) {
    int j = i % 4;
    double s = 0.0;
#pragma omp parallel for reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += v[j];
    y[i] = s + j;
  }
}

static void local_typedef(int n, int m, const int *rp, const double *v, double *y) {
#pragma acc parallel loop copyin(rp[0:n+1], v[0:m]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    typedef long long acc_t;
    acc_t s = 0;
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += (acc_t)(v[j] * 4.0);
    y[i] = (double)s / 4.0;
  }
}

static void outer_private(int n, int m, const int *rp, const double *v, double *y) {
  long k;
  int tmp[2];
#pragma omp target teams distribute parallel for map(to: rp[0:n+1], v[0:m]) map(from: y[0:n]) private(k, tmp)
  for (int i = 0; i < n; i++) {
    k = rp[i + 1];
    tmp[0] = rp[i], tmp[1] = (int)k;
    int lo = tmp[0], hi = tmp[1];
    double s = 0.0;
#pragma omp parallel for reduction(+:s)
    for (int j = lo; j < hi; j++) s += v[j];
    y[i] = s;
  }
}

static void small_blocks(int n, int m, const int *rp, const double *v, double *y) {
#pragma acc parallel loop vector_length(32) copyin(rp[0:n+1], v[0:m]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += v[j] * 0.5;
    y[i] = s;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200000;
  int *rp = row_ptr(n);
  int m = rp[n];
  double *v = malloc(sizeof(double) * (size_t)(m > 0 ? m : 1)), *y = malloc(sizeof(double) * (size_t)n);
  for (int k = 0; k < m; k++) v[k] = 0.25 * (double)(k % 13);
  same_index(n, m, rp, v, y);
  printf("same_index %.2f\n", checksum(y, n));
  index_like_local(n, m, rp, v, y);
  printf("index_like_local %.2f\n", checksum(y, n));
  local_typedef(n, m, rp, v, y);
  printf("local_typedef %.2f\n", checksum(y, n));
  outer_private(n, m, rp, v, y);
  printf("outer_private %.2f\n", checksum(y, n));
  small_blocks(n, m, rp, v, y);
  printf("small_blocks %.2f\n", checksum(y, n));
  free(rp), free(v), free(y);
  return 0;
}
