// expect: 3:40: error: 'g' uses global variable 'scale' and is called in an offload region; pass it as a parameter
double scale = 2.0;
static double g(double v) { return v * scale; }
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) x[i] = g(x[i]);
}
