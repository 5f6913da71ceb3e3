// expect: 22:15: error: 'total' is updated atomically by the tasks (first used at line 18) and used by the region's host code here
// Host code of a task region that reads a scalar the tasks update
// atomically after a taskwait would read a stale copy (the scalar stays on
// the device until the region ends): an error that says to use a mapped
// array element (probe atomics11).
#include <stdlib.h>
void f(int nb, int steps, long long *snap) {
  long long total = 0;
  char *tok = calloc(nb, 1);
#pragma omp target data map(tofrom: tok[0:nb], snap[0:steps])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: tok[b])
      {
#pragma omp atomic
        total += b + t;
      }
    }
#pragma omp taskwait
    snap[t] = total;
  }
  free(tok);
}
