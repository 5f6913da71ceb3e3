// expect: 5:1: error: 'acc loop' must be inside a compute construct ('acc parallel' or 'acc kernels') or in a function marked 'acc routine'
void f(int n, double *x) {
#pragma acc data copy(x[0:n])
  {
#pragma acc loop
    for (int i = 0; i < n; i++) x[i] = 1;
  }
}
