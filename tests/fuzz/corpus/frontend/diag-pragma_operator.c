// expect: 3:30: error: unknown clause 'foo' on 'acc parallel loop'
void f(int n, double *x) {
  _Pragma("acc parallel loop foo") for (int i = 0; i < n; i++) x[i] = 1;
}
