/* firstprivate(q) on tasks, q a pointer that the region's host code moves
 * between task creations: each task must see q as it was at its creation
 * (gtcc once rejected the clause as a "firstprivate array"). Compared with
 * the cc build by run_gpu_tests.sh and tests/fallback. */
#include <stdio.h>
#include <stdlib.h>

enum { N = 1 << 16, W = 64, T = N / W };

int main(void) {
  double *buf = malloc(sizeof(double) * N), *out = calloc(T, sizeof(double));
  for (int i = 0; i < N; i++) buf[i] = (double)((i * 37) % 101) - 50.0;
#pragma omp target data map(to: buf[0:N]) map(tofrom: out[0:T])
#pragma omp parallel
#pragma omp single
  {
    const double *q = buf;
    for (int t = 0; t < T; t++) {
#pragma omp task firstprivate(q) depend(out: out[t])
      {
        double s = 0;
        for (int k = 0; k < W; k++) s += q[k] * (double)(k + 1);
        out[t] = s;
      }
      q = q + W; /* the next task's window */
    }
  }
  double sum = 0, wsum = 0;
  for (int t = 0; t < T; t++) sum += out[t], wsum += out[t] * (double)(t % 7);
  printf("fp_pointer %d tasks: sum %.17g wsum %.17g out[0] %.17g out[last] %.17g\n", T, sum, wsum, out[0], out[T - 1]);
  free(buf);
  free(out);
  return 0;
}
