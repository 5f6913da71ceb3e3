// expect: 7:1: error: 'omp parallel for' inside an 'omp single' region with tasks is not supported (task loops, single tasks, taskwait and taskgroup are)
void f(int n, int steps, double *x, double *y) {
#pragma omp target data map(tofrom: x[0:n], y[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      y[i] = 0;
    for (int i = 0; i < n; i++) {
#pragma omp task depend(inout: x[i])
      x[i] += t;
    }
  }
}
