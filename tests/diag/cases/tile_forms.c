// expect: 9:27: error: 'tile' and 'collapse' on one loop
// expect: 14:5: error: tile with 2 sizes needs a rectangular loop nest: the bounds of this loop use 'i'
// expect: 17:18: error: 'tile' on a loop inside the 'acc parallel loop' region's loop is not supported by gtcc
// expect: 20:27: error: tile(2, 2, 2, 2) is not supported: gtcc tiles up to 3 loops
// only-expected
/* tile(a, b) runs as collapse(2): the nest must be as collapse needs it, and
 * an inner loop of a nested parallel loop cannot be tiled. */
void f(int n, int m, double *a, const int *rp) {
#pragma acc parallel loop tile(8, 8) collapse(2) copy(a[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i * m + j] = 0;
#pragma acc parallel loop tile(8, 8) copy(a[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) a[i * m + j] = 1;
#pragma acc parallel loop copy(a[0:n*m]) copyin(rp[0:n+1])
  for (int i = 0; i < n; i++) {
#pragma acc loop tile(32)
    for (int j = rp[i]; j < rp[i + 1]; j++) a[j] += 1;
  }
#pragma acc parallel loop tile(2, 2, 2, 2) copy(a[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i * m + j] = 2;
}
