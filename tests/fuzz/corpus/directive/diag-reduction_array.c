// expect: 4:55: error: reduction on 'hist' is not supported: gtcc reduces scalars only
void f(int n, const int *x) {
  int hist[4] = {0};
#pragma acc parallel loop copyin(x[0:n]) reduction(+: hist)
  for (int i = 0; i < n; i++) hist[x[i] & 3] += 1;
}
