/* Fault test: present() names data that was never mapped.
 * Expected: exit 1 and "not_present.c:LINE: error: ... 'y' is not present". */
#include <stdio.h>

int main(void) {
  double y[64] = {0};
  #pragma acc parallel loop present(y[0:64])
  for (int i = 0; i < 64; i++) y[i] = i;
  printf("not reached %g\n", y[1]);
  return 0;
}
