// expect: 3:1: error: 'omp parallel' creates tasks but they are not inside 'omp single' or 'omp master': gtcc runs task loops written as '#pragma omp parallel' + '#pragma omp single' + the loop
void f(int n, double *x) {
#pragma omp parallel
  for (int i = 1; i < n; i++) {
#pragma omp task depend(in: x[i - 1]) depend(out: x[i])
    x[i] = x[i - 1];
  }
}
