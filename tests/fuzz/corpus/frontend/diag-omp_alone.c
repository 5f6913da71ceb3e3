// expect: 3:12: error: expected a directive name after 'omp'
void f(int n, double *x) {
#pragma omp
  for (int i = 0; i < n; i++) x[i] = 1;
}
