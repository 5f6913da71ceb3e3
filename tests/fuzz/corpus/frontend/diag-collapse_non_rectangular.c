// expect: 5:5: error: collapse(2) needs a rectangular loop nest: the bounds of this loop use 'i'
void f(int n, double *x) {
#pragma acc parallel loop collapse(2) copy(x[0:n*n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) x[i * n + j] = 1;
}
