// expect: 5:33: error: pointer 'a' is used in the 'acc parallel loop' region but its extent is unknown: add a data clause such as copy(a[0:n])
void f(int n, int m, double (*a)[m]) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i][j] = 1;
}
