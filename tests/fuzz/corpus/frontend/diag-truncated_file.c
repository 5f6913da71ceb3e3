// expect: 5:38: error: expected expression
// fixed bug (regression test): forwarded libclang diagnostics have no source line and caret
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) x[i] = 
