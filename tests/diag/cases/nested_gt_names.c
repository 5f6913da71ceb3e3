// expect: 9:9: error: 'gt_hi': names starting with 'gt_' are reserved
// only-expected
/* The code gtcc generates for nested parallel loops declares gt_lo,
 * gt_hi, ... next to the user's variables. */
void f(int n, const int *restrict rp, const double *restrict v, double *restrict y) {
#pragma acc parallel loop copyin(rp[0:n+1], v[0:rp[n]]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    int gt_hi = rp[i + 1];
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < gt_hi; j++) s += v[j];
    y[i] = s;
  }
}
