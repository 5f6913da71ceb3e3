// expect: 10:55: error: 'gtcc_threshold' needs a non-negative integer constant
// expect: 13:27: warning: 'vector_length(vl)' ignored: gtcc needs a constant here
// Clause arguments gtcc needs as numbers may be macros (clang folds them),
// but not variables.
#define VL 64
void f(int n, int th, double *x) {
  int vl = VL;
#pragma acc parallel loop vector_length(VL) copy(x[0:n])
  for (int i = 0; i < n; i++) x[i] = 0;
#pragma acc parallel loop copy(x[0:n]) gtcc_threshold(th)
  for (int i = 0; i < n; i++)
    x[i] = 1;
#pragma acc parallel loop vector_length(vl) copy(x[0:n])
  for (int i = 0; i < n; i++) x[i] = 2;
}
