/* A single task loop nest (the compile-time task path) over arrays named W
 * and B: the megakernel's template parameter was W and the task body is
 * copied into it (nvcc: template parameter "W" may not be redeclared).
 * Also its loop variables declared before the region: after it the host
 * has what the source loops leave (i == N + 1, j == M + 1), as the CPU
 * build does.
 *
 *   user_w_b [N [M]]     (defaults 300 200)
 *
 * Prints a checksum of W, B and the loop variables. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 300, m = argc > 2 ? atoi(argv[2]) : 200;
  if (argc > 3 || n < 0 || m < 0) {
    fprintf(stderr, "usage: user_w_b [N [M]]\n");
    return 2;
  }
  long *W = calloc((size_t)n + 1, sizeof(long)), (*B)[m + 1] = calloc((size_t)(n + 1) * (size_t)(m + 1), sizeof(long));
  if (!W || !B) return 1;
  for (int x = 0; x <= m; x++) B[0][x] = x % 5;
  int b = -1, i = -2, j = -3;

#pragma omp target data map(tofrom: W[0:n+1])
#pragma omp parallel
#pragma omp single
  for (b = 1; b <= n; b++) {
#pragma omp task depend(in: W[b-1]) depend(out: W[b])
    W[b] = (W[b - 1] * 3 + b) % 1000003;
  }

#pragma omp target data map(tofrom: B[0:n+1][0:m+1])
#pragma omp parallel
#pragma omp single
  for (i = 1; i <= n; i++)
    for (j = 1; j <= m; j += 2) {
#pragma omp task depend(in: B[i-1][j]) depend(out: B[i][j])
      B[i][j] = (B[i - 1][j] * 7 + i + j) % 1000003;
    }

  long long s = 0;
  for (int x = 0; x <= n; x++)
    for (int y = 0; y <= m; y++) s += B[x][y] * ((x + 2 * y) % 9 + 1);
  printf("user_w_b n %d m %d\n", n, m);
  printf("W[n] %ld checksum %lld\n", W[n], s);
  printf("b %d i %d j %d\n", b, i, j);
  free(W), free(B);
  return 0;
}
