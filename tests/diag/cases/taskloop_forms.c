// expect: 13:22: error: clause 'reduction' on 'omp taskloop' is not supported by gtcc
// only-expected
/* omp taskloop is lowered as one task per iteration and a taskgroup; a
 * reduction across its tasks (OpenMP 5) would be left out silently, so it is
 * an error. */
void f(int n, double *x) {
  double s = 0;
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  {
    (void)s;
#pragma omp taskloop reduction(+:s)
    for (int i = 0; i < n; i++) s += x[i];
  }
}
