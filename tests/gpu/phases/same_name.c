/* Snapshot variables of the same name in sibling scopes: two blocks of the
 * time loop each declare `long c` and `long *q` and their task loops read
 * them, so the snapshot of the region holds four different variables with
 * two names (gtcc once emitted two `long c;` fields: the host compile
 * failed with "duplicate member"). Each stage must read its own c and q.
 *
 *   same_name [N [BS [STEPS]]]     (defaults 4096 64 6)
 *
 * Prints a weighted checksum of a and b and one element of each. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096, bs = argc > 2 ? atoi(argv[2]) : 64;
  int steps = argc > 3 ? atoi(argv[3]) : 6;
  if (argc > 4 || n < 0 || bs < 1 || steps < 0) {
    fprintf(stderr, "usage: same_name [N [BS [STEPS]]]\n");
    return 2;
  }
  int nb = (n + bs - 1) / bs;
  long *a = malloc(sizeof(long) * (size_t)(n + 1)), *b = malloc(sizeof(long) * (size_t)(n + 1));
  if (!a || !b) return 1;
  for (int i = 0; i < n; i++) a[i] = i % 17, b[i] = (i * 5) % 23;

#pragma omp target data map(tofrom: a[0:n+1], b[0:n+1])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    {
      long c = 3 * t + 1;
      long *q = t % 2 ? b : a; /* q: the array this stage writes */
      for (int k = 0; k < nb; k++) {
#pragma omp task depend(inout: q[k * bs])
        for (int i = k * bs; i < (k + 1) * bs && i < n; i++) q[i] = (q[i] * 3 + c) % 1000003;
      }
    }
#pragma omp taskwait
    {
      long c = 5 * t + 2;
      long *q = t % 2 ? a : b; /* the other one */
      for (int k = 0; k < nb; k++) {
#pragma omp task depend(inout: q[k * bs])
        for (int i = k * bs; i < (k + 1) * bs && i < n; i++) q[i] = (q[i] ^ c) % 1000003 + c;
      }
    }
#pragma omp taskwait
  }

  long long s = 0;
  for (int i = 0; i < n; i++) s += (long long)a[i] * (i % 7 + 1) + (long long)b[i] * (i % 5 + 2);
  printf("same_name n %d bs %d steps %d\n", n, bs, steps);
  printf("checksum %lld\n", s);
  if (n > 0) printf("a[0] %ld b[n-1] %ld\n", a[0], b[n - 1]);
  free(a), free(b);
  return 0;
}
