// expect: 9:17: error: 'return'
// fixed bug (regression test): the error is reported at the 'acc data' pragma (5:1) instead of at the
//   offending `return` (9:17), which is hard to find in a long region
int f(int n, double *x) {
#pragma acc data copy(x[0:n])
  {
#pragma acc parallel loop present(x[0:n])
    for (int i = 0; i < n; i++) x[i] = 1;
    if (n > 10) return 1;
  }
  return 0;
}
