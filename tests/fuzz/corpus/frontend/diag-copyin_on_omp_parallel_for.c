// expect: 7:50: error:
// fixed bug (regression test): copyin(x[0:n]) on 'omp target teams distribute parallel for' is accepted
//   (exit 0) and mapped like OpenACC copyin, but OpenMP copyin copies
//   threadprivate variables and takes no array sections; expected an error
//   pointing at the clause (suggesting map(to: x[0:n]))
void f(int n, double *x) {
#pragma omp target teams distribute parallel for copyin(x[0:n])
  for (int i = 0; i < n; i++) x[i] = 1;
}
