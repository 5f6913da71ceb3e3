/* Stress: random task graphs through indirect depend items. Round r draws,
 * for each of T tasks, two addresses it reads and one it writes among K
 * cells (few cells: long chains; many: wide graphs); each task writes a
 * value mixed from what it reads. The inspector orders them; any ordering
 * mistake changes the checksum.
 *   random_dag [ROUNDS [T]]   prints one checksum per round. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 40, T = argc > 2 ? atoi(argv[2]) : 20000;
  int *r1 = malloc(sizeof(int) * (size_t)T), *r2 = malloc(sizeof(int) * (size_t)T), *wr = malloc(sizeof(int) * (size_t)T);
  long long *X = malloc(sizeof(long long) * 100000);
  unsigned s = 12345;
  for (int r = 0; r < rounds; r++) {
    int K = r % 4 == 0 ? 3 : r % 4 == 1 ? 64 : r % 4 == 2 ? 4096 : 100000;
    for (int t = 0; t < T; t++) {
      r1[t] = (int)((s = s * 1103515245u + 12345u) >> 8) % K;
      r2[t] = (int)((s = s * 1103515245u + 12345u) >> 8) % K;
      wr[t] = (int)((s = s * 1103515245u + 12345u) >> 8) % K;
    }
    for (int k = 0; k < K; k++) X[k] = k;
#pragma omp target data map(tofrom: X[0:K]) map(to: r1[0:T], r2[0:T], wr[0:T])
#pragma omp parallel
#pragma omp single
    for (int t = 0; t < T; t++) {
#pragma omp task depend(in: X[r1[t]], X[r2[t]]) depend(inout: X[wr[t]])
      X[wr[t]] = (X[wr[t]] * 3 + X[r1[t]] * 5 + X[r2[t]] + t) % 1000000007LL;
    }
    long long sum = 0;
    for (int k = 0; k < K; k++) sum = (sum * 131 + X[k]) % 1000000009LL;
    printf("round %d K %d checksum %lld\n", r, K, sum);
  }
  return 0;
}
