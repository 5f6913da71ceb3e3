/* Depend items through an index array that a task writes: each round a
 * single task writes perm[] (every block listed twice, as consecutive
 * entries), then one task per entry k updates block perm[k] with
 * depend(inout: u[perm[k]*bs]). The two tasks of one block must run in
 * creation order (their updates do not commute). The depend addresses are
 * evaluated by the host walk, so the host needs perm as the task wrote it:
 * the program has no other host statement that reads perm. The host starts
 * with perm[k] = k (all distinct).
 *
 *   split_indirect_dep [NB [BS [ROUNDS]]]   (defaults 64 2000 6) */
#include <stdio.h>
#include <stdlib.h>

static void checksum(const char *name, const double *x, int n) {
  double s = 0.0, w = 0.0;
  for (int i = 0; i < n; i++) s += x[i], w += x[i] * (double)(i % 10 + 1);
  printf("%s sum %.12e weighted %.12e\n", name, s, w);
}

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 64, bs = argc > 2 ? atoi(argv[2]) : 2000;
  int rounds = argc > 3 ? atoi(argv[3]) : 6;
  if (nb < 1 || bs < 1 || rounds < 0) return 2;
  int n = nb * bs, m = 2 * nb;
  double *u = malloc(sizeof(double) * (size_t)n);
  int *perm = malloc(sizeof(int) * (size_t)m);
  if (!u || !perm) return 1;
  for (int i = 0; i < n; i++) u[i] = (double)(i % 97) * 0.01;
  for (int k = 0; k < m; k++) perm[k] = k % nb;

#pragma omp target data map(tofrom: u[0:n], perm[0:m])
#pragma omp parallel
#pragma omp single
  for (int rd = 0; rd < rounds; rd++) {
#pragma omp task depend(out: perm[0])
    for (int k = 0; k < m; k++) perm[k] = ((k / 2) * 7 + rd) % nb;
#pragma omp taskwait
    for (int k = 0; k < m; k++) {
#pragma omp task depend(inout: u[perm[k]*bs])
      {
        const int lo = perm[k] * bs;
        for (int i = lo; i < lo + bs; i++) u[i] = u[i] * 0.5 + (double)(k % 5 + 1) + 0.001 * (i - lo);
      }
    }
#pragma omp taskwait
  }
  long ps = 0;
  for (int k = 0; k < m; k++) ps += (long)perm[k] * (k + 1);
  printf("perm %ld\n", ps);
  checksum("u", u, n);
  free(u), free(perm);
  return 0;
}
