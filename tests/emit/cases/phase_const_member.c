/* A phased task region (a time loop around a task loop) whose tasks read a
 * struct declared in the loop, of a type with a const member (found by the
 * probe package tphase17): the host walk copies it into the task type's
 * snapshot, which C cannot do by assignment (`gt_s.c = c;` is "assignment
 * of read-only member"), so it copies the bytes. A second struct, const
 * itself, takes the same path. Compared with the CPU build.
 * Arguments: NB STEPS. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  const int n;
  long add;
} Cfg;

struct limits {
  const long lo, hi;
};

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 4000;
  int steps = argc > 2 ? atoi(argv[2]) : 50;
  if (nb < 0 || nb > 10000000 || steps < 0) return 2;
  long *a = calloc((size_t)nb + 1, sizeof(long));
  for (int b = 0; b <= nb; b++) a[b] = b % 17;
#pragma omp target data map(tofrom: a[0:nb+1])
#pragma omp parallel
#pragma omp single
  {
    for (int t = 0; t < steps; t++) {
      Cfg c = {nb % 1000, t * 7 + 1};
      const struct limits lim = {-(long)t * 1000, (long)t * 1000 + 999};
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: a[b])
        {
          long v = (a[b] * 3 + c.add + c.n) % 1000003;
          a[b] = v < lim.lo ? lim.lo : v > lim.hi ? lim.hi : v;
        }
      }
#pragma omp taskwait
    }
  }
  // expect-not-in-cu: runs sequentially
  long s = 0;
  for (int i = 0; i <= nb; i++) s = (s * 3 + a[i]) % 1000000007;
  printf("nb %d steps %d: %ld\n", nb, steps, s);
  free(a);
  return 0;
}
// nvcc-quiet
