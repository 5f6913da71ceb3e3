// expect: 14:19: error: 'this' is a C++ keyword; offload regions are compiled as CUDA C++: rename it
// expect: 14:37: error: 'new' is a C++ keyword; offload regions are compiled as CUDA C++: rename it
// expect: 13:12: error: 'template' is a C++ keyword; offload regions are compiled as CUDA C++: rename it
// only-expected
/* C names that C++ reserves, captured by an offload region (and its loop
 * variable): each once, at its first use. `class` stays on the host. */
#include <stdio.h>
int main(void) {
  unsigned this = 2, new = 3, class = 4;
  float a[10];
  int n = 10;
#pragma acc parallel loop copyout(a[0:n])
  for (int template = 0; template < n; template++)
    a[template] = this * template + new;
  printf("%g %u\n", a[3], class);
  return 0;
}
