// expect: 7:1: error: 'omp parallel' holds 2 statements, 2 of them 'omp single' or 'omp master' blocks
// only-expected
/* Two single blocks in one parallel region: the message used to say the
 * tasks were not inside 'omp single' at all. */
void f(double *x, int nb) {
#pragma omp target data map(tofrom: x[0:nb])
#pragma omp parallel
  {
#pragma omp single
    for (int k = 0; k < nb; k++) {
#pragma omp task depend(inout: x[k])
      x[k] += 0.5;
    }
#pragma omp single
    for (int k = 1; k < nb; k++) {
#pragma omp task depend(in: x[k - 1]) depend(inout: x[k])
      x[k] += 0.5 * x[k - 1];
    }
  }
}
