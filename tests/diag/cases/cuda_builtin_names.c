// expect: 13:42: error: 'threadIdx' is the name of a CUDA built-in variable; offload regions are compiled as CUDA C++: rename it
// expect: 9:29: error: 'warpSize' is the name of a CUDA built-in variable; offload regions are compiled as CUDA C++: rename it
// only-expected
/* Variables named like CUDA's built-in variables, captured by a region or
 * declared in a device function, would hide them from gtcc's index code
 * (nvcc failed on the generated code). */
#include <stdio.h>
#pragma acc routine seq
static int lanes(int n, int warpSize) { return n % warpSize; }
int main(void) {
  int n = 3000, threadIdx = 3, k = 32; double x[3000];
#pragma acc parallel loop copyout(x)
  for (int i = 0; i < n; i++) x[i] = i + threadIdx + lanes(i, k);
  printf("%g\n", x[5]);
  return 0;
}
