// expect: 7:5: error: task-generating code between loops is not supported: this statement is not a task (make it part of the task body)
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
