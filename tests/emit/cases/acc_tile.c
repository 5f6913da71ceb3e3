/* OpenACC's tile clause: tile(32, 4) on a 2D stencil, tile(*, *, 2) on an
 * acc loop of a 3-deep nest inside acc parallel, tile(8) on a kernels loop.
 * gtcc runs a tiled nest as collapse(n) (tiling only changes the schedule);
 * the results are compared with the CPU build. */
// expect-in-cu: gt_n2
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000, m = 700, l = 9;
  if (n < 3) n = 3;
  double *a = malloc(sizeof(double) * n * m), *b = malloc(sizeof(double) * n * m), *c = malloc(sizeof(double) * n * m * l);
  for (int i = 0; i < n * m; i++) a[i] = (double)(i % 23) / 4.0;
#pragma acc parallel loop tile(32, 4) copyin(a[0:n*m]) copyout(b[0:n*m])
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
#pragma acc parallel copy(b[0:n*m]) copyout(c[0:n*m*l])
  {
#pragma acc loop tile(*, *, 2)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        for (int k = 0; k < l; k++) c[(i * m + j) * l + k] = b[i * m + j] * k;
  }
#pragma acc kernels loop tile(8) copy(b[0:n*m])
  for (int i = 0; i < n * m; i++) b[i] += 1.0;
  double s = 0, t = 0;
  for (int i = 0; i < n * m; i++) s += b[i];
  for (int i = 0; i < n * m * l; i++) t += c[i];
  printf("%.4f %.4f\n", s, t);
  return 0;
}
