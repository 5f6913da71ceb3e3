// expect: 9:7: error: 'acc loop' must be followed by a for loop
void f(int n, int m, double *x) {
#pragma acc parallel copy(x[0:n*m])
  {
#pragma acc loop
    for (int i = 0; i < n; i++) {
      int j = 0;
#pragma acc loop
      do { x[i * m + j] = 1; j++; } while (j < m);
    }
  }
}
