// expect: 11:35: error: 'firstprivate' on 'omp parallel' around tasks: gtcc takes scalars, structs and pointers there, not 'a' (double[8])
// expect: 17:22: error: clause 'reduction' on 'omp parallel' around tasks is not supported by gtcc
// only-expected
/* Clauses on the constructs around tasks: private and firstprivate of
 * scalars, structs and pointers work (tests/driver/test_region_privates.sh);
 * of arrays, and reductions there, are errors. */
void f(int nb, double *x) {
  double a[8] = {0};
  char tok[65];
  int s = 0;
#pragma omp parallel firstprivate(a)
#pragma omp single
  for (int b = 0; b < nb; b++) {
#pragma omp task depend(out: tok[b])
    x[b] = a[b % 8];
  }
#pragma omp parallel reduction(+:s)
#pragma omp single
  for (int b = 0; b < nb; b++) {
#pragma omp task depend(out: tok[b])
    x[b] += 1.0;
  }
  (void)s;
}
