// expect: 9:5: error: 'total' is shared by the tasks and written by them; gtcc passes scalars to the GPU by value: keep the value in an array element that is mapped (e.g. total_arr[0])
double f(int n, double *x) {
  double total = 0;
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int i = 1; i < n; i++) {
#pragma omp task depend(inout: total)
    total += x[i];
  }
  return total;
}
