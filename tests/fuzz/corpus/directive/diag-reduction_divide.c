// expect: 4:76: error: unknown reduction operator '/'
double f(int n, const double *x) {
  double s = 1;
#pragma omp target teams distribute parallel for map(to: x[0:n]) reduction(/: s)
  for (int i = 0; i < n; i++) s /= x[i];
  return s;
}
