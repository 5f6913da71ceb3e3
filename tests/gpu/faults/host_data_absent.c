/* Fault test: acc host_data use_device names data that is not on the
 * device (no data region maps it, no if_present). Expected: exit 1 and
 * "host_data_absent.c:LINE: error: 'w' is not present ... 'acc host_data'". */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  double v[64] = {0};
  double *w = calloc(64, sizeof *w);
  #pragma acc data copy(v)
  #pragma acc host_data use_device(v, w)
  printf("not reached %p %p\n", (void *)v, (void *)w);
  free(w);
  return 0;
}
