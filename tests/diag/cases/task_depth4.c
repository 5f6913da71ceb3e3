// expect: 9:9: error: task loop nests deeper than 3 are not supported
void f(int n, double (*x)[4][4][4]) {
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int a = 1; a < n; a++)
    for (int b = 1; b < 4; b++)
      for (int c = 1; c < 4; c++)
        for (int d = 1; d < 4; d++) {
#pragma omp task depend(in: x[a - 1][b][c][d]) depend(out: x[a][b][c][d])
          x[a][b][c][d] = x[a - 1][b][c][d];
        }
}
