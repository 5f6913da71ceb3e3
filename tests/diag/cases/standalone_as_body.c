// expect: 17:1: error: 'acc update' cannot be the body of an if or else (line 16)
// expect: 21:1: error: 'omp target enter data' cannot be the body of a while loop (line 20)
// expect: 24:1: error: 'omp taskwait' cannot be the body of a for loop (line 23)
// expect: 28:1: error: 'acc update' cannot be the body of an if or else (line 26)
// only-expected
/* A standalone directive as the body of an if, else or loop (the specs
 * forbid it): cc, ignoring the pragma, would make the next statement the
 * body, gtcc's rewrite the directive; a located error instead. */
#include <stdlib.h>
int main(void) {
  int n = 100, k = -3;
  double *x = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) x[i] = i;
#pragma acc data copy(x[0:n])
  {
    if (n < 3)
#pragma acc update self(x[0:n])
    x[0] = 9;
  }
  while (k < 0)
#pragma omp target enter data map(to: x[0:n])
    k += 5;
  for (int t = 0; t < 2; t++)
#pragma omp taskwait
    ;
  if (n > 3) {
  } else
#pragma acc update device(x[0:n])
  {
#pragma acc update device(x[0:n])
  }
  return (int)x[0];
}
