/* <math.h> macros in device code that expand to compiler builtins in C:
 * NAN, INFINITY, HUGE_VAL(F), signbit, isfinite, isinf, isnan (gtcc once
 * reported __builtin_nanf and friends as undefined functions). A helper
 * with fixed-size 2D array parameters, called with local arrays and with
 * rows of a mapped one (nvcc rejected the call: the parameter was a view
 * without a constructor from a C array). The helper also reads const
 * scalars of the file (nvcc once found them undefined in the .gt.cu).
 * Compared with the CPU build. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define M 4
static const int SHIFT = 3;
const double WEIGHT = 0.25;

static double trace(double a[M][M]) {
  double s = 0;
  for (int i = 0; i < M; i++) s += a[i][i] * (i + SHIFT) * WEIGHT;
  return s;
}

static double corner(const double b[][M], int k) { return b[k % M][(k + 1) % M]; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200000;
  long *cls = malloc(sizeof(long) * (size_t)n);
  double *fin = malloc(sizeof(double) * (size_t)n), *tr = malloc(sizeof(double) * (size_t)n);
  double (*blocks)[M] = malloc(sizeof(double[M]) * (size_t)n);
  if (!cls || !fin || !tr || !blocks) return 1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < M; j++) blocks[i][j] = (i + 3 * j) % 11 - 5.0;

#pragma acc parallel loop copyin(blocks[0:n]) copyout(cls[0:n], fin[0:n], tr[0:n])
  for (int i = 0; i < n; i++) {
    double z = i % 5 == 0 ? NAN : i % 5 == 1 ? -INFINITY : i % 5 == 2 ? -0.0 : i % 5 == 3 ? HUGE_VAL : 1e-310 * i;
    float f = i % 3 == 0 ? HUGE_VALF : (float)i * -0.5f;
    cls[i] = (signbit(z) != 0) + 2 * (isfinite(z) != 0) + 4 * (isinf(f) != 0) + 8 * (isnan(z) != 0) +
             16 * (signbit(f) != 0) + 32 * (isinf(z) != 0);
    fin[i] = isfinite(z) ? z * 1e300 : 0.0;
    double la[M][M];
    for (int r = 0; r < M; r++)
      for (int c = 0; c < M; c++) la[r][c] = (r == c) ? (double)((i + r) % 7) : 0.0;
    tr[i] = trace(la) + corner(&blocks[i - i % M], i);
  }

  long sc = 0;
  double sf = 0.0, st = 0.0;
  for (int i = 0; i < n; i++) sc += cls[i] * (i % 7 + 1), sf += fin[i], st += tr[i] * (i % 3 + 1);
  printf("cls %ld\nfin %.17g\ntr %.17g\n", sc, sf, st);
  free(cls), free(fin), free(tr), free(blocks);
  return 0;
}
