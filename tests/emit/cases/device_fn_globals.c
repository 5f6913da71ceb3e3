/* Globals that functions called from offload regions use: a scalar the host
 * sets, a struct of parameters, a lookup table, a const table, a histogram
 * and a counter the functions update atomically, a heap array reached through
 * a global pointer mapped by a data region, a global the region body uses too,
 * a table a function writes, and one function reaching a global through another. Flat loops, both bodies
 * of a nested parallel loop (CollectiveDP) and an OpenMP nest; the device
 * functions see the region's device copy, and what they write comes back.
 * Compared with the CPU build (every printed value is exact in any order). */
// expect-in-cu: static __device__ int *gt_dg_width;
// expect-in-cu: gt_dg_grid[i - 1]
// expect-in-cu: (*gt_dg_prm).scale
#include <stdio.h>
#include <stdlib.h>

struct params {
  double scale;
  int shift;
};

int width = 7;                      /* set again by main */
struct params prm = {0.5, 3};
double lut[256];
const double weights[4] = {0.25, 0.5, 1.0, 2.0};
long hist[64];
long long events;
double *grid;                       /* heap data, mapped by a data region */
int ngrid;

static double lookup(int k) { return lut[(k * width) & 255] * prm.scale; }

static int bucket(int k) { return (k + prm.shift) & 63; }

static void count(int k) {
  #pragma omp atomic
  hist[bucket(k)]++;
  #pragma omp atomic
  events += k & 1;
}

static double neighbours(int i) { /* through the global pointer */
  double l = i > 0 ? grid[i - 1] : 0.0, r = i + 1 < ngrid ? grid[i + 1] : 0.0;
  return l + r;
}

static double weigh(int i) { return weights[i & 3] * lookup(i); }

double saved[256];
static void store(int i, double v) {
  if (i < 256) saved[i] = v;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 400000;
  if (n < 4) n = 4;
  width = 13;
  prm.scale = 0.25;
  for (int k = 0; k < 256; k++) lut[k] = (double)(k % 11);
  ngrid = n;
  grid = malloc(sizeof(double) * (size_t)n);
  double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n);
  double *c = malloc(sizeof(double) * (size_t)n);
  int *rp = malloc(sizeof(int) * ((size_t)n + 1));
  for (int i = 0; i < n; i++) grid[i] = (double)(i % 9) * 0.5;
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 97 == 0 ? 3000 : i % 23); /* some rows for the NLK */
  int nnz = rp[n];

  /* Flat loop: table reads, atomic updates in a called function. */
#pragma acc parallel loop copyout(a[0:n])
  for (int i = 0; i < n; i++) {
    a[i] = lookup(i) + weigh(i) + width;
    count(i);
  }

  /* Nested: the inner body and After call functions that use globals. */
#pragma acc data copyin(grid[0:n])
  {
#pragma acc parallel loop gang copyin(rp[0:n+1]) copyout(b[0:n])
    for (int i = 0; i < n; i++) {
      double s = 0.0;
#pragma acc loop vector reduction(+:s)
      for (int j = rp[i]; j < rp[i + 1]; j++) s += lookup(j) * weights[j & 3];
      b[i] = s + neighbours(i);
    }
  }

  /* OpenMP nest; the device functions write a global table. */
#pragma omp target teams distribute map(to: grid[0:n], rp[0:n+1]) map(from: c[0:n])
  for (int i = 0; i < n; i++) {
    double m = 0.0;
#pragma omp parallel for reduction(+:m)
    for (int j = rp[i]; j < rp[i + 1]; j++) m += weigh(j);
    c[i] = m + neighbours(i) + width; /* the body reads a global the functions use */
    store(i, c[i]);
  }

  double sa = 0, sb = 0, sc = 0, sl = 0;
  long sh = 0;
  for (int i = 0; i < n; i++) sa += a[i], sb += b[i], sc += c[i];
  for (int k = 0; k < 256; k++) sl += saved[k];
  for (int k = 0; k < 64; k++) sh += hist[k] * (k + 1);
  printf("n=%d nnz=%d\n", n, nnz);
  printf("a %.17g\nb %.17g\nc %.17g\nsaved %.17g\n", sa, sb, sc, sl);
  printf("hist=%ld events=%lld h5=%ld\n", sh, events, hist[5]);
  return 0;
}
