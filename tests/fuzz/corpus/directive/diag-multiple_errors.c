// expect: 5:40: error: unknown clause 'bogus' on 'acc parallel loop'
// expect: 8:19: error: loop after 'acc parallel loop' is not in canonical form: loop condition must compare
// expect: 9:81: error: expected ':' before '^'
void f(int n, double *x, double *y) {
#pragma acc parallel loop copy(x[0:n]) bogus
  for (int i = 0; i < n; i++) x[i] = 1;
#pragma acc parallel loop copy(y[0:n])
  for (int i = 0; i != n; i++) y[i] = 1;
#pragma omp target teams distribute parallel for map(tofrom: y[0:n]) reduction(^^: n)
  for (int i = 0; i < n; i++) y[i] = 2;
}
