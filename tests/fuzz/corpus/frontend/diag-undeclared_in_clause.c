// expect: 3:47: error: 'y' in 'copyin' clause is not a variable declared before the directive
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n]) copyin(y[0:n])
  for (int i = 0; i < n; i++) x[i] = 1;
}
