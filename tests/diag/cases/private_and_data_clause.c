// expect: 12:40: error: 'a' is already in a 'private' clause of this construct
// expect: 14:40: error: 's' is already in a 'firstprivate' clause of this construct
// only-expected
/* A variable in private / firstprivate and in a data clause of the same
 * directive would leave open which copy the region uses: an error. A
 * reduction beside a map (OpenMP's combined constructs), and a map of the
 * enclosing construct with the loop's private copy, are fine. */
#include <stdio.h>
int main(void) {
  int n = 100;
  double x[100], a[4] = {1, 2, 3, 4}, s = 0, t = 0;
#pragma acc parallel loop copy(x) copy(a) private(a)
  for (int i = 0; i < n; i++) { a[i % 4] = i; x[i] = a[i % 4]; }
#pragma acc parallel loop copy(x) copy(s) firstprivate(s)
  for (int i = 0; i < n; i++) x[i] += s;
#pragma omp target teams distribute parallel for map(tofrom: t) reduction(+:t)
  for (int i = 0; i < n; i++) t += x[i];
#pragma omp target map(tofrom: a, x)
#pragma omp teams distribute parallel for private(a)
  for (int i = 0; i < n; i++) { a[i % 4] = i; x[i] = a[i % 4]; }
  printf("%g %g %g\n", x[99], a[0], t);
  return 0;
}
