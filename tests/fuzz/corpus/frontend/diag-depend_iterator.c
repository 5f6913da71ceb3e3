// expect: 3:77: error: depend(...) form not supported by gtcc
void f(int n, double *x) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n]) depend(iterator(it = 0:n), in: x[it]) nowait
  for (int i = 0; i < n; i++) x[i] = 1;
#pragma omp taskwait
}
