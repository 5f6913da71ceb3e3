// expect: 5:38: error: function 'g' is called in an offload region but is not defined in this file
double g(double);
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) x[i] = g(x[i]);
}
