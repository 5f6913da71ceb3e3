// expect: 3:40: error: unknown clause 'fast' on 'acc parallel loop'
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n]) fast
  for (int i = 0; i < n; i++) x[i] = 1;
}
