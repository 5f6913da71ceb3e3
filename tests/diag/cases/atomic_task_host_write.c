// expect: 11:5: error: 'hits' is updated atomically by the tasks (first used at line 18) and assigned by the region's host code here
// Tasks get the values of scalars the region's host code assigns as a copy
// taken when each task is created: an atomic update of such a copy would be
// lost, so it is an error.
void f(int nb, double *u) {
  long hits = 0;
#pragma omp target data map(tofrom: u[0:nb])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < 4; t++) {
    hits = 0;
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: u[b])
      {
        u[b] += 1;
        if (u[b] > 2) {
#pragma omp atomic
          hits++;
        }
      }
    }
#pragma omp taskwait
  }
  (void)hits;
}
