// expect: 32:5: error: 'add_tasks' creates tasks (directly or through the functions it calls) and is called in the 'omp parallel' region at line 29
// expect: 37:5: error: 'outer_helper' creates tasks (directly or through the functions it calls) and is called in the 'omp parallel' region at line 35
// only-expected
/* Tasks created in a function that a task region calls would run on the
 * host (on the host's copies), while tasks written in the region run on the
 * GPU: a located error. A function holding a whole task region of its own
 * (solve) is fine to call. */
static void axpy_block(const double *x, double *y, int b, int bs, double a) {
  for (int i = b * bs; i < (b + 1) * bs; i++) y[i] += a * x[i];
}
static void add_tasks(const double *x, double *y, int nb, int bs, double a) {
  for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: x[b*bs]) depend(inout: y[b*bs])
    axpy_block(x, y, b, bs, a);
  }
}
static void outer_helper(const double *x, double *y, int nb, int bs) { add_tasks(x, y, nb, bs, 1.0); }
static void solve(const double *x, double *y, int nb, int bs) {
#pragma omp target data map(to: x[0:nb*bs]) map(tofrom: y[0:nb*bs])
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: x[b*bs]) depend(inout: y[b*bs])
    axpy_block(x, y, b, bs, 2.0);
  }
}
void run(double *x, double *y, int nb, int bs) {
#pragma omp target data map(to: x[0:nb*bs]) map(tofrom: y[0:nb*bs])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < 5; t++) {
    add_tasks(x, y, nb, bs, 0.5 * t);
#pragma omp taskwait
  }
#pragma omp parallel
#pragma omp master
  { outer_helper(x, y, nb, bs); }
  solve(x, y, nb, bs);
}
