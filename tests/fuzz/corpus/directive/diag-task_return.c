// expect: 9:25: error: 'return' out of an 'omp task' body is not allowed
void f(int n, double *x) {
#pragma omp target map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int i = 1; i < n; i++) {
#pragma omp task depend(in: x[i - 1]) depend(out: x[i])
    {
      if (x[i - 1] < 0) return;
      x[i] = x[i - 1];
    }
  }
}
