// expect: 5:1: error:
// fixed bug (regression test): `#pragma acc update` without a self, host or device clause is accepted
//   (exit 0); OpenACC requires at least one
void f(int n, double *x) {
#pragma acc update
  x[0] = n;
}
