/* Needleman-Wunsch global alignment score, one OpenMP task per cell.
 *
 *   wavefront [N [M]]      sequences of N and M letters (default 3000 2000)
 *
 * Cell (i,j) needs its upper, left and upper-left neighbours; the depend
 * clauses say exactly that, so the tasks sweep the matrix as a wavefront.
 * gtcc runs all of them in one persistent GPU kernel (docs/tasks.md); the
 * plain C build (pragmas ignored) runs them in program order. Prints the
 * score and a checksum of the whole matrix. */
#include <stdio.h>
#include <stdlib.h>

enum { MATCH = 2, MISMATCH = -1, GAP = 1 };

static int max3(int a, int b, int c) {
  int m = a > b ? a : b;
  return m > c ? m : c;
}

/* One cell of the recurrence. */
static int nw_cell(int m, int (*H)[m + 1], const char *a, const char *b, int i, int j) {
  int s = a[i - 1] == b[j - 1] ? MATCH : MISMATCH;
  return max3(H[i - 1][j - 1] + s, H[i - 1][j] - GAP, H[i][j - 1] - GAP);
}

static void random_sequence(char *s, int n, unsigned seed) {
  for (int i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    s[i] = "ACGT"[(seed >> 16) & 3];
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3000, m = argc > 2 ? atoi(argv[2]) : 2000;
  if (n < 0 || m < 0) {
    fprintf(stderr, "usage: wavefront [N [M]] with N, M >= 0\n");
    return 2;
  }
  char *a = malloc((size_t)n + 1), *b = malloc((size_t)m + 1);
  int (*H)[m + 1] = malloc(sizeof(int) * (size_t)(n + 1) * (size_t)(m + 1));
  if (!a || !b || !H) {
    fprintf(stderr, "wavefront: out of memory\n");
    return 1;
  }
  random_sequence(a, n, 1);
  random_sequence(b, m, 2);
  for (int i = 0; i <= n; i++) H[i][0] = -i * GAP;
  for (int j = 0; j <= m; j++) H[0][j] = -j * GAP;

#pragma omp target data map(tofrom: H[0:n+1][0:m+1]) map(to: a[0:n+1], b[0:m+1])
  {
#pragma omp parallel
#pragma omp single
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= m; j++) {
#pragma omp task depend(in: H[i-1][j-1], H[i-1][j], H[i][j-1]) depend(out: H[i][j])
        H[i][j] = nw_cell(m, H, a, b, i, j);
      }
  }

  long long sum = 0;
  for (int i = 0; i <= n; i++)
    for (int j = 0; j <= m; j++) sum += (long long)H[i][j] * (1 + (i * 31 + j * 17) % 101);
  printf("n %d m %d score %d checksum %lld\n", n, m, H[n][m], sum);
  free(a), free(b), free(H);
  return 0;
}
