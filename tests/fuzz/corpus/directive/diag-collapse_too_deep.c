// expect: 5:33: error: collapse(3) needs 3 perfectly nested for loops
void f(int n, double *x) {
#pragma acc parallel loop collapse(3) copy(x[0:n*n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) x[i * n + j] = 1;
}
