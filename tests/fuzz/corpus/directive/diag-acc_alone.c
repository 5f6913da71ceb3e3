// expect: 3:14: error: expected a directive name after 'acc'
void f(int n, double *x) {
  #pragma acc
  for (int i = 0; i < n; i++) x[i] = 1;
}
