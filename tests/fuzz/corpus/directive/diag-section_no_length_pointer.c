// expect: 3:34: error: array section on pointer 'x' needs a length: x[lo:len]
void f(int n, double *x) {
#pragma acc parallel loop copyin(x[2:])
  for (int i = 2; i < n; i++) x[i] = 1;
}
