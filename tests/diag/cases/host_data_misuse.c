// expect: 20:34: error: 'use_device' takes variables, not sections: write 'use_device(y)'
// expect: 22:34: error: 's' in 'use_device' is not a pointer or an array
// expect: 24:1: error: 'acc host_data' needs a 'use_device' clause
// expect: 29:35: error: 'y' is a device address inside the 'acc host_data' region at line 26: name it in 'deviceptr(y)'
// expect: 34:35: error: 'y' is a device address inside the 'omp target data' region at line 31: name it in 'is_device_ptr(y)'
// expect: 36:34: error: 'q' in 'use_device' clause is not a variable declared before the directive
// expect: 40:1: error: 'acc host_data' inside the 'acc parallel' region at line 38 is not supported
// expect: 13:1: error: 'acc host_data' with device addresses in 'g', which offload code calls at line 44
// only-expected
/* acc host_data / omp use_device_ptr: misuse is a located error. */
#pragma acc routine seq
static double g(double *y) {
#pragma acc host_data use_device(y)
  { y[0] = 1.0; }
  return y[0];
}
void f(int n, double *y, double s) {
#pragma acc data copy(y[0:n])
  {
#pragma acc host_data use_device(y[0:n])
    { }
#pragma acc host_data use_device(s)
    { }
#pragma acc host_data
    { }
#pragma acc host_data use_device(y)
    {
#pragma acc parallel loop
      for (int i = 0; i < n; i++) y[i] = 1;
    }
#pragma omp target data map(tofrom: y[0:n]) use_device_addr(y)
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) y[i] = 1;
    }
#pragma acc host_data use_device(q)
    { }
#pragma acc parallel copy(y[0:n])
    {
#pragma acc host_data use_device(y)
      { y[0] = 1; }
    }
#pragma acc parallel loop copy(y[0:n])
    for (int i = 0; i < n; i++) y[i] += g(y);
  }
}
