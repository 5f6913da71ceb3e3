/* A reduction variable that a data clause maps as well: `omp target
 * map(tofrom: s)` around `omp teams distribute parallel for reduction(+:s)`
 * (OpenMP 4.5's way to get the sum back), `map(tofrom: s) reduction(+:s)` on
 * one combined construct (OpenMP 5), a reduction inside `omp target data
 * map(tofrom: m)` and inside `acc data copy(c)` (the data region copies its
 * device copy back at its end: it must hold the result), and `copy(t)
 * reduction(+:t)` in OpenACC. Compared with the CPU build. */
// expect-in-cu: gtrt_is_present(total, sizeof *total)
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000000;
  double *w = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  for (int i = 0; i < n; i++) w[i] = (double)((i * 37) % 101) / 4.0;
  double total = 1.0, both = 2.0, mx = -1.0, c = 0.5, t = 0.25;
  long cnt = 3;

#pragma omp target map(to: w[0:n]) map(tofrom: total)
#pragma omp teams distribute parallel for reduction(+:total)
  for (int i = 0; i < n; i++) total += w[i];

#pragma omp target teams distribute parallel for map(to: w[0:n]) map(tofrom: both) reduction(+:both)
  for (int i = 0; i < n; i++) both += 2.0 * w[i];

#pragma omp target data map(to: w[0:n]) map(tofrom: mx, cnt)
  {
#pragma omp target teams distribute parallel for reduction(max:mx) reduction(+:cnt)
    for (int i = 0; i < n; i++) {
      mx = w[i] > mx ? w[i] : mx;
      cnt += w[i] > 12.0;
    }
#pragma omp target teams distribute parallel for reduction(+:cnt)
    for (int i = 0; i < n; i++) cnt += w[i] < 1.0;
  }

#pragma acc data copyin(w[0:n]) copy(c)
  {
#pragma acc parallel loop reduction(+:c)
    for (int i = 0; i < n; i++) c += w[i] * 0.5;
  }

#pragma acc parallel loop copyin(w[0:n]) copy(t) reduction(+:t)
  for (int i = 0; i < n; i++) t += w[i];

  printf("n=%d cnt=%ld\ntotal %.17g\nboth %.17g\nmx %.17g\nc %.17g\nt %.17g\n", n, cnt, total, both, mx, c, t);
  return 0;
}
