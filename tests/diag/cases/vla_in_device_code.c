// expect: 12:12: error: 't' is a variable-length array (double[m]) in device code
// expect: 27:14: error: 'tmp' is a variable-length array (double[bs]) in device code
// only-expected
/* CUDA has no variable-length arrays in device code (nvcc: "expression
 * must have a constant value"). A size that folds to a constant (a const
 * local with a constant initializer: a VLA in C, a constant size in C++)
 * is fine, and so are VLAs in host code. */
void flat(double *y, int n, int m) {
  const int K = 4;
#pragma acc parallel loop copy(y[0:n])
  for (int i = 0; i < n; i++) {
    double t[m], u[K];
    t[0] = u[0] = y[i];
    y[i] = t[0] + u[0];
  }
}

void tasks(double *x, int nb, int bs) {
#pragma omp target data map(tofrom: x[0:nb*bs])
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < nb; b++) {
    double host_vla[bs];
    (void)host_vla;
#pragma omp task depend(inout: x[b * bs])
    {
      double tmp[bs];
      tmp[0] = x[b * bs];
      x[b * bs] = 2 * tmp[0];
    }
  }
}
