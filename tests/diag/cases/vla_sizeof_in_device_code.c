// expect: 10:18: error: sizeof of a variable-length array in device code: CUDA has no such type there (it would give a pointer's size); write the size out (m * sizeof(double))
// only-expected
/* sizeof of a variable-length array in device code: the .gt.cu has the
 * array as a view, so sizeof gave a pointer's size (8, not m * 8). A
 * constant sizeof of the same pointer is fine. */
void f(int n, int m, double (*a)[m], long *y) {
#pragma acc parallel loop copyin(a[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double row[4];
    y[i] = (long)sizeof a[i] + (long)sizeof row + (long)sizeof(a[i][0]) + (long)a[i][0];
  }
}
