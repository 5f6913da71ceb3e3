// expect: 3:54: error: unknown map type or modifier 'toform'; expected to, from, tofrom, alloc, release or delete
void f(int n, double *x) {
#pragma omp target teams distribute parallel for map(toform: x[0:n])
  for (int i = 0; i < n; i++) x[i] = 1;
}
