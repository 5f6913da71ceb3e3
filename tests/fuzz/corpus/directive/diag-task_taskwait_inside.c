// expect: 9:1: error: 'omp taskwait' inside a task loop is not supported
void f(int n, double *x) {
#pragma omp target data map(tofrom: x[0:n * n])
#pragma omp parallel
#pragma omp single
  for (int i = 1; i < n; i++)
    for (int j = 1; j < n; j++) {
#pragma omp task depend(in: x[(i - 1) * n + j]) depend(out: x[i * n + j])
#pragma omp taskwait
      x[i * n + j] = x[(i - 1) * n + j];
    }
}
