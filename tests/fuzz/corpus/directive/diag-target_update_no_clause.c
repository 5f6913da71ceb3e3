// expect: 5:1: error:
// fixed bug (regression test): `#pragma omp target update` without a to or from clause is accepted
//   (exit 0); OpenMP requires at least one motion clause
void f(int n, double *x) {
#pragma omp target update
  x[0] = n;
}
