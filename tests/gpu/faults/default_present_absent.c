/* Fault test: default(present) on a construct whose pointer no data region
 * maps. Expected: exit 1 and "default_present_absent.c:LINE: error: 'y' is
 * not present ...". */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *y = calloc((size_t)n, sizeof *y);
  #pragma acc parallel loop default(present)
  for (int i = 0; i < n; i++) y[i] += 1.0;
  printf("not reached %g\n", y[1]);
  free(y);
  return 0;
}
