// expect: 9:16: error: 'goto' out of the body of a parallel loop is not allowed
// only-expected
/* A goto whose label is outside the loop body would leave the kernel; one
 * whose label is inside the body (skip_ok) stays in its iteration. */
void leave(double *y, int n) {
#pragma acc parallel loop copy(y[0:n])
  for (int i = 0; i < n; i++) {
    y[i] += 1;
    if (i < 0) goto done;
  }
done:
  y[0] += 1;
}

void skip_ok(double *y, int n) {
#pragma acc parallel loop copy(y[0:n])
  for (int i = 0; i < n; i++) {
    if (y[i] < 0) goto next;
    y[i] *= 2;
  next:
    y[i] += 1;
  }
}
