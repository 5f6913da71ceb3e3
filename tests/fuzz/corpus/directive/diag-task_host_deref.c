// expect: 11:10: error: 'x' is read or written through between tasks: gtcc runs the host code of a task region before its tasks, so it may only compute scalars and pointer values; memory belongs to the tasks until the region ends (put this in a task)
void f(int n, int steps, double *x) {
  double tol = 1e-6;
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
#pragma omp task depend(inout: x[0])
    x[0] *= 0.5;
#pragma omp taskwait
    if (*x < tol)
      break;
  }
}
