// expect: 5:1: error: 'omp target teams distribute parallel for' must be inside a function
void f(int n, double *x) {
  for (int i = 0; i < n; i++) x[i] = 0;
}
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
