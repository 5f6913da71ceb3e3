// expect: 6:25: error: depend(...) form not supported by gtcc
void f(int n, double *x) {
#pragma omp parallel
#pragma omp single
  for (int i = 2; i < n; i++) {
#pragma omp task depend(iterator(k = 0:2), in: x[i - k]) depend(out: x[i])
    x[i] = x[i - 1];
  }
}
