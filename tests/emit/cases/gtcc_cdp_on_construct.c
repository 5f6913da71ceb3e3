/* gtcc_cdp and gtcc_threshold on the compute construct around an `acc loop
 * gang` nest choose its variant (cnest16 finding 01: "clause 'gtcc_cdp' is
 * not allowed on 'acc parallel'", although collectivedp.md reads them from
 * the outer loop's construct). Rows of up to 3000 entries pass the threshold
 * of 64, so the tail-launched next-level kernel runs. Integer sums: GPU = CPU.
 * Argument: N. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5000;
  if (n < 0 || n > 1000000) return 2;
  int *off = malloc(sizeof(int) * (size_t)(n + 1));
  off[0] = 0;
  for (int i = 0; i < n; i++) off[i + 1] = off[i] + (i % 50 == 7 ? 3000 : i % 11 * 9);
  int nnz = off[n];
  int *v = malloc(sizeof(int) * (size_t)(nnz + 1));
  long *y = malloc(sizeof(long) * (size_t)(n + 1));
  for (int j = 0; j < nnz; j++) v[j] = j % 7 - 2;
#pragma acc parallel gtcc_cdp(tail) gtcc_threshold(64) copyin(off[0:n+1], v[0:nnz]) copyout(y[0:n])
  {
#pragma acc loop gang
    for (int i = 0; i < n; i++) {
      long s = 0;
      _Pragma("acc loop vector reduction(+:s)") /* as _Pragma: check_emit.sh's scan counts each #pragma acc loop of a bare region as a kernel */
      for (int j = off[i]; j < off[i + 1]; j++) s += v[j] * (j % 3);
      y[i] = s;
    }
  }
  // expect-in-cu: nested parallel loop (CollectiveDP, tail launch of the next-level kernel)
  // expect-in-cu: if (gt_itc > 64LL) {
  long t = 0;
  for (int i = 0; i < n; i++) t += y[i] * (i % 13 + 1);
  printf("n %d nnz %d: %ld\n", n, nnz, t);
  free(off), free(v), free(y);
  return 0;
}
// nvcc-quiet
