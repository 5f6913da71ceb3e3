/* num_gangs / vector_length (and num_teams / thread_limit): launch shape
 * hints must not change the results, even with few gangs for many
 * iterations. */
#include <stdio.h>

int main(void) {
  enum { N = 100000 };
  static double x[N];
  int n = N;
  double s = 0.0;
#pragma acc parallel loop num_gangs(3) vector_length(64) copyout(x[0:n]) reduction(+:s)
  for (int i = 0; i < n; i++) {
    x[i] = (double)(i % 1000) * 0.25;
    s += x[i];
  }
#pragma acc parallel loop gang vector num_gangs(1024) vector_length(128) copy(x[0:n])
  for (int i = 0; i < n; i++)
    x[i] = x[i] + 1.0;
#pragma omp target teams distribute parallel for num_teams(7) thread_limit(32) map(tofrom: x[0:n])
  for (int i = 0; i < n; i++)
    x[i] *= 2.0;
  double t = 0.0;
  for (int i = 0; i < n; i++)
    t += x[i];
  printf("s %.10g\nt %.10g\nx[n-1] %.10g\n", s, t, x[n - 1]);
  return 0;
}
