// expect: 4:35: error: parameter 'h' of 'score' is a variable-length array; gtcc cannot compile 'score' for the device
// only-expected
// A function called in a region that takes a VLA parameter has no C++ form.
static double score(int m, double h[][m], int i, int j) { return h[i][j] + 1; }
void f(int n, int m, double (*a)[m], double *out) {
#pragma acc parallel loop copyin(a[0:n]) copyout(out[0:n])
  for (int i = 0; i < n; i++) out[i] = score(m, a, i, 0);
}
