// expect: 9:41: error: OpenMP 'copyin' copies threadprivate data
// only-expected
/* On an inner loop too, OpenMP's copyin is not a data clause (the message once said it was). */
double x[100];
void f(int n, double *y, const int *rp) {
#pragma omp target teams distribute map(tofrom: y[0:n]) map(to: rp[0:n+1])
  for (int i = 0; i < n; i++) {
    double s = 0;
#pragma omp parallel for reduction(+:s) copyin(x)
    for (int j = rp[i]; j < rp[i+1]; j++) s += j;
    y[i] = s;
  }
}
