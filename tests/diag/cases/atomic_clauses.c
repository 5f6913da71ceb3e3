// expect: 13:28: error: 'omp atomic' may have only one of read, write, update, capture and compare ('compare' came first
// expect: 15:25: error: 'omp atomic' may have only one of read, write, update, capture and compare ('read' came first
// expect: 17:20: error: clause 'seq_cst' is not allowed on 'acc atomic'
// expect: 19:28: error: 'omp atomic' may have only one memory-order clause ('seq_cst' came first)
// only-expected
// One access kind per construct (OpenMP 5.1's compare capture is not
// implemented); memory orders are OpenMP's, one per construct.
void f(int n, int *a, int *m) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n], m[0:1])
  for (int i = 0; i < n; i++) {
    int t = 0;
    (void)t;
#pragma omp atomic compare capture
    m[0] = m[0] < i ? i : m[0];
#pragma omp atomic read write
    t = a[i];
#pragma acc atomic seq_cst
    a[i]++;
#pragma omp atomic seq_cst relaxed
    a[i]++;
  }
}
