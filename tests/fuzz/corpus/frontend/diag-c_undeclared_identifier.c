// expect: 9:38: error: use of undeclared identifier 'y'
// fixed bug (regression test): (1) forwarded libclang diagnostics have no source line and caret;
//   (2) a C error inside the loop adds a spurious follow-on error
//   `8:1: error: 'acc parallel loop' must be followed by a statement`
//   (this case flips only once both are fixed)
// only-expected
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) x[i] = y;
}
