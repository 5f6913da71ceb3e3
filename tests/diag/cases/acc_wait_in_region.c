// expect: 10:1: error: 'acc wait' inside the 'acc parallel loop' region at line 8 is not supported
// only-expected
/* acc wait, init, shutdown and set are host directives (gtcc runs kernels
 * synchronously, so they have nothing to do and stay in the host code);
 * inside a compute construct they mean nothing OpenACC allows. */
void f(int n, double *a) {
#pragma acc wait(1)
#pragma acc parallel loop copy(a[0:n]) async(1)
  for (int i = 0; i < n; i++) {
#pragma acc wait
    a[i] += 1.0;
  }
#pragma acc wait
}
