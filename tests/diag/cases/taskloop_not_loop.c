// expect: 5:1: error: 'omp taskloop' must be followed by a for loop
// only-expected
void g(int n, double *x) {
  (void)n, (void)x;
#pragma omp taskloop
  {
  }
}
