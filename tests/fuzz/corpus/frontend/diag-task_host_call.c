// expect: 12:5: error: call to 'printf' between tasks is not supported: gtcc runs the host code of a task region before its tasks, so it may only compute scalars and pointer values (move it into a task, or after the region)
#include <stdio.h>
void f(int n, int steps, double *x) {
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++) {
#pragma omp task depend(inout: x[i])
      x[i] += t;
    }
    printf("step %d\n", t);
#pragma omp taskwait
  }
}
