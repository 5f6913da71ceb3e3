// expect: 3:55: error: reduction on 's' is not supported
void f(int n, double *x, double *s) {
#pragma acc parallel loop copyin(x[0:n]) reduction(+: s)
  for (int i = 0; i < n; i++) *s += x[i];
}
