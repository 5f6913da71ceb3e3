// expect: 14:9: error: 'break' out of the body of a parallel loop is not allowed
// only-expected
/* break would leave an inner parallel loop: its iterations run on
 * different threads, so there is nothing to break out of (OpenACC and
 * OpenMP forbid it); gtcc once lowered it and every tier did something
 * else. */
void f(int n, const int *restrict rp, const double *restrict v, double *restrict y) {
#pragma acc parallel loop copyin(rp[0:n+1], v[0:rp[n]]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) {
      if (v[j] == 0.0)
        break;
      s += v[j];
    }
    y[i] = s;
  }
}
