/* A task's own firstprivate/private clause may restate a variable that
 * the parallel around it already makes private or firstprivate (valid
 * OpenMP: the task's clause decides for the task; tphase16 finding 01, once
 * "'k' is already in a 'firstprivate' clause of this construct"). The
 * single assigns the parallel's private m before each task loop, and each
 * task captures the value m has when it is created.
 * The values are integers: the GPU's result equals the CPU build's.
 * Arguments: NB STEPS. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 500, steps = argc > 2 ? atoi(argv[2]) : 4;
  if (nb < 0 || nb > 1000000 || steps < 0 || steps > 100000) return 2;
  long *x = calloc((size_t)nb + 1, sizeof(long));
  char *tok = calloc((size_t)nb + 1, 1);
  int k = 3, m = 0;
#pragma omp target data map(tofrom: x[0:nb+1]) map(alloc: tok[0:nb+1])
#pragma omp parallel firstprivate(k) private(m)
#pragma omp single
  for (int t = 0; t < steps; t++) {
    m = 2 * t + 1;
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: tok[b]) depend(in: tok[b > 0 ? b - 1 : 0]) firstprivate(k, m)
      x[b] = (x[b] * 3 + k * m + b + (b > 0 ? x[b - 1] % 5 : 0)) % 1000003;
    }
  }
  long s = 0;
  for (int b = 0; b < nb; b++) s = (s * 31 + x[b]) % 1000000007L;
  printf("nb %d steps %d: %ld k %d\n", nb, steps, s, k);
  free(x), free(tok);
  return 0;
}
// expect-not-in-cu: runs on the host
// nvcc-quiet
