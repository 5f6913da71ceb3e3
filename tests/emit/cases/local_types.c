/* Types and enumerators declared inside a function, outside the offload
 * region that uses them: gtcc copies their declarations to the .gt.cu's
 * file scope (an error before: "declared inside a function").
 * - main: a local enum of constants (loop bounds, array sizes), a typedef,
 *   a struct whose field has that typedef (both move, in order), captured
 *   by value (the kernel's parameter type) and mapped as an array; a
 *   self-referential struct declared in the region's function;
 * - a nested loop (CollectiveDP) whose inner bound is a local enumerator;
 * - a task region of another function with its own local struct;
 * - C that C++ rejects in a device function: `static` and qualifiers in a
 *   parameter's brackets, `char s[3] = "abc"` (no room for the NUL).
 * Compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

static int tag_sum(const double a[static 2], const int w[restrict const 2]) {
  char s[3] = "a\x62" "c";
  char t[4] = "xyz";
  return (int)a[0] + (int)a[1] + w[0] * s[0] + w[1] * s[2] + t[3] + (int)sizeof s;
}

static long task_part(int nb, const int *v, long *out) {
  struct span { int lo, hi; long scale; };
  const struct span whole = {0, 64, 3};
#pragma omp target data map(to: v[0:nb * 64]) map(from: out[0:nb])
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < nb; b++) {
#pragma omp task depend(out: out[b]) firstprivate(b)
    {
      struct span s = {b * whole.hi, (b + 1) * whole.hi, whole.scale};
      long acc = 0;
      for (int i = s.lo; i < s.hi; i++) acc += (long)v[i] * s.scale;
      out[b] = acc;
    }
  }
  long sum = 0;
  for (int b = 0; b < nb; b++) sum += out[b] * (b + 1);
  return sum;
}

int main(int argc, char **argv) {
  enum { NSL = 8, WIDE = 3000, SCALE = 3 };
  typedef double real;
  struct pt { real x, y; int k; };
  struct node { int v; struct node *next; };
  int n = argc > 1 ? atoi(argv[1]) : 40000;
  struct pt *pts = malloc(sizeof(struct pt) * (size_t)n);
  real *y = malloc(sizeof(real) * (size_t)n), *z = malloc(sizeof(real) * (size_t)n);
  int *h = malloc(sizeof(int) * (size_t)n);
  int *v = malloc(sizeof(int) * (size_t)WIDE * 64);
  long *out = malloc(sizeof(long) * WIDE);
  if (!pts || !y || !z || !h || !v || !out) return 1;
  for (int i = 0; i < n; i++) pts[i] = (struct pt){i * 0.25, (i % 17) * 0.5, i % 5};
  for (int i = 0; i < WIDE * 64; i++) v[i] = (i * 37) % 101 - 50;
  const struct pt c0 = {1.5, -2.0, 7};

#pragma acc parallel loop copyin(pts[0:n]) copyout(y[0:n], h[0:n])
  for (int i = 0; i < n; i++) {
    real acc[NSL];
    struct node nd = {i % SCALE, NULL};
    double w[2] = {pts[i].x, pts[i].y};
    int k[2] = {pts[i].k, c0.k};
    for (int s = 0; s < NSL; s++) acc[s] = pts[i].x * s + c0.x * pts[i].y;
    y[i] = acc[NSL - 1] - acc[0] + c0.y + nd.v;
    h[i] = tag_sum(w, k) + (nd.next == NULL);
  }

  /* rows i % 50 == 0 are long (WIDE): buffered for the next-level kernel */
#pragma acc parallel loop copyin(pts[0:n]) copyout(z[0:n])
  for (int i = 0; i < n; i++) {
    const int len = i % 50 == 0 ? WIDE : i % 40;
    real sum = 0.0;
#pragma acc loop reduction(+:sum)
    for (int j = 0; j < len; j++) sum += pts[(i + j) % n].y * SCALE;
    z[i] = sum;
  }

  double sy = 0.0, sz = 0.0;
  long sh = 0;
  for (int i = 0; i < n; i++) sy += y[i] * (i % 7 + 1), sz += z[i], sh += h[i] * (long)(i % 3 + 1);
  printf("y %.17g\nz %.17g\nh %ld\n", sy, sz, sh);
  printf("tasks %ld\n", task_part(WIDE, v, out));
  free(pts), free(y), free(z), free(h), free(v), free(out);
  return 0;
}
