// expect: 3:45: error: 'z' in 'map' clause is not a variable declared before the directive
void f(int n, double *x) {
#pragma omp target data map(tofrom: x[0:n], z)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) x[i] = 1;
  }
}
