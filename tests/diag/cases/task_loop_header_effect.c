// expect: 18:32: error: the header of a task loop changes 'calls'
// only-expected
/* C evaluates a loop's condition every iteration; gtcc computes a task
 * loop's trip count once, before its tasks. A header that changes a
 * variable would do so once (the host scalars then differ from the CPU
 * build's), so it is an error. A header without side effects is fine. */
static int limit(int *calls, int nb) {
  (*calls)++;
  return nb;
}

void f(double *x, int nb, int bs) {
  int calls = 0;
#pragma omp target data map(tofrom: x[0:nb*bs])
#pragma omp parallel
#pragma omp single
  {
    for (int b = 0; b < limit(&calls, nb); b++) {
#pragma omp task depend(inout: x[b * bs])
      x[b * bs] += 1.0;
    }
  }
}

void ok(double *x, int nb, int bs) {
#pragma omp target data map(tofrom: x[0:nb*bs])
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: x[b * bs])
    x[b * bs] += 1.0;
  }
}
