// expect: 5:33: error: 'a' points to a variable-length array; gtcc does not pass those to the device yet
void f(int n, int m, double (*a)[m]) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i][j] = 1;
}
