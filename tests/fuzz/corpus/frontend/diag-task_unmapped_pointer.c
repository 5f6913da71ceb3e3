// expect: 7:5: error: pointer 'x' is used by the tasks of the region at line 3 but its extent is unknown: put the region inside '#pragma omp target data map(tofrom: x[0:n])' (or map(to:) for data the tasks only read), or use '#pragma omp target map(tofrom: x[0:n])' instead of 'omp parallel'
void f(int n, double *x) {
#pragma omp parallel
#pragma omp single
  for (int i = 1; i < n; i++) {
#pragma omp task depend(in: x[i - 1]) depend(out: x[i])
    x[i] = x[i - 1];
  }
}
