/* A fixed-size 2D global array used with 2D subscripts in kernels. */
#include <stdio.h>

#define R 64
#define C 48

double grid[R][C];
int hist[R];

int main(void) {
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      grid[i][j] = (double)(i * C + j) / 100.0;

#pragma acc parallel loop collapse(2) copy(grid)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      grid[i][j] = grid[i][j] * 2.0 + (double)i;

#pragma omp target teams distribute parallel for map(to: grid) map(from: hist)
  for (int i = 0; i < R; i++) {
    int c = 0;
    for (int j = 0; j < C; j++)
      if (grid[i][j] > 40.0)
        c++;
    hist[i] = c;
  }

  double s = 0.0;
  long h = 0;
  for (int i = 0; i < R; i++) {
    h += hist[i] * (i + 1);
    for (int j = 0; j < C; j++)
      s += grid[i][j];
  }
  printf("sum %.10g\n", s);
  printf("hist %ld\n", h);
  printf("grid[63][47] %.10g\n", grid[R - 1][C - 1]);
  return 0;
}
