// expect: 3:36: error: collapse(k) is not supported: use a constant from 1 to 3
void f(int n, int k, double *x) {
#pragma acc parallel loop collapse(k) copy(x[0:n*n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) x[i * n + j] = 1;
}
