// expect: 5:8: error: loop after 'omp target teams distribute parallel for' is not in canonical form: loop initialises more than one variable
void f(int n, double *x) {
  int i, j;
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (i = 0, j = n; i < n; i++) x[i] = j;
}
