/* saxpy: y = a*x + y in single precision with one OpenACC parallel loop.
 *
 *   saxpy [N [REPS]]     N elements (default 2^25: 128 MiB per array),
 *                        REPS calls (default 3), each mapping x and y again.
 *
 * Builds with gtcc (GPU) and with any C compiler (pragmas ignored). Prints
 * n, checksums of y (sum, sum of squares, in double) and sampled entries,
 * one number per line, for a numeric comparison of the two builds; the time
 * of the offloaded calls goes to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static void saxpy(int n, float a, const float *restrict x, float *restrict y) {
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

static long arg_long(int argc, char **argv, int k, long def, long lo, long hi) {
  if (argc <= k)
    return def;
  char *end;
  long v = strtol(argv[k], &end, 10);
  if (*argv[k] == '\0' || *end || v < lo || v > hi) {
    fprintf(stderr, "saxpy: argument %d ('%s') must be an integer in [%ld, %ld]\n", k, argv[k], lo, hi);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  int n = (int)arg_long(argc, argv, 1, 1L << 25, 0, 1L << 30);
  int reps = (int)arg_long(argc, argv, 2, 3, 0, 1000);
  float *x = malloc(sizeof *x * (size_t)(n ? n : 1));
  float *y = malloc(sizeof *y * (size_t)(n ? n : 1));
  if (!x || !y) {
    fprintf(stderr, "saxpy: out of memory for n = %d\n", n);
    return 1;
  }
  /* Small positive values: no cancellation in the checksums. */
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 1000) * 0.001f;
    y[i] = 1.0f + (float)(i % 7);
  }

  /* The first call also pays for device start-up: report it apart. */
  double first = 0.0, best = 0.0;
  for (int r = 0; r < reps; r++) {
    double t0 = now_ms();
    saxpy(n, 0.5f, x, y);
    double t = now_ms() - t0;
    if (r == 0)
      first = t;
    else if (r == 1 || t < best)
      best = t;
  }

  double sum = 0.0, sumsq = 0.0;
  for (int i = 0; i < n; i++) {
    sum += y[i];
    sumsq += (double)y[i] * y[i];
  }
  printf("n %d\n", n);
  printf("reps %d\n", reps);
  printf("sum %.10g\n", sum);
  printf("sumsq %.10g\n", sumsq);
  if (n > 0) {
    long idx[] = {0, n / 3, n / 2, n - 1};
    for (int k = 0; k < 4; k++)
      printf("y[%ld] %.10g\n", idx[k], (double)y[idx[k]]);
  }
  fprintf(stderr, "saxpy: n=%d reps=%d: first call %.3f ms, best other call %.3f ms (incl. transfers)\n", n, reps,
          first, best);
  free(x);
  free(y);
  return 0;
}
