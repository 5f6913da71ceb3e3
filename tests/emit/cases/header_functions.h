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

/* called from the region: a device function, with clamp_index it calls */
static inline double scaled(double x, int k) { return x * WEIGHT(k) + clamp_index(k, 4); }

static stats_t stats_of(const double *a, long n) {
  stats_t s = {0, 0};
  for (long i = 0; i < n; i++) s.sum += a[i], s.max = a[i] > s.max ? a[i] : s.max;
  return s;
}
