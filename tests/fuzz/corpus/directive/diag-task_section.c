// expect: 7:29: error: array sections in depend clauses are not supported by gtcc: name one element, e.g. x[i]
void f(int n, double *x) {
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int i = 1; i < n; i++) {
#pragma omp task depend(in: x[0:i]) \
                 depend(out: x[i:1])
    x[i] = x[i - 1];
  }
}
