/* After (the outer body's code after the inner loop) reads what the inner
 * parallel loop wrote, in every CollectiveDP tier: the parent thread
 * (<= 8 iterations), the warp-flat tier (<= 32), the warp tier (<= 2048),
 * the next-level kernel (one chunk, and several chunks of 32768 run by
 * different blocks). gtcc once ran After in one thread with no barrier:
 * it could read elements other threads had not written yet.
 *
 *   nested_after [N]     (default 20000 rows)
 *
 * Part 1: the inner loop (no reduction) writes dst[j]; After reads the
 * row's first and last element and bumps the first. Part 2: the same with
 * a reduction, and a variable private to the inner loop (t) that After
 * uses too. Part 3: a pointer to a Before local. Prints checksums. */
#include <stdio.h>
#include <stdlib.h>

static long long row_len(int i) {
  if (i % 4999 == 7) return 70001; /* several NLK chunks */
  if (i % 331 == 5) return 3000;   /* one NLK item */
  if (i % 53 == 1) return 700;     /* warp tier */
  if (i % 5 == 0) return 20;       /* warp-flat tier */
  return i % 9;                    /* the thread itself, some empty */
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000;
  if (argc > 2 || n < 0) {
    fprintf(stderr, "usage: nested_after [N]\n");
    return 2;
  }
  int *rp = malloc(sizeof(int) * ((size_t)n + 1));
  if (!rp) return 1;
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (int)row_len(i);
  int nnz = rp[n];
  double *src = malloc(sizeof(double) * ((size_t)nnz + 1)), *dst = malloc(sizeof(double) * ((size_t)nnz + 1));
  double *y = malloc(sizeof(double) * ((size_t)n + 1)), *z = malloc(sizeof(double) * ((size_t)n + 1));
  if (!src || !dst || !y || !z) return 1;
  for (int k = 0; k < nnz; k++) src[k] = (double)(k % 7) - 2.5, dst[k] = 0.0;

#pragma acc parallel loop copyin(rp[0:n+1], src[0:nnz]) copy(dst[0:nnz]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    int lo = rp[i], hi = rp[i + 1];
#pragma acc loop
    for (int j = lo; j < hi; j++) dst[j] = src[j] * 2.0 + 1.0;
    if (hi > lo) dst[lo] += 100.0;
    y[i] = hi > lo ? dst[lo] + 2.0 * dst[hi - 1] : -1.0;
  }

#pragma omp target teams distribute parallel for map(to: rp[0:n+1], src[0:nnz]) map(tofrom: dst[0:nnz]) map(from: z[0:n])
  for (int i = 0; i < n; i++) {
    int lo = rp[i], hi = rp[i + 1];
    double s = 0.0, t = 0.5;
#pragma omp parallel for reduction(+:s) private(t)
    for (int j = lo; j < hi; j++) {
      t = src[j] * 0.25;
      dst[j] = t - 1.0;
      s += t;
    }
    t = s * 0.5 + (hi > lo ? dst[hi - 1] : 0.0);
    z[i] = t + (hi > lo ? dst[lo] : 0.0);
  }

  /* Part 3: the inner loop reads a Before local through a pointer (&wa):
   * the next-level kernel cannot reach the parent thread's locals, so gtcc
   * keeps this inner loop sequential (it once read another stack). */
#pragma acc parallel loop copyin(rp[0:n+1], src[0:nnz]) copy(y[0:n])
  for (int i = 0; i < n; i++) {
    double wa = 1.0 + i % 3, wb = 2.0;
    const double *w = (i & 1) ? &wa : &wb;
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += src[j] * *w;
    y[i] += s;
  }

  double sy = 0, sz = 0, sd = 0;
  for (int i = 0; i < n; i++) sy += y[i] * (1 + i % 5), sz += z[i] * (1 + i % 3);
  for (int k = 0; k < nnz; k++) sd += dst[k] * (1 + k % 3);
  printf("nested_after n %d nnz %d\n", n, nnz);
  printf("y %.12g z %.12g dst %.12g\n", sy, sz, sd);
  printf("y[7] %.12g z[7] %.12g y[5] %.12g\n", n > 7 ? y[7] : 0.0, n > 7 ? z[7] : 0.0, n > 5 ? y[5] : 0.0);
  free(rp), free(src), free(dst), free(y), free(z);
  return 0;
}
