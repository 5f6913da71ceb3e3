/* A loop around a task whose condition is `!=` is not in canonical form, so
 * it is no task loop nest: it stays host code, and the host walk records
 * each iteration's task on its own (a chain through depend here). The
 * result is that of the CPU build; the note says why the loop costs more
 * than `i < n + 1` would. Argument: N. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5000;
  if (n < 0 || n > 1000000) return 2;
  long *x = calloc((size_t)n + 1, sizeof(long));
#pragma omp target data map(tofrom: x[0:n+1])
#pragma omp parallel
#pragma omp single
  for (int i = 1; i != n + 1; i++) { // expect-in-cu: the for loop at line 16 around it is host code, not a task loop nest
#pragma omp task depend(in: x[i-1]) depend(out: x[i])
    x[i] = x[i - 1] % 1000003 + i;
  }
  long s = 0;
  for (int i = 0; i <= n; i++) s += x[i] % 7;
  printf("n %d: %ld %ld\n", n, x[n], s);
  free(x);
  return 0;
}
