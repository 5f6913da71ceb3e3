// expect: 9:1: error: 'omp single' in 'add', which offload code calls at line 21, is not supported by gtcc
// expect: 22:1: error: 'omp masked' inside the 'omp target teams distribute parallel for' region at line 19 is not supported
// expect: 31:11: error: 'break' out of an 'omp critical' block is not allowed
// only-expected
/* masked, single and sections bind to the team of the calling threads: in
 * device code each thread would run the block. critical gets a lock, so no
 * jump may leave its block. In host code all of them are kept. */
static void add(double *s, double v) {
#pragma omp single
  *s += v;
}

void f(int n, double *a, double *s) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp critical(host_sum)
    *s += a[i];
  }
#pragma omp target teams distribute parallel for map(tofrom: a[0:n], s[0:1])
  for (int i = 0; i < n; i++) {
    add(s, a[i]);
#pragma omp masked
    a[i] = 0;
  }
#pragma omp target teams distribute parallel for map(tofrom: a[0:n], s[0:1])
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 4; k++) {
#pragma omp critical
      {
        if (s[0] > 10.0)
          break;
        s[0] += a[i];
      }
    }
  }
}
