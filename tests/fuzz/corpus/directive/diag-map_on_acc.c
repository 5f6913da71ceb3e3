// expect: 3:27: error: clause 'map' is not allowed on 'acc parallel loop'
void f(int n, double *x) {
#pragma acc parallel loop map(tofrom: x[0:n])
  for (int i = 0; i < n; i++) x[i] = 1;
}
