// expect: 4:26: error: loop after 'acc parallel loop' is not in canonical form: loop increment must be i++, i--, i += s, i -= s or i = i + s
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 1; i < n; i *= 2) x[i] = 1;
}
