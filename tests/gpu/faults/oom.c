/* Fault test: a data clause asks for more device memory than the GPU has.
 * Expected: exit 1 and "oom.c:LINE: error: ... cudaMalloc of N bytes for 'x'".
 * The host array is small: the runtime must fail at the allocation, before
 * it copies anything. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  long n = 1L << 42; /* 32 TiB of doubles */
  double *x = malloc(16 * sizeof *x);
  #pragma acc parallel loop copyin(x[0:n])
  for (long i = 0; i < 16; i++) x[i] += 1.0;
  printf("not reached\n");
  free(x);
  return 0;
}
