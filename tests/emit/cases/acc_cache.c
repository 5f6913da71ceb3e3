/* acc cache: a placement hint at the top of a loop body (also in an acc
 * routine and with readonly). gtcc accepts it and leaves placement to the
 * hardware caches, so results equal the CPU build's; the directive must
 * not reach nvcc or cc as code. A 3-point average and a nested row sum. */
#include <stdio.h>
#include <stdlib.h>

#pragma acc routine seq
static double avg3(const double *a, int i) {
#pragma acc cache(a[i-1:3])
  return (a[i - 1] + a[i] + a[i + 1]) / 3.0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  if (n < 3) n = 3;
  double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n);
  int *rp = malloc(sizeof(int) * ((size_t)n + 1));
  for (int i = 0; i < n; i++) a[i] = (double)(i % 17), b[i] = 0.0;
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 97 == 0 ? 3000 : i % 5);
  int nnz = rp[n];
  double *v = malloc(sizeof(double) * (size_t)(nnz > 0 ? nnz : 1)), *y = malloc(sizeof(double) * (size_t)n);
  for (int j = 0; j < nnz; j++) v[j] = (double)(j % 13);
#pragma acc data copyin(a[0:n], rp[0:n+1], v[0:nnz]) copy(b[0:n]) copyout(y[0:n])
  {
#pragma acc parallel loop // expect-in-cu: directive handled by gtcc
    for (int i = 1; i < n - 1; i++) {
#pragma acc cache(readonly: a[i-1:3])
      b[i] = avg3(a, i);
    }
#pragma acc parallel loop // expect-in-cu: nested parallel loop (CollectiveDP
    for (int i = 0; i < n; i++) {
      double s = 0.0;
#pragma acc loop reduction(+:s)
      for (int j = rp[i]; j < rp[i + 1]; j++) {
#pragma acc cache(v[j:1])
        s += v[j];
      }
      y[i] = s;
    }
  }
  double sb = 0.0, sy = 0.0;
  for (int i = 0; i < n; i++) sb += b[i], sy += y[i];
  printf("n %d nnz %d avg %.6f rows %.1f\n", n, nnz, sb, sy);
  return 0;
}
