// expect: 6:1: error: a single 'omp task' is not lowered by gtcc: put the task in a loop nest of depth 1 to 3
void f(int n, double *x) {
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
#pragma omp task depend(out: x[0])
  x[0] = n;
}
