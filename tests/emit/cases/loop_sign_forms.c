/* Loops whose signed variable is compared with an unsigned bound
 * (`for (int d = lo; d <= r; d++)`, r unsigned): C compares in unsigned, so
 * a negative start is a huge value and the loop runs no times. gtcc's trip
 * count, computed in signed arithmetic, once gave r - lo + 1 iterations (a
 * flat loop, and the tiers of a nested one). A start of 0 or more is the
 * same either way (`for (int i = 0; i < size; i++)` with size_t size). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000;
  unsigned r = 40;
  size_t size = (size_t)n;
  int *rp = malloc(sizeof(int) * (n + 1));
  double *y = calloc((size_t)n + 100, sizeof(double)), *z = calloc((size_t)n + 1, sizeof(double));
  if (!rp || !y || !z) return 1;
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i * 37) % 3001;

  /* flat: a constant start below 0 (no iterations in C) */
#pragma acc parallel loop copy(y[0:n+100])
  for (int d = -40; d <= r; d++) y[d < 0 ? 0 : d] += 1.0;

  /* nested: the start depends on the row; odd rows start below 0 */
#pragma acc parallel loop copyin(rp[0:n+1]) copyout(z[0:n])
  for (int i = 0; i < size; i++) {
    const int lo = (i % 2) ? -40 : rp[i] % 7;
    const unsigned hi = (unsigned)(rp[i + 1] - rp[i]);
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int d = lo; d < hi; d++) s += (double)(d % 13) * 0.25;
    z[i] = s;
  }

  double sy = 0, sz = 0;
  for (int i = 0; i < n + 100; i++) sy += y[i] * (double)(i % 5 + 1);
  for (int i = 0; i < n; i++) sz += z[i] * (double)(i % 7 + 1);
  printf("loop_sign_forms y %.17g z %.17g z[2] %.17g z[3] %.17g\n", sy, sz, n > 3 ? z[2] : 0.0, n > 3 ? z[3] : 0.0);
  free(rp), free(y), free(z);
  return 0;
}
