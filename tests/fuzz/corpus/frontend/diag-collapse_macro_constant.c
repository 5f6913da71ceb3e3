// expect: 11:40: error: unknown clause 'bogus' on 'acc parallel loop'
// A macro constant in collapse() is accepted (the only error is the bogus
// clause below); gtcc once rejected collapse(DEPTH) as non-constant.
//
// only-expected
#define DEPTH 2
void f(int n, double *x) {
#pragma acc parallel loop collapse(DEPTH) copy(x[0:n*n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) x[i * n + j] = 1;
#pragma acc parallel loop copy(x[0:n]) bogus
  for (int i = 0; i < n; i++) x[i] = 0;
}
