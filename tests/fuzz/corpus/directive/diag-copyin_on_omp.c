// expect: 3:37: error: clause 'copyin' is not allowed on 'omp target teams distribute'
void f(int n, double *x) {
#pragma omp target teams distribute copyin(x[0:n])
  for (int i = 0; i < n; i++) x[i] = 1;
}
