/* Depend items that call functions reaching no memory (a static helper of
 * this file, a library abs) are computed by the host walk without
 * splitting the region (tphase16 finding 02: `tok[imax(b - 1, 0)]` once
 * split it every step, as if it read memory); one megakernel runs every
 * step. An item read through a pointer (`tok[*first]`) does read memory:
 * that region still splits, with the note. GPU = CPU build.
 * Arguments: NB BS STEPS. */
#include <stdio.h>
#include <stdlib.h>

static inline int imax(int a, int b) { return a > b ? a : b; }
static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : imax(v, lo); }

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 100, bs = argc > 2 ? atoi(argv[2]) : 64, steps = argc > 3 ? atoi(argv[3]) : 4;
  if (nb < 1 || bs < 1 || steps < 0 || (long)nb * bs > 100000000L) return 2;
  int n = nb * bs, first = 0;
  int *pfirst = &first;
  long *x = calloc((size_t)n + 1, sizeof(long));
  char *tok = calloc((size_t)nb + 1, 1);
#pragma omp target data map(tofrom: x[0:n+1]) map(alloc: tok[0:nb+1])
  {
#pragma omp parallel
#pragma omp single
    for (int t = 0; t < steps; t++) {
      int lo = imax(t - 1, 0);
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: tok[imax(b - 1, 0)], tok[clampi(abs(b - 2), 0, nb - 1)]) depend(inout: tok[b])
        for (int i = b * bs; i < (b + 1) * bs; i++) x[i] += (i > 0 ? x[i - 1] % 7 : 1) + lo;
      }
    }
    // expect-in-cu: phase_pure_call_item.c:23: 1 task type, 0 taskwaits, 0 taskgroups, one megakernel over all phases

#pragma omp parallel
#pragma omp single
    for (int t = 0; t < steps; t++) {
      for (int b = 1; b < nb; b++) {
#pragma omp task depend(in: tok[*pfirst]) depend(inout: tok[b])
        for (int i = b * bs; i < (b + 1) * bs; i++) x[i] = (x[i] * 3 + x[i % bs] % 11) % 1000003;
      }
#pragma omp taskwait
    }
  }
  // expect-in-cu: the depend item tok[*pfirst]
  long s = 0;
  for (int i = 0; i < n; i++) s = (s * 31 + x[i]) % 1000000007L;
  printf("nb %d bs %d steps %d: %ld\n", nb, bs, steps, s);
  free(x), free(tok);
  return 0;
}
// nvcc-quiet
