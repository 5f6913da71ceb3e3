/* Pointers to variable-length rows, `double (*a)[m]`, used as C allows in
 * device code: *a, *(a + i), a[i] + k, &a[i] passed on, a row passed to a
 * `double *` parameter, and a helper whose parameter has const rows
 * (nvcc rejected all of these: the device's view had only a[i][j]).
 * Compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

static double row_sum(int m, const double r[]) {
  double s = 0;
  for (int j = 0; j < m; j++) s += r[j] * (j + 1);
  return s;
}

static double pair(int m, const double b[][m], int k) { return b[0][k % m] - b[1][(k + 1) % m]; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000, m = argc > 2 ? atoi(argv[2]) : 7;
  double (*a)[m] = malloc(sizeof(double) * (size_t)n * (size_t)m);
  double *y = malloc(sizeof(double) * (size_t)n);
  if (!a || !y) return 1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i][j] = (double)((i * 31 + j * 7) % 19) - 9.0;

#pragma acc parallel loop copyin(a[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    const double *first = *a;
    double v = (*(a + i))[0] + first[i % m] + *(a[i] + (m - 1)) + row_sum(m, a[i]);
    int k = i + 1 < n ? i : i - 1;
    v += pair(m, &a[k], i) + pair(m, a + k, i + 2);
    y[i] = v;
  }

  double s = 0.0;
  for (int i = 0; i < n; i++) s += y[i] * (i % 5 + 1);
  printf("s %.17g\ny0 %.17g\nylast %.17g\n", s, y[0], y[n - 1]);
  free(a), free(y);
  return 0;
}
