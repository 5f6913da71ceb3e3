// expect: 4:19: error: loop after 'acc parallel loop' is not in canonical form: loop condition must compare the loop variable with <, <=, > or >=
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i != n; i++) x[i] = 1;
}
