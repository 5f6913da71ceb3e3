// expect: 5:38: error: pointer 'x' is used in the 'omp target teams distribute parallel for' region but its extent is unknown
// mode: emit-cu
void f(int n, const double *x, double *y) {
#pragma omp target teams distribute parallel for map(from: y[0:n])
  for (int i = 0; i < n; i++) y[i] = x[i];
}
