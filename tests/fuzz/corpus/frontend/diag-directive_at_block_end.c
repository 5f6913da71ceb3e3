// expect: 4:1: error: 'acc parallel loop' must be followed by a statement
void f(int n, double *x) {
  for (int i = 0; i < n; i++) x[i] = 0;
#pragma acc parallel loop copy(x[0:n])
}
