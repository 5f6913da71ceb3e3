/* data_reuse: one OpenACC data region whose device arrays serve two compute
 * regions, with updates in between.
 *
 *   data_reuse [N]    N elements (default 2^24: 128 MiB per array, 3 arrays)
 *
 *   acc data copyin(x) create(t) copyout(y)
 *     parallel loop:   t = 2x + 1            (t lives only on the device)
 *     update self(t):  the host sees t       -> checksums of the host t
 *     host scales x by 3, update device(x)
 *     parallel loop:   y = t*t - x           (reuses t and the new x)
 *   end data:          y comes back; x and t are not copied back
 *
 * The host t starts at -1 and x is scaled on the host after the copy-in,
 * so a missing update or a wrong copy direction changes the printed
 * checksums. Prints checksums and samples, one number per line. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static long arg_long(int argc, char **argv, int k, long def, long lo, long hi) {
  if (argc <= k)
    return def;
  char *end;
  long v = strtol(argv[k], &end, 10);
  if (*argv[k] == '\0' || *end || v < lo || v > hi) {
    fprintf(stderr, "data_reuse: argument %d ('%s') must be an integer in [%ld, %ld]\n", k, argv[k], lo, hi);
    exit(2);
  }
  return v;
}

static void checksums(const char *name, int n, const double *v) {
  double sum = 0.0, sumsq = 0.0;
  for (int i = 0; i < n; i++) {
    sum += v[i];
    sumsq += v[i] * v[i];
  }
  printf("%s.sum %.10g\n", name, sum);
  printf("%s.sumsq %.10g\n", name, sumsq);
  if (n > 0) {
    long idx[] = {0, n / 2, n - 1};
    for (int k = 0; k < 3; k++)
      printf("%s[%ld] %.10g\n", name, idx[k], v[idx[k]]);
  }
}

int main(int argc, char **argv) {
  int n = (int)arg_long(argc, argv, 1, 1L << 24, 0, 1L << 30);
  double *x = calloc((size_t)(n ? n : 1), sizeof *x);
  double *t = calloc((size_t)(n ? n : 1), sizeof *t);
  double *y = calloc((size_t)(n ? n : 1), sizeof *y);
  if (!x || !t || !y) {
    fprintf(stderr, "data_reuse: out of memory for n = %d\n", n);
    return 1;
  }
  for (int i = 0; i < n; i++) {
    x[i] = (double)(i % 4096) / 4096.0;
    t[i] = -1.0;
    y[i] = 0.0;
  }

  double t0 = now_ms();
#pragma acc data copyin(x[0:n]) create(t[0:n]) copyout(y[0:n])
  {
#pragma acc parallel loop present(x[0:n], t[0:n])
    for (int i = 0; i < n; i++)
      t[i] = 2.0 * x[i] + 1.0;

#pragma acc update self(t[0:n])
    checksums("t", n, t);

    for (int i = 0; i < n; i++)
      x[i] *= 3.0;
#pragma acc update device(x[0:n])

#pragma acc parallel loop present(x[0:n], t[0:n], y[0:n])
    for (int i = 0; i < n; i++)
      y[i] = t[i] * t[i] - x[i];
  }
  double t1 = now_ms();

  printf("n %d\n", n);
  checksums("y", n, y);
  fprintf(stderr, "data_reuse: n=%d %.3f ms\n", n, t1 - t0);
  free(x);
  free(t);
  free(y);
  return 0;
}
