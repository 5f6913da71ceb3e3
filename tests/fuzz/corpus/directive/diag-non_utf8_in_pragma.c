// expect: 3:40: error: non-ASCII character in directive
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n]) ÿþÃ num_gangs(4)
  for (int i = 0; i < n; i++) x[i] = 1;
}
