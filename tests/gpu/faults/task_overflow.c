/* More ready tasks than the queue holds: 100000 independent tasks with the
 * queue capacity lowered to 16 entries (GTRT_TASK_QUEUE_CAPACITY) and one
 * task per iteration. The runtime must report the overflow, naming the
 * region, instead of dropping or overwriting tasks. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  setenv("GTRT_TASK_QUEUE_CAPACITY", "16", 1);
  int n = 100000;
  double *x = calloc((size_t)n, sizeof *x);
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
#pragma omp task depend(out: x[i])
    x[i] = i * 0.5;
  }
  printf("%g\n", x[n - 1]);
  return 0;
}
