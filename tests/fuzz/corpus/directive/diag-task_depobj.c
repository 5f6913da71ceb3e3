// expect: 6:25: error: depend(...) form not supported by gtcc
void f(int n, double *x) {
#pragma omp parallel
#pragma omp single
  for (int i = 1; i < n; i++) {
#pragma omp task depend(depobj: x)
    x[i] = x[i - 1];
  }
}
