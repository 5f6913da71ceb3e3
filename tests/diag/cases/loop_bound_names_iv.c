// expect: 10:3: error: loop after 'acc parallel loop' is not in canonical form: loop bounds and step must not name the loop variable
// expect: 12:3: error: loop after 'omp target teams distribute parallel for' is not in canonical form: loop bounds and step must not name the loop variable
// expect: 14:3: error: loop after 'acc parallel loop' is not in canonical form: loop bounds and step must not name the loop variable
// only-expected
/* Bounds and step are evaluated once, before the loop: they must not name
 * its variable (the lower bound's sizeof(i) reached the host code, where
 * no i exists, and cc failed). */
void f(int n, double *x) {
#pragma acc parallel loop copyout(x[0:n])
  for (int i = 0 * (int)sizeof(i); i < n; i++) x[i] = i;
#pragma omp target teams distribute parallel for map(from: x[0:n])
  for (int i = 0; i < n + i % 2; i++) x[i] = i;
#pragma acc parallel loop copyout(x[0:n])
  for (int i = 1; i < n; i += i) x[i] = i;
}
