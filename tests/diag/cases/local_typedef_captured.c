// expect: 14:5: error: type 'word' is declared inside a function; gtcc needs types used in offload regions at file scope
// only-expected
/* A typedef inside main used by variables an offload region captures:
 * the kernel's parameters would name it, and the .gt.cu has no `word`.
 * Reported once, at the first use in the region. */
#include <stdio.h>
int main(void) {
  typedef unsigned long long word;
  word a[64], k = 3;
  int n = 64;
  for (int i = 0; i < n; i++) a[i] = (word)i;
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] = a[i] * k;
  printf("%llu\n", a[5]);
  return 0;
}
