// expect: 16:5: error: the 'acc parallel loop' region reads the pointers stored in 'rows' (an array of pointers)
// expect: 26:13: error: the 'omp task region' region reads the pointers stored in 'g' (an array of pointers)
// expect: 26:23: error: the 'omp task region' region reads the pointers stored in 'f' (a pointer to pointers)
// expect: 35:7: error: 'gt_n0': names starting with 'gt_' are reserved
// only-expected
/* The device gets a copy of an array of pointers, whose pointers are host
 * addresses there (gtcc once accepted these and the kernels read host
 * memory). Pointers copied into variables first are fine (ok_form). And
 * gtcc's generated code names its variables gt_*: a user's gt_n0 in a
 * region clashed with them. */
void flat(double *a, double *b, double *y, int n) {
  double *rows[2] = {a, b};
#pragma acc parallel loop copyin(a[0:n], b[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] =
    rows[i % 2][i];
}

void tasks(double *x, double *z, double **f, int nb) {
  double *g[2] = {x, z};
#pragma omp target data map(tofrom: x[0:nb], z[0:nb], f[0:2])
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: x[b])
    x[b] += g[1][b] + f[0][b];
  }
}

void reserved(double *x, int n) {
  int gt_n0 = 2;
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++)
    x[i] *=
      gt_n0;
}

void ok_form(double **f, double *y, int n) {
  double *a = f[0], *b = f[1];
#pragma acc parallel loop copyin(a[0:n], b[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++) y[i] = a[i] + b[i];
}
