/* Before locals that are pointers with qualifiers of their own
 * (`const double *const restrict wv`, `int *restrict const c`) are saved
 * in the CollectiveDP context without them: a const field made nvcc reject
 * the parent kernel (found by a probe; plain `*const` worked). Compared
 * with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 30000;
  if (n < 1 || n > (1L << 22)) return 2;
  long *rp = malloc(sizeof(long) * (size_t)(n + 1));
  long nnz = 0;
  for (long i = 0; i < n; i++) rp[i] = nnz, nnz += (i % 997 == 3) ? 9000 : i % 9;
  rp[n] = nnz;
  int *adj = malloc(sizeof(int) * (size_t)(nnz + 1));
  double *w = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
  int *cnt = calloc((size_t)n, sizeof(int));
  for (long k = 0; k < nnz; k++) adj[k] = (int)((k * 7919) % n);
  for (long i = 0; i < n; i++) w[i] = (double)(i % 5);
#pragma acc parallel loop copyin(rp[0:n+1], adj[0:nnz], w[0:n]) copyout(y[0:n]) copy(cnt[0:n]) // expect-in-cu: nested parallel loop (CollectiveDP
  for (long v = 0; v < n; v++) {
    const double *const restrict wv = w + 0;
    int *restrict const c = cnt + v;
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (long k = rp[v]; k < rp[v + 1]; k++) s += wv[adj[k]];
    y[v] = s;
    *c += 1;
  }
  double t = 0;
  long m = 0;
  for (long i = 0; i < n; i++) t += y[i] * (double)(i % 7), m += cnt[i];
  printf("n %ld: %.1f %ld\n", n, t, m);
  free(rp), free(adj), free(w), free(y), free(cnt);
  return 0;
}
