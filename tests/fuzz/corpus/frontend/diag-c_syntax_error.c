// expect: 6:41: error: expected expression
// fixed bug (regression test): forwarded libclang diagnostics are printed without the source line and caret
//   (gtcc prints `c_syntax_error.c:6:41: error: expected expression` and nothing under it)
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) x[i] = 1 +;
}
