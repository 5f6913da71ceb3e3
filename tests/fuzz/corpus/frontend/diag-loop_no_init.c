// expect: 5:3: error: loop after 'acc parallel loop' is not in canonical form: loop must initialise its variable
void f(int n, double *x) {
  int i = 0;
#pragma acc parallel loop copy(x[0:n])
  for (; i < n; i++) x[i] = 1;
}
