// expect: 9:1: error: 'omp task' inside an 'omp task' body is not supported
void f(int n, double *x) {
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int i = 1; i < n; i++) {
#pragma omp task depend(in: x[i - 1]) depend(out: x[i])
    {
#pragma omp task
      x[i] = x[i - 1];
    }
  }
}
