// expect: 4:31: error: loop after 'acc parallel loop' is not in canonical form: loop step is zero
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i += 0) x[i] = 1;
}
