/* A header of the program's own with C that C++ rejects inside its
 * functions (header_functions.c). */
#pragma once
#include <stdlib.h>
#include "header_functions_types.h"

static double *alloc_doubles(long n) {
  double *p = malloc(sizeof(double) * (size_t)n); /* C: no cast from void * */
  if (!p) exit(1);
  return p;
}

static inline int next_of(int class) { return class + 1; }

/* named like CUDA's max (C allows it without <math.h>): gt_c_max in the .gt.cu */
static inline int max(int a, int b) { return a > b ? a : b; }

/* called from the region: a device function, with clamp_index and max it calls */
static inline double scaled(double x, int k) { return x * WEIGHT(k) + clamp_index(k, 4) + max(k, 3); }

static stats_t stats_of(const double *a, long n) {
  stats_t s = {0, 0};
  for (long i = 0; i < n; i++) s.sum += a[i], s.max = a[i] > s.max ? a[i] : s.max;
  return s;
}
