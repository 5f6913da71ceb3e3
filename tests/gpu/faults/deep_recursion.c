/* Fault test: a recursion far deeper than the device stack that gtcc
 * raises for regions calling recursive functions (16 KB per thread: ack
 * below takes 48 bytes a frame). Expected: exit 1 and a CUDA error naming
 * the region and saying the recursive function may have run out of stack:
 * "deep_recursion.c:LINE: error: CUDA error in 'acc parallel loop' ... the
 * recursive function 'ack' ... --device-stack". */
#include <stdio.h>

/* ack(1, k) = k + 2, k calls deep (the inner call is not a tail call) */
static long ack(long m, long k) { return m == 0 ? k + 1 : k == 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, k - 1)); }

int main(void) {
  static long out[4096];
  #pragma acc parallel loop copyout(out[0:4096])
  for (int i = 0; i < 4096; i++) out[i] = ack(1, 1000000 + i);
  printf("not reached %ld\n", out[7]);
  return 0;
}
