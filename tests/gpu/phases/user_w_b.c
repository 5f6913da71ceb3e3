/* User variables named W and B in a phased region: the megakernel's
 * template parameters were W and B, and the task bodies are copied into it
 * (nvcc: template parameter "W" may not be redeclared in this scope).
 *
 *   user_w_b [NB [BS [STEPS]]]     (defaults 64 64 5)
 *
 * Prints a weighted checksum of W and B. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 64, bs = argc > 2 ? atoi(argv[2]) : 64;
  int steps = argc > 3 ? atoi(argv[3]) : 5;
  if (argc > 4 || nb < 1 || bs < 1 || steps < 0) {
    fprintf(stderr, "usage: user_w_b [NB [BS [STEPS]]]\n");
    return 2;
  }
  int n = nb * bs;
  long *W = calloc((size_t)n, sizeof(long)), *B = calloc((size_t)n, sizeof(long));
  if (!W || !B) return 1;

#pragma omp target data map(tofrom: W[0:n], B[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: W[b * bs])
      for (int i = b * bs; i < (b + 1) * bs; i++) W[i] = (W[i] * 3 + t + i) % 1000003;
    }
#pragma omp taskwait
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: W[b * bs]) depend(inout: B[b * bs])
      {
#pragma omp parallel for
        for (int i = b * bs; i < (b + 1) * bs; i++) B[i] += W[i] + b;
      }
    }
#pragma omp taskwait
  }

  long long s = 0;
  for (int i = 0; i < n; i++) s += W[i] * (i % 7 + 1) + B[i] * (i % 3 + 1);
  printf("user_w_b nb %d bs %d steps %d\n", nb, bs, steps);
  printf("checksum %lld W[n-1] %ld B[n-1] %ld\n", s, W[n - 1], B[n - 1]);
  free(W), free(B);
  return 0;
}
