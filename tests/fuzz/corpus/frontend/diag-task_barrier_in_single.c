// expect: 11:1: error: 'omp barrier' inside an 'omp single' region with tasks is not supported
void f(int n, int steps, double *x) {
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++) {
#pragma omp task depend(inout: x[i])
      x[i] += t;
    }
#pragma omp barrier
  }
}
