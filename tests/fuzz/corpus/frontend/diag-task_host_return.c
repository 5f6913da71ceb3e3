// expect: 13:7: error: 'return' out of an 'omp single' region with tasks is not supported
void f(int n, int steps, double *x) {
#pragma omp target map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++) {
#pragma omp task depend(inout: x[i])
      x[i] += t;
    }
#pragma omp taskwait
    if (t > 100)
      return;
  }
}
