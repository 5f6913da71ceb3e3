// expect: 3:33: error: empty subscript: write an index [i] or an array section [lo:len]
void f(int n, double *x) {
#pragma acc parallel loop copy(x[])
  for (int i = 0; i < n; i++) x[i] = 1;
}
