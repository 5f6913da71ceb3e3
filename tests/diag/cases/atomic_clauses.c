// expect: 13:20: error: 'compare' on 'omp atomic' is not supported by gtcc
// expect: 15:25: error: 'omp atomic' may have only one of read, write, update and capture ('read' came first)
// expect: 17:20: error: clause 'seq_cst' is not allowed on 'acc atomic'
// expect: 19:28: error: 'omp atomic' may have only one memory-order clause ('seq_cst' came first)
// only-expected
// OpenMP 5.1's atomic compare (min/max, compare-and-swap forms) is not
// implemented; one access kind per construct; memory orders are OpenMP's.
void f(int n, int *a, int *m) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n], m[0:1])
  for (int i = 0; i < n; i++) {
    int t = 0;
    (void)t;
#pragma omp atomic compare
    m[0] = m[0] < i ? i : m[0];
#pragma omp atomic read write
    t = a[i];
#pragma acc atomic seq_cst
    a[i]++;
#pragma omp atomic seq_cst relaxed
    a[i]++;
  }
}
