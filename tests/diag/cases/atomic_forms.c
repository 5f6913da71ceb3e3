// expect: 17:5: error: the statement after 'acc atomic update' must have one of the forms 'x++;'
// expect: 19:5: error: the statement after 'omp atomic read' must have the form 'v = x;'
// expect: 21:5: error: the statement after 'acc atomic capture' must have one of the forms 'v = x++;'
// expect: 23:5: error: the statement after 'acc atomic update' must have one of the forms
// expect: 25:5: error: the statement after 'omp atomic write' must have the form 'x = expr;'
// expect: 27:5: error: the statement after 'acc atomic capture' must have one of the forms
// only-expected
// A statement of another form would be run without the atomic access the
// directive asks for: each is a located error naming the forms allowed
// (x = x * 2 + 1 is (x * 2) + 1, not x op expr).
#define BUMP(v) v++
void f(int n, int *a, int *m) {
#pragma acc parallel loop copy(a[0:n], m[0:1])
  for (int i = 0; i < n; i++) {
    int t;
#pragma acc atomic update
    a[i] = a[i] * 2 + 1;
#pragma omp atomic read
    t = a[i] + 1;
#pragma acc atomic capture
    { a[i]++; t = m[0]; }
#pragma acc atomic
    if (i) m[0]++;
#pragma omp atomic write
    a[i]++;
#pragma acc atomic capture
    t = m[0] = 3;
    (void)t;
  }
}
