// expect: 4:3: error: loop after 'omp target teams distribute parallel for' is not in canonical form: loop must have a condition
void f(int n, double *x) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; ; i++) { if (i >= n) break; x[i] = 1; }
}
