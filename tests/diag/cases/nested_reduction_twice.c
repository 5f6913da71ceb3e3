// expect: 9:47: error: 's' is already in a 'reduction' clause of this construct
// only-expected
/* One variable in two reduction clauses of the inner loop of a nested
 * parallel loop (the generated executor would declare it twice). */
void f(int n, const int *restrict rp, const double *restrict v, double *restrict y) {
#pragma acc parallel loop copyin(rp[0:n+1], v[0:rp[n]]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma acc loop reduction(+:s) reduction(max:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += v[j];
    y[i] = s;
  }
}
