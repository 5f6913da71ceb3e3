// expect: 4:52: error: unknown reduction operator 'minimum'
double f(int n, const double *x) {
  double m = 1e300;
#pragma acc parallel loop copyin(x[0:n]) reduction(minimum: m)
  for (int i = 0; i < n; i++) m = x[i] < m ? x[i] : m;
  return m;
}
