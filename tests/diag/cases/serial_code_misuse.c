// expect: 19:5: error: a declaration after device code in 'omp target' is not supported by gtcc
// expect: 27:9: error: 'break' out of a compute construct is not allowed
// expect: 34:1: error: 'acc data' inside the 'acc serial' region at line 32 is not supported
// expect: 40:1: error: 'omp single' inside the 'omp target' region at line 38 is not supported
// expect: 48:41: error: 's' is read here by value from the host, but the code at line 46, earlier in the same 'omp target', changed its own copy
// only-expected
/* Serial code in compute constructs (tests/emit/cases/serial_code.c): a
 * declaration after device code could read what the device wrote (the host
 * declares it); a
 * jump out of the construct would leave a one-thread kernel, not the host
 * loop around it; directives inside serial code must be loops (they run
 * sequentially), atomics or critical; serial code's own (firstprivate)
 * copy of a scalar cannot reach the region's later kernels. */
void f(int n, double *a) {
#pragma omp target map(tofrom: a[0:n])
  {
#pragma omp teams distribute parallel for
    for (int i = 0; i < n; i++) a[i] += 1.0;
    int half = (int)a[0];
#pragma omp teams distribute parallel for
    for (int i = 0; i < half; i++) a[i] += 1.0;
  }
  for (int t = 0; t < 3; t++) {
#pragma acc kernels copy(a[0:n])
    {
      if (a[0] > 100.0)
        break;
#pragma acc loop independent
      for (int i = 0; i < n; i++) a[i] *= 2.0;
    }
  }
#pragma acc serial copy(a[0:n])
  {
#pragma acc data copyin(a[0:1])
    a[0] = 1.0;
  }
  int c = 0;
#pragma omp target map(tofrom: c)
  {
#pragma omp single
    c++;
  }
  double s = 1.0;
#pragma omp target map(tofrom: a[0:n])
  {
    s = 2.0; /* the region's own copy (firstprivate): the loop gets the host's 1.0 */
#pragma omp teams distribute parallel for
    for (int i = 0; i < n; i++) a[i] *= s;
  }
}
