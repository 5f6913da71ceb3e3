// expect: 4:31: error: collapse(2) needs 2 perfectly nested for loops
void f(int n, double *x) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: x[0:n*n])
  for (int i = 0; i < n; i++) {
    x[i * n] = 0;
    for (int j = 1; j < n; j++) x[i * n + j] = 1;
  }
}
