/* The Needleman-Wunsch recurrence on a flat array, H[i*w + j]: gtcc cannot
 * prove the rows apart at compile time, so the host inspector builds the
 * task graph at run time (docs/tasks.md).
 *   flat_index [N [M]]   prints the score and a checksum. */
#include <stdio.h>
#include <stdlib.h>

static int best(int a, int b, int c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 600, m = argc > 2 ? atoi(argv[2]) : 500;
  int w = m + 1;
  int *H = malloc(sizeof(int) * (size_t)(n + 1) * (size_t)w);
  char *a = malloc((size_t)n + 1), *b = malloc((size_t)m + 1);
  for (int i = 0; i < n; i++) a[i] = "ACGT"[(i * i + 3 * i) % 4];
  for (int j = 0; j < m; j++) b[j] = "ACGT"[(j * 5 + j / 3) % 4];
  for (int i = 0; i <= n; i++) H[i * w] = -2 * i;
  for (int j = 0; j <= m; j++) H[j] = -2 * j;
#pragma omp target data map(tofrom: H[0:(n+1)*w]) map(to: a[0:n+1], b[0:m+1])
#pragma omp parallel
#pragma omp single
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= m; j++) {
#pragma omp task depend(in: H[(i-1)*w + j-1], H[(i-1)*w + j], H[i*w + j-1]) depend(out: H[i*w + j])
      H[i * w + j] = best(H[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? 3 : -1), H[(i - 1) * w + j] - 2,
                          H[i * w + j - 1] - 2);
    }
  long long sum = 0;
  for (int i = 0; i <= n; i++)
    for (int j = 0; j <= m; j++) sum += (long long)H[i * w + j] * ((i + j) % 13 + 1);
  printf("score %d checksum %lld\n", H[n * w + m], sum);
  return 0;
}
