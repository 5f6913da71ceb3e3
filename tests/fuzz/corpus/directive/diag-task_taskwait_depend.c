// expect: 11:1: error: clauses on 'omp taskwait' are not supported by gtcc
void f(int n, int steps, double *x) {
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++) {
#pragma omp task depend(inout: x[i])
      x[i] += t;
    }
#pragma omp taskwait depend(in: x[0])
  }
}
