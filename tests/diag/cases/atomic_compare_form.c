// expect: 12:5: error: the statement after 'omp atomic compare' must have one of the forms 'x = expr < x ? expr : x;'
// expect: 14:5: error: the statement after 'omp atomic compare' must have one of the forms
// expect: 16:5: error: the statement after 'omp atomic compare' must have one of the forms
// only-expected
// atomic compare takes the min/max forms (a conditional or an if) and
// if (x == e) x = d: <= and an if with an else are not of them.
void f(int n, int *a, int *m) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n], m[0:1])
  for (int i = 0; i < n; i++) {
    int t = 0;
#pragma omp atomic compare
    m[0] = m[0] <= i ? m[0] : i;
#pragma omp atomic compare
    if (a[i] < m[0]) m[0] = a[i]; else t = 1;
#pragma omp atomic compare
    if (a[i] < m[0]) m[0] = a[0];
    (void)t;
  }
}
