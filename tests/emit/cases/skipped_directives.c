/* Directives that the C compiler never sees must not be lowered, and
 * directives that macros carry are not lowered (gtcc warns).
 *
 * - `#if 0` and `#ifdef _OPENACC` (gtcc does not define _OPENACC) hide a
 *   `parallel loop` over a prefix sum: gtcc lowered them once, and the
 *   loop-carried dependence then gave a wrong sum on the GPU.
 * - `#if 1 ... #else` and `#ifdef _OPENACC ... #else` pick one of two
 *   directives for one loop: the replacement of the loop keeps the `#else`
 *   branch and the `#endif` (cc once saw an unterminated #if).
 * - PFOR, a `_Pragma("omp parallel for")` macro, sits on the inner loop of a
 *   parallel loop: ignored there, the inner loop runs sequentially in each
 *   row (gtcc warns at the macro).
 * - a skipped block between a directive and its loop (`#if 0` / not C /
 *   `#endif`): gtcc said the directive "must be followed by a statement";
 * - a single task of a phased region whose directive sits in `#if 1` ...
 *   `#endif`: the host walk dropped the #endif.
 * The output is compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

#define PFOR _Pragma("omp parallel for")

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000, m = 2000, w = 64;
  double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n);
  double *rows = malloc(sizeof(double) * (size_t)m);
  if (!a || !b || !rows) return 1;
  for (long i = 0; i < n; i++) a[i] = 1.0 + (double)(i % 7) * 0.25;

#if 0
#pragma acc parallel loop copy(a[0:n])
#endif
  for (long i = 1; i < n; i++) a[i] = 0.5 * a[i - 1] + a[i];

#ifdef _OPENACC
#pragma acc parallel loop copy(a[0:n])
#endif
  for (long i = 1; i < n; i++) a[i] += 0.25 * a[i - 1];

#if 1
#pragma acc parallel loop copyin(a[0:n]) copyout(b[0:n])
#else
#pragma acc parallel loop copy(b[0:n])
#endif
  for (long i = 0; i < n; i++) b[i] = 2.0 * a[i] - 1.0;

#ifdef _OPENACC
#pragma acc parallel loop copy(b[0:n])
#else
#pragma omp target teams distribute parallel for map(tofrom: b[0:n])
#endif
  for (long i = 0; i < n; i++) b[i] = b[i] * b[i] + 0.5;

#pragma acc parallel loop copyin(b[0:n]) copyout(rows[0:m])
  for (long r = 0; r < m; r++) {
    double s = 0.0;
    PFOR
    for (long k = 0; k < w; k++) s += b[(r * w + k) % n] * (double)(k + 1);
    rows[r] = s;
  }

#pragma acc parallel loop copy(b[0:n])
#if 0
  this is not C {
#endif
  for (long i = 0; i < n; i++) b[i] = b[i] * 0.5 + (double)(i & 7);

  double tot[4] = {0.0, 0.0, 0.0, 0.0};
#pragma omp target data map(tofrom: b[0:n], tot[0:4])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < 4; t++) {
    for (long q = 0; q < 8; q++) {
#pragma omp task depend(inout: b[q * (n / 8)])
      for (long i = q * (n / 8); i < (q + 1) * (n / 8); i++) b[i] += 0.125 * (double)t;
    }
#pragma omp taskwait
#if 1
#pragma omp task depend(in: b[0]) depend(out: tot[t])
#endif
    {
      double s = 0.0;
      for (long i = 0; i < n; i += 97) s += b[i];
      tot[t] = s;
    }
#pragma omp taskwait
  }
  printf("tot %.12e %.12e\n", tot[0], tot[3]);

  double sa = 0.0, sb = 0.0, sr = 0.0;
  for (long i = 0; i < n; i++) sa += a[i] * (double)(i % 13 + 1), sb += b[i];
  for (long r = 0; r < m; r++) sr += rows[r];
  printf("a %.12e %.12e\nb %.12e\nrows %.12e %.12e\n", sa, a[n - 1], sb, sr, rows[m / 2]);
  free(a), free(b), free(rows);
  return 0;
}
