// expect: 6:35: error: parameter 'h' of 'score' is a variable-length array; gtcc cannot compile 'score' for the device (pass a flat pointer and the sizes)
// expect: 9:49: error: the type 'double (*)[m][m][m]' has a run-time array size
// only-expected
// A called function's VLA parameter becomes a view with at most two variable
// inner sizes: this one has three (the caller passes a flat pointer, cast).
static double score(int m, double h[][m][m][m], int i, int j) { return h[i][j][0][0] + 1; }
void f(int n, int m, double *a, double *out) {
#pragma acc parallel loop copyin(a[0:n*m*m*m]) copyout(out[0:n])
  for (int i = 0; i < n; i++) out[i] = score(m, (double (*)[m][m][m])a, i, 0);
}
