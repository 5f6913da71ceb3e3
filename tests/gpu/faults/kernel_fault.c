/* Fault test: the loop writes through a bad device pointer (deviceptr says
 * gtcc must not translate it). Expected: exit 1 and a CUDA error naming the
 * region, "kernel_fault.c:LINE: error: CUDA error in 'acc parallel loop'". */
#include <stdint.h>
#include <stdio.h>

int main(void) {
  double *p = (double *)(uintptr_t)0x10; /* no device memory there */
  #pragma acc parallel loop deviceptr(p)
  for (int i = 0; i < 1024; i++) p[i * 4096] = i;
  printf("not reached\n");
  return 0;
}
