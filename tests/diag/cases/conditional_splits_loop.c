// expect: 13:1: error: this preprocessor line continues a conditional that starts before the statement of the 'acc parallel loop' at line 8
// only-expected
/* The loop header is chosen by a conditional that closes inside the loop:
 * gtcc rewrites a construct's statement as one piece (kernel call, host
 * fallback), which would cut the conditional in two. */
void f(double *c) {
  int n = 1000;
#pragma acc parallel loop copy(c[0:n])
#ifdef BIG
  for (int i = 0; i < n; i++)
#else
  for (int i = 0; i < n / 2; i++)
#endif
    c[i] = i * 3.0;
}
