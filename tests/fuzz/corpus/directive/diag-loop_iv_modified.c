// expect: 6:19: error: loop after 'acc parallel loop' is not in canonical form: loop variable is modified in the loop body
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) {
    x[i] = 1;
    if (x[i] > 0) i += 1;
  }
}
