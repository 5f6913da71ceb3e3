// expect: 4:52: error: reduction operator '-' is not supported; use '+'
double f(int n, const double *x) {
  double s = 0;
#pragma acc parallel loop copyin(x[0:n]) reduction(-: s)
  for (int i = 0; i < n; i++) s -= x[i];
  return s;
}
