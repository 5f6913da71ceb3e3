// expect: 3:10: error: 'no_such_header_gtcc.h' file not found
// fixed bug (regression test): forwarded libclang diagnostics have no source line and caret
#include "no_such_header_gtcc.h"
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) x[i] = 1;
}
