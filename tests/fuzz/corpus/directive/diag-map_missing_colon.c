// expect: 3:61: error: expected ':' before 'x' in 'map' clause
void f(int n, double *x) {
#pragma omp target teams distribute parallel for map(tofrom x[0:n])
  for (int i = 0; i < n; i++) x[i] = 1;
}
