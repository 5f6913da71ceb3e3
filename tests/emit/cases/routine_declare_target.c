/* Functions marked for the device, as OpenACC and OpenMP programs write
 * them: `acc routine seq` before a definition, `acc routine vector` and
 * `acc routine worker` whose bodies hold `acc loop` directives (they run
 * sequentially in the calling thread), `acc routine(name)`, an OpenMP
 * `declare target` block around a function with an `omp parallel for`
 * reduction and around a global table, `begin declare target`, and
 * `declare target enter(...)`. The marked functions are called from a flat
 * loop, from both bodies of a nested parallel loop (CollectiveDP) and from
 * an OpenMP nest over irregular rows. Compared with the CPU build. */
// expect-in-cu: __device__ static double row_dot(
// expect-in-cu: __device__ static double clamp01(
// expect-in-cu: nested parallel loop (CollectiveDP
#include <stdio.h>
#include <stdlib.h>

#pragma acc routine seq
static double clamp01(double v) { return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v; }

/* The row's dot product: an inner vector loop of the routine. */
#pragma acc routine vector
static double row_dot(const int *rp, const int *col, const double *val, const double *x, int i) {
  double s = 0.0;
#pragma acc loop vector reduction(+:s)
  for (int j = rp[i]; j < rp[i + 1]; j++) s += val[j] * x[col[j]];
  return s;
}

/* Two loop levels in a worker routine: the largest |a[k]| of each of four
 * quarters of a row, summed. */
#pragma acc routine worker device_type(nvidia)
static double quarter_peaks(const double *val, int lo, int hi) {
  double total = 0.0;
#pragma acc loop worker reduction(+:total)
  for (int q = 0; q < 4; q++) {
    double peak = 0.0;
    int a = lo + (hi - lo) * q / 4, b = lo + (hi - lo) * (q + 1) / 4;
#pragma acc loop vector reduction(max:peak)
    for (int k = a; k < b; k++) peak = val[k] > peak ? val[k] : -val[k] > peak ? -val[k] : peak;
    total += peak;
  }
  return total;
}

static long mix_index(long h);
#pragma acc routine(mix_index) seq
static long mix_index(long h) { return (h * 2654435761L) & 1023L; }

#pragma omp declare target
double weights[1024];
static double row_weighted(const int *rp, const double *val, int i) {
  double s = 0.0;
#pragma omp parallel for reduction(+:s)
  for (int j = rp[i]; j < rp[i + 1]; j++) s += val[j] * weights[(j + i) & 1023];
  return s;
}
#pragma omp end declare target

#pragma omp begin declare target
static int row_len(const int *rp, int i) { return rp[i + 1] - rp[i]; }
#pragma omp end declare target

static double scaled(double v, double k) { return v * k; }
#pragma omp declare target enter(scaled)

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 300000;
  if (n < 1) n = 1;
  int *rp = malloc(sizeof(int) * ((size_t)n + 1));
  unsigned s = 12345u;
  rp[0] = 0;
  for (int i = 0; i < n; i++) { /* rows of 0-40 entries, one in 1000 of 3000-6000 */
    s = s * 1664525u + 1013904223u;
    int len = (int)((s >> 8) % 41u);
    if ((s >> 4) % 1000u == 7u) len = 3000 + (int)((s >> 12) % 3001u);
    rp[i + 1] = rp[i] + len;
  }
  int nnz = rp[n];
  int *col = malloc(sizeof(int) * ((size_t)nnz + 1));
  double *val = malloc(sizeof(double) * ((size_t)nnz + 1)), *x = malloc(sizeof(double) * (size_t)n);
  double *y = malloc(sizeof(double) * (size_t)n), *z = malloc(sizeof(double) * (size_t)n);
  double *w = malloc(sizeof(double) * (size_t)n), *p = malloc(sizeof(double) * (size_t)n);
  long *h = malloc(sizeof(long) * (size_t)n);
  for (int k = 0; k < nnz; k++) {
    s = s * 1664525u + 1013904223u;
    col[k] = (int)((s >> 7) % (unsigned)n);
    val[k] = (double)((int)(s >> 20) % 64 - 31) / 32.0; /* dyadic: sums are exact in any order */
  }
  for (int i = 0; i < n; i++) x[i] = (double)(i % 17) / 16.0;
  for (int k = 0; k < 1024; k++) weights[k] = (double)(k % 9) / 8.0;

  /* Flat loop calling the routines. */
#pragma acc parallel loop copyin(rp[0:n+1], col[0:nnz], val[0:nnz], x[0:n]) copyout(y[0:n], h[0:n])
  for (int i = 0; i < n; i++) {
    y[i] = clamp01(row_dot(rp, col, val, x, i) / 8.0 + 0.5);
    h[i] = mix_index(i) + row_len(rp, i);
  }

  /* A nested parallel loop whose inner body and After call routines. */
#pragma acc parallel loop gang copyin(rp[0:n+1], col[0:nnz], val[0:nnz], x[0:n]) copyout(z[0:n])
  for (int i = 0; i < n; i++) {
    double acc = 0.0;
#pragma acc loop vector reduction(+:acc)
    for (int j = rp[i]; j < rp[i + 1]; j++) acc += clamp01(val[j]) * x[col[j]];
    z[i] = acc + quarter_peaks(val, rp[i], rp[i + 1]);
  }

  /* OpenMP: the declare target functions and table. */
#pragma omp target update to(weights)
#pragma omp target teams distribute parallel for map(to: rp[0:n+1], val[0:nnz], weights) map(from: w[0:n])
  for (int i = 0; i < n; i++) w[i] = scaled(row_weighted(rp, val, i), 0.5);

#pragma omp target teams distribute map(to: rp[0:n+1], val[0:nnz]) map(from: p[0:n])
  for (int i = 0; i < n; i++) {
    double m = 0.0;
#pragma omp parallel for reduction(+:m)
    for (int j = rp[i]; j < rp[i + 1]; j++) m += scaled(val[j], (double)row_len(rp, i));
    p[i] = m;
  }

  double sy = 0, sz = 0, sw = 0, sp = 0;
  long sh = 0;
  for (int i = 0; i < n; i++) sy += y[i] * (double)(i % 7 + 1), sz += z[i], sw += w[i], sp += p[i], sh += h[i] * (i % 3);
  printf("n=%d nnz=%d\n", n, nnz);
  printf("y %.17g\nz %.17g\nw %.17g\np %.17g\nh=%ld\n", sy, sz, sw, sp, sh);
  printf("y[n/2] %.17g z[n-1] %.17g w[0] %.17g p[n/3] %.17g\n", y[n / 2], z[n - 1], w[0], p[n / 3]);
  return 0;
}
