// expect: 8:7: error: 'gtrt_use_device': names starting with 'gtrt_' or 'GTRT_' are reserved for gtcc's runtime
// expect: 9:8: error: 'GTRT_MAP_TO': names starting with 'gtrt_' or 'GTRT_' are reserved for gtcc's runtime
// only-expected
/* Variables named like gtcc's runtime would hide its functions and
 * constants from the code gtcc generates in the same function. */
#include <stdio.h>
int main(void) {
  int gtrt_use_device = 2, n = 100;
  long GTRT_MAP_TO = 1;
  double x[100];
#pragma acc parallel loop copyout(x)
  for (int i = 0; i < n; i++) x[i] = i + gtrt_use_device;
  printf("%g %ld\n", x[99], GTRT_MAP_TO);
  return 0;
}
