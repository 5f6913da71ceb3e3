// expect: 3:48: error: 'tmp' is not a variable declared before the directive
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n]) private(tmp)
  for (int i = 0; i < n; i++) x[i] = 1;
}
