// expect: 5:3: error: 'acc parallel loop' must be followed by a for loop
void f(int n, double *x) {
  int i = 0;
#pragma acc parallel loop copy(x[0:n])
  while (i < n) {
    x[i] = 1;
    i++;
  }
}
