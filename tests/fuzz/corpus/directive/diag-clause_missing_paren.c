// expect: 3:40: error: expected ')' at end of directive 'acc parallel loop'
void f(int n, double *x) {
#pragma acc parallel loop copyin(x[0:n]
  for (int i = 0; i < n; i++) x[i] = 1;
}
