/* The file's own headers define functions with C that C++ rejects (a
 * malloc without a cast, a parameter named `class`). nvcc reads the .gt.cu
 * as C++, and it included the headers whole: nvcc failed at the header's
 * line (probe nested7). The .gt.cu now holds them without the function
 * definitions the region does not call; those it calls (scaled, and
 * clamp_index and max through it) are device functions (they were "not
 * defined in this file"); max, named like CUDA's, is gt_c_max there (nvcc
 * found it defined twice: probe nested8). A nested header with `#pragma once`, and a guarded one
 * included twice. Compared with the CPU build. */
#include <stdio.h>
#include "header_functions.h"
#include "header_functions_types.h"
#include "header_functions.h"
#include "inc/hf_inner.h"

// expect-in-cu: #define HF_OFFSET 2 /* a header's */
// expect-in-cu: /inc/hf_scale.h"
// expect-in-cu: without the function definitions regions do not call
// expect-in-cu: __device__ static inline double scaled(
// expect-in-cu: __device__ static int clamp_index(
// expect-in-cu: __device__ static inline int gt_c_max(int a

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 500000;
  double *a = alloc_doubles(n), *b = alloc_doubles(n);
  for (long i = 0; i < n; i++) a[i] = (i % 1000) * 0.001;
  int k = next_of(clamp_index(5, 3)) + max(-1, 0);
#pragma acc parallel loop copyin(a[0:n]) copyout(b[0:n])
  for (long i = 0; i < n; i++) b[i] = scaled(a[i], (int)(i % 9) - 2) + k + max((int)(i % 4), 2);
  /* HF_OFFSET is the header's 2 here, 7 below */
#pragma acc parallel loop copy(b[0:n])
  for (long i = 0; i < n; i++) b[i] = hf_inner(b[i]) + HF_OFFSET;
#undef HF_OFFSET
#define HF_OFFSET 7
  _Pragma("acc data copy(b[0:n])")
#pragma acc parallel loop present(b[0:n])
  for (long i = 0; i < n; i++) b[i] = b[i] * 0.5 + HF_OFFSET;
  stats_t s = stats_of(b, n);
  printf("sum %.6e max %.6f k %d\n", s.sum, s.max, k);
  free(a), free(b);
  return 0;
}
