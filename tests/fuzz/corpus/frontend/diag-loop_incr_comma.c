// expect: 7:26: error: loop after 'omp target teams distribute parallel for' is not in canonical form
// fixed bug (regression test): the increment `i = i + 1, k++` is accepted with step "(1, k++)"
//   (the comma expression becomes the step and k++ runs wherever the step is
//   evaluated); expected a canonical-form error at the increment
void f(int n, int k, double *x) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; i = i + 1, k++) x[i] = k;
}
