// expect: 7:5: error: 'y' is read or written through between tasks: gtcc runs the host code of a task region before its tasks, so it may only compute scalars and pointer values; memory belongs to the tasks until the region ends (put this in a task)
void f(int n, double *x, double *y) {
#pragma omp target data map(tofrom: x[0:n * n], y[0:n])
#pragma omp parallel
#pragma omp single
  for (int i = 1; i < n; i++) {
    y[i] = 0;
    for (int j = 1; j < n; j++) {
#pragma omp task depend(in: x[(i - 1) * n + j]) depend(out: x[i * n + j])
      x[i * n + j] = x[(i - 1) * n + j];
    }
  }
}
