/* Atomic updates whose value has another type than x: a float by a double (the
 * hardware float add of the value rounded to float), an int by a long and a
 * long long by an unsigned (the integer hardware add: C's sum cut to x's bits).
 * Values are exact in any order, so the CPU build's output is the GPU's. */
#include <stdio.h>
int main(void) {
  int n = 4000000;
  float f = 0.0f, g[8] = {0};
  int k = 0;
  long long big = 0;
  #pragma omp target teams distribute parallel for map(tofrom: f, g, k, big)
  for (int i = 0; i < n; i++) {
    #pragma omp atomic
    f += 0.25;
    #pragma omp atomic
    g[i & 7] += 0.5 * (i & 3);
    #pragma omp atomic
    k += (long)(i & 1);
    #pragma omp atomic
    big -= (unsigned)(i & 3);
  }
  printf("%.9g %.9g %d %lld\n", f, g[3], k, big);
  return 0;
}
