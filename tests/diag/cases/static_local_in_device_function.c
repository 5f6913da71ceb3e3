// expect: 9:12: error: 'offset' writes its static local 'c' and is called in an offload region: the device has its own copy, which the host's writes do not reach and whose device writes do not come back; pass the value in or make it a global array named in a data clause
// only-expected
/* A function called from an offload region that writes one of its static
 * locals: the device's copy never sees the host's writes (and the device's
 * never come back), so the GPU gave other results than cc. A static local
 * that is only read (a table) is fine. */
static int offset(int set) {
  static int c = 1;
  if (set) c = set;
  return c;
}
static double table_at(int k) {
  static double t[4];
  double *p = t;
  static const double w[4] = {1.0, 2.0, 3.0, 4.0};
  return p[k & 3] + w[k & 3];
}
void f(int n, long *y, double *z) {
  offset(42);
#pragma acc parallel loop copyout(y[0:n], z[0:n])
  for (int i = 0; i < n; i++) {
    y[i] = offset(0) + i;
    z[i] = table_at(i);
  }
}
