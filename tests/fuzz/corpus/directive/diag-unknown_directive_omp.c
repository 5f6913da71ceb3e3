// expect: 3:37: error: unknown OpenMP directive 'target teams distribute paralel'
void f(int n, double *x) {
#pragma omp target teams distribute paralel for map(tofrom: x[0:n])
  for (int i = 0; i < n; i++) x[i] = 1;
}
