// expect: 5:3: error: gtcc does not parallelize unmarked code inside 'acc kernels'
// only-expected
void scale(int n, float *restrict v, float s) {
  #pragma acc kernels copy(v[0:n])
  for (int i = 0; i < n; i++) v[i] *= s;
}
