/* dot: dot product and largest elementwise distance of two double vectors,
 * each an OpenMP `target teams distribute parallel for` reduction.
 *
 *   dot [N [REPS]]    N elements (default 2^25: 256 MiB per vector), REPS
 *                     repetitions of both reductions (default 3)
 *
 * Prints n, the dot product (+), the largest |x[i] - y[i]| (max), the count
 * of negative products (+ on int), the sums of x and of y^2 (host checksums)
 * and sampled entries, one number per line; time to stderr. */
#include <math.h>
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
    fprintf(stderr, "dot: argument %d ('%s') must be an integer in [%ld, %ld]\n", k, argv[k], lo, hi);
    exit(2);
  }
  return v;
}

static double dot(int n, const double *x, const double *y) {
  double sum = 0.0;
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) reduction(+:sum)
  for (int i = 0; i < n; i++)
    sum += x[i] * y[i];
  return sum;
}

static double max_dist(int n, const double *x, const double *y) {
  double mx = 0.0;
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) reduction(max:mx)
  for (int i = 0; i < n; i++)
    mx = fmax(mx, fabs(x[i] - y[i]));
  return mx;
}

static int count_negative(int n, const double *x, const double *y) {
  int neg = 0;
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) reduction(+:neg)
  for (int i = 0; i < n; i++)
    if (x[i] * y[i] < 0.0)
      neg++;
  return neg;
}

int main(int argc, char **argv) {
  int n = (int)arg_long(argc, argv, 1, 1L << 25, 0, 1L << 30);
  int reps = (int)arg_long(argc, argv, 2, 3, 1, 1000);
  double *x = malloc(sizeof *x * (size_t)(n ? n : 1));
  double *y = malloc(sizeof *y * (size_t)(n ? n : 1));
  if (!x || !y) {
    fprintf(stderr, "dot: out of memory for n = %d\n", n);
    return 1;
  }
  /* Products are mostly positive (x in [0.5, 1.5)); y dips below 0 on a
   * small part, so the negative count is not trivial. */
  for (int i = 0; i < n; i++) {
    x[i] = 0.5 + (double)((i * 7919L) % 1000) / 1000.0;
    y[i] = 1.0 + sin(0.001 * i) * 1.2;
  }

  double d = 0.0, mx = 0.0;
  int neg = 0;
  /* The first repetition also pays for device start-up: report it apart. */
  double first = 0.0, best = 0.0;
  for (int r = 0; r < reps; r++) {
    double t0 = now_ms();
    d = dot(n, x, y);
    mx = max_dist(n, x, y);
    neg = count_negative(n, x, y);
    double t = now_ms() - t0;
    if (r == 0)
      first = t;
    else if (r == 1 || t < best)
      best = t;
  }

  double sx = 0.0, syy = 0.0;
  for (int i = 0; i < n; i++) {
    sx += x[i];
    syy += y[i] * y[i];
  }
  printf("n %d\n", n);
  printf("dot %.10g\n", d);
  printf("maxdist %.10g\n", mx);
  printf("negative %d\n", neg);
  printf("sumx %.10g\n", sx);
  printf("sumyy %.10g\n", syy);
  if (n > 0) {
    long idx[] = {0, n / 3, n - 1};
    for (int k = 0; k < 3; k++)
      printf("xy[%ld] %.10g\n", idx[k], x[idx[k]] * y[idx[k]]);
  }
  fprintf(stderr, "dot: n=%d reps=%d (3 reductions each): first %.3f ms, best other %.3f ms (incl. transfers)\n", n,
          reps, first, best);
  free(x);
  free(y);
  return 0;
}
