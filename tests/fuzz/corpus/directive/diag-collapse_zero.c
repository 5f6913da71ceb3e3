// expect: 3:36: error: collapse(0) is not supported: use a constant from 1 to 3
void f(int n, double *x) {
#pragma acc parallel loop collapse(0) copy(x[0:n])
  for (int i = 0; i < n; i++) x[i] = 1;
}
