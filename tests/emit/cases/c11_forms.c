/* C spellings that CUDA C++ writes otherwise, in device code: gtcc respells
 * them in the .gt.cu (nvcc errors before, or a different value):
 * _Static_assert, _Alignas, _Alignof, _Noreturn, `auto` as a storage class,
 * __func__ (in a kernel it named the kernel, not the function), and types
 * of the file named like CUDA's vector types (a typedef float2, a struct
 * tag float3: "type float2 has already been defined"). Compared with the
 * CPU build. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { double x, y; } float2; /* not CUDA's float2: doubles */
struct float3 { int a, b, c; };

_Noreturn static void stop(void) { for (;;) {} }

static double dot2(float2 p, float2 q) { return p.x * q.x + p.y * q.y; }

static int name_sum(const char *s) {
  int h = 0;
  for (; *s; s++) h = h * 31 + *s;
  return h;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 50000;
  double *y = malloc(sizeof(double) * (size_t)n);
  int *h = malloc(sizeof(int) * (size_t)n);
  if (!y || !h) return 1;
  float2 c0 = {0.25, 0.5}; /* captured by value: the kernel's parameter has the file's type */
  struct float3 *t0 = malloc(sizeof(struct float3));
  if (!t0) return 1;
  t0->a = 3, t0->b = 4, t0->c = 5;
#pragma acc parallel loop copyout(y[0:n], h[0:n]) copyin(t0[0:1])
  for (int i = 0; i < n; i++) {
    _Static_assert(sizeof(float2) == 16, "two doubles");
    _Alignas(16) double buf[2] = {i * 0.5, 1.0};
    auto int k = i % 7;
    float2 p = {buf[0], buf[1]}, q = {2.0, (double)k};
    struct float3 t = {i, k, (int)_Alignof(double)};
    if (i < 0) stop();
    y[i] = dot2(p, q) + t.a + t.b * 10 + t.c * 100 + dot2(c0, p) + t0->b;
    h[i] = name_sum(__func__) + (int)sizeof(__func__);
  }
  double s = 0;
  long hs = 0;
  for (int i = 0; i < n; i++) s += y[i], hs += h[i];
  printf("y %.12e %.12e\nh %ld %d (%s)\n", s, y[n - 1], hs, h[0], __func__);
  free(y), free(h);
  return 0;
}
