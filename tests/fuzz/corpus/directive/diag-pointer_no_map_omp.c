// expect: 4:31: error: pointer 'x' is used in the 'omp target teams distribute parallel for' region but its extent is unknown: add a data clause
void f(int n, double *x) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++) x[i] = 2 * x[i];
}
