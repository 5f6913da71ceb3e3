// expect: 3:57: error: unexpected end of directive 'acc parallel loop'
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n]) num_gangs((n + 1)
  for (int i = 0; i < n; i++) x[i] = 1;
}
