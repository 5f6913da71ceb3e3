// expect: 4:15: error: loop after 'acc parallel loop' is not in canonical form: loop variable must have integer type
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (double t = 0; t < n; t += 0.5) x[(int)t] = t;
}
