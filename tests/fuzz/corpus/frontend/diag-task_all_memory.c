// expect: 6:32: error: depend on 'omp_all_memory' is not supported by gtcc: name the elements the task uses
void f(int n, double *x) {
#pragma omp parallel
#pragma omp single
  for (int i = 1; i < n; i++) {
#pragma omp task depend(inout: omp_all_memory)
    x[i] = x[i - 1];
  }
}
