// expect: 3:37: error: unexpected ':' in 'acc parallel loop'
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n:2])
  for (int i = 0; i < n; i++) x[i] = 1;
}
