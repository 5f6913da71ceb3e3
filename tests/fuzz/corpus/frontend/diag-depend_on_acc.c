// expect: 3:40: error: clause 'depend' is not allowed on 'acc parallel loop'
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n]) depend(in: x)
  for (int i = 0; i < n; i++) x[i] = 1;
}
