/* Clause arguments gtcc needs as numbers, written with macros, enumerators
 * and sizeof (probe cidioms9): collapse(NC) was an error, vector_length(VL)
 * and thread_limit(TL) were ignored with a warning, gtcc_threshold(TH) was
 * an error. clang folds them where the directive is, so a macro defined
 * again after #undef has its new value. A `_Pragma` whose string goes on
 * after a backslash-newline was not read as a directive at all (the loop
 * ran on the host without a word). Compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

/* The block sizes and the threshold below, as the .gt.cu must hold them:
 * vector_length(VL) with VL 128; after #undef, VL is 2 * 32; thread_limit
 * 64 + 32; gtcc_threshold 101; the spliced _Pragma's VL / 2. */
// expect-in-cu: __launch_bounds__(128)
// expect-in-cu: __launch_bounds__(64)
// expect-in-cu: __launch_bounds__(96)
// expect-in-cu: gt_itc > 101LL
// expect-in-cu: __launch_bounds__(32)

#define NC 2
#define VL 128
#define TH 100
enum { TL = 64 };

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000, m = 700;
  double *a = malloc(sizeof(double) * (size_t)n * m);
  int *rp = malloc(sizeof(int) * (size_t)(n + 1));
  double *y = malloc(sizeof(double) * (size_t)n);
  if (!a || !rp || !y) return 1;
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 7 == 0 ? m : i % 50); /* rows of 1..49 and of m */

#pragma acc parallel loop collapse(NC) vector_length(VL) copyout(a[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[(size_t)i * m + j] = (i % 13) * 0.5 + j;

#undef VL
#define VL (2 * 32)
#pragma acc parallel loop vector_length(VL) copy(a[0:n*m])
  for (int i = 0; i < n * m; i++) a[i] += 1;

#pragma omp target teams distribute parallel for thread_limit(TL + sizeof(int) * 8) map(tofrom: a[0:n*m])
  for (int i = 0; i < n * m; i++) a[i] *= 2;

  _Pragma("acc parallel loop copy(a[0:n*m]) \
vector_length(VL / 2)")
  for (int i = 0; i < n * m; i++) a[i] -= 0.5;

  /* row i sums rp[i+1]-rp[i] entries of a: rows of m run in the next-level kernel */
#pragma acc parallel loop gtcc_threshold(TH + 1) copyin(rp[0:n+1], a[0:n*m]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0;
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += a[j % (n * m)];
    y[i] = s;
  }

  double sa = 0, sy = 0;
  for (int i = 0; i < n * m; i++) sa += a[i];
  for (int i = 0; i < n; i++) sy += y[i] * (i % 5 + 1);
  printf("a %.6e y %.6e y[7] %.6e\n", sa, sy, y[7]);
  free(a), free(rp), free(y);
  return 0;
}
