/* Names and macros as the C file means them where each region is (probe
 * cidioms9): a data clause names the variable in scope, not one of the same
 * name declared later in a block that has closed (gtcc bound `r` to the
 * block's `int r`: "not an array or pointer"); a macro defined again after
 * an #undef has, in each region and function, the definition in force
 * there (the .gt.cu had only the last: a silent wrong answer); an #include
 * inside a loop body stays there (it was also copied to file scope, where
 * nvcc failed). Compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

// expect-in-cu: #undef SCALE /* as at this point of the file */

#define SCALE 2
#define F(x) ((x) * SCALE)
static double helper(double x) { return F(x) + 1; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 300000;
  double *r = malloc(sizeof(double) * (size_t)n), *q = malloc(sizeof(double) * (size_t)n);
  double g[1000];
  if (!r || !q) return 1;
  for (int k = 0; k < 2; k++) {
    int r = k * 3; /* closed before the regions that map the outer r */
    if (r > 100) printf("never\n");
  }
  {
    double g[10]; /* the same for g */
    g[0] = 1;
    if (g[0] > 5) printf("never\n");
  }
  for (int i = 0; i < 1000; i++) g[i] = i;

#pragma acc parallel loop copyout(r[0:n])
  for (int i = 0; i < n; i++) r[i] = F(i) + helper(i % 1000);

#undef SCALE
#define SCALE 3
#pragma acc parallel loop copyin(r[0:n]) copyout(q[0:n])
  for (int i = 0; i < n; i++) {
    double x = r[i] - 500.0, z;
#include "scopes_and_macros.inc"
    q[i] = F(z);
  }

#pragma acc parallel loop copy(g)
  for (int i = 0; i < 1000; i++) g[i] = g[i] * SCALE + helper(i);

  double sr = 0, sq = 0, sg = 0;
  for (int i = 0; i < n; i++) sr += r[i], sq += q[i] * (i % 3 + 1);
  for (int i = 0; i < 1000; i++) sg += g[i];
  printf("r %.17g\nq %.17g\ng %.17g\n", sr, sq, sg);
  free(r), free(q);
  return 0;
}
