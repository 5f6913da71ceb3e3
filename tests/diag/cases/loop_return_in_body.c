// expect: 10:7: error: 'return' out of the body of a parallel loop is not allowed
// only-expected
/* return inside an offloaded loop body would leave the kernel, not the
 * function; gtcc reports it instead of handing nvcc the code. */
int f(int n, double *restrict y) {
#pragma acc parallel loop copy(y[0:n])
  for (int i = 0; i < n; i++) {
    y[i] *= 2.0;
    if (y[i] < 0)
      return 1;
  }
  return 0;
}
