// expect: 14:36: error: the section of 'x' has a negative length (-1)
// expect: 16:39: error: 'x' (double *) has 1 dimension that a section can name; this one names 2
// expect: 18:40: error: 'pp' (double **) has 1 dimension that a section can name; this one names 2 (gtcc maps contiguous data: it does not follow the pointers it holds)
// expect: 20:44: error: 'a' (double[10][4]) has 2 dimensions that a section can name; this one names 3
/* A section gtcc cannot map as written: a negative constant length, more
 * dimensions than the variable has (the extra ones were ignored), sections
 * through a pointer to pointers (no deep copy). Sections that match the
 * variable's shape are fine. */
#include <stdlib.h>
int main(void) {
  int n = 10, m = 4;
  double *x = malloc(80 * sizeof *x), **pp = malloc(10 * sizeof *pp), a[10][4];
  double (*v)[m] = malloc(sizeof(double[m]) * n);
#pragma acc parallel loop copy(x[0:-1])
  for (int i = 0; i < 1; i++) x[0] = 1;
#pragma acc parallel loop copy(x[0:n][0:2])
  for (int i = 0; i < 1; i++) x[0] = 1;
#pragma acc parallel loop copy(pp[0:n][0:m])
  for (int i = 0; i < 1; i++) x[0] = 1;
#pragma acc parallel loop copy(a[0:n][0:4][0:1])
  for (int i = 0; i < 1; i++) a[0][0] = 1;
#pragma acc parallel loop copy(a[0:n][0:4], v[0:n][0:m], x[0:0])
  for (int i = 0; i < 1; i++) a[0][0] = v[0][0];
  free(x), free(pp), free(v);
  return 0;
}
