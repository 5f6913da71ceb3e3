// expect: 13:36: error: 'ops' holds function pointers from outside the region: host function addresses mean nothing on the device; declare the table inside the region, or switch on an index
// only-expected
/* A table of function pointers from outside the region: the host's
 * addresses mean nothing on the device (nvcc also rejected the kernel
 * parameter). A table declared inside the region is fine. */
static double f1(double x) { return x + 1; }
static double f2(double x) { return x * 2; }
static double (*const ops[2])(double) = {f1, f2};

double g(int n) {
  double s = 0, t = 0;
#pragma acc parallel loop reduction(+:s)
  for (int i = 0; i < n; i++) s += ops[i & 1](i);
#pragma acc parallel loop reduction(+:t)
  for (int i = 0; i < n; i++) {
    double (*const mine[2])(double) = {f1, f2};
    t += mine[i & 1](i);
  }
  return s + t;
}
