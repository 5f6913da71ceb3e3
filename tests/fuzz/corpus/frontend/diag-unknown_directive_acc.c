// expect: 3:13: error: unknown OpenACC directive 'paralel'
void f(int n, double *x) {
#pragma acc paralel loop copy(x[0:n])
  for (int i = 0; i < n; i++) x[i] = 1;
}
