// expect: 9:5: error: gtcc does not parallelize unmarked code inside 'acc parallel'
// only-expected
/* A statement that holds a loop directive below it (a time loop around an
 * acc loop) cannot run as one thread's code, and is not a parallel loop. A
 * loop without a directive in acc kernels is serial code (a warning). */
void scale(int n, int steps, float *restrict v, float s) {
  #pragma acc parallel copy(v[0:n])
  {
    for (int t = 0; t < steps; t++) {
      #pragma acc loop
      for (int i = 0; i < n; i++) v[i] *= s;
    }
  }
  #pragma acc kernels copy(v[0:n])
  for (int i = 0; i < n; i++) v[i] *= s;
}
