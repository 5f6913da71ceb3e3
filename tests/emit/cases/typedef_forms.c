/* File-scope typedefs of structs, unions and enums (unnamed, tagged, of a
 * struct defined later, several declarators, const) used in offload
 * regions: the whole `typedef ...;` must reach the device code (it once
 * lost its `typedef`), with the typedef names spelled in kernel bodies and
 * in a function they call. Exact arithmetic: the output does not depend
 * on where it ran. */
#include <stdbool.h>
#include <stdio.h>

typedef struct { int x; float y; } pt_t;
typedef struct seg { pt_t a, b; } seg_t, *seg_ptr;
typedef struct node node_t; /* struct node is defined below */
struct node {
  int key;
  double w;
};
typedef union { float f; unsigned u; } bits_t;
typedef enum { LEFT = 1, RIGHT = 2 } side_t;
typedef const struct { double scale; } cfg_t;

#define N 1000

static double weight(const node_t *nd, side_t s) {
  node_t c = *nd;
  return c.w * (double)s + (double)c.key;
}

int main(void) {
  static pt_t pts[N];
  static seg_t segs[N];
  static node_t nodes[N];
  static double out[N];
  int n = N;
  for (int i = 0; i < n; i++) {
    pts[i].x = i;
    pts[i].y = 0.0f;
    segs[i].a.y = (float)(i % 7);
    segs[i].b.y = 0.5f * (float)(i % 3);
    nodes[i].key = i % 11;
    nodes[i].w = (double)(i % 13);
  }

#pragma omp target teams distribute parallel for map(tofrom: pts[0:n])
  for (int i = 0; i < n; i++) {
    pt_t p = pts[i];
    p.y = (float)p.x * 0.5f;
    pts[i] = p;
  }

#pragma acc parallel loop copyin(segs[0:n], nodes[0:n]) copyout(out[0:n])
  for (int i = 0; i < n; i++) {
    seg_ptr s = &segs[i];
    cfg_t cfg = {0.5}; /* (captured by value, this unnamed const struct trips nvcc's stub generator) */
    bits_t b;
    b.f = s->a.y + s->b.y;
    bool odd = (i & 1) != 0; /* stdbool's bool is no C++ keyword trouble */
    side_t side = odd ? RIGHT : LEFT;
    out[i] = weight(&nodes[i], side) + (double)b.f * cfg.scale;
  }

  double sy = 0.0, so = 0.0;
  for (int i = 0; i < n; i++) {
    sy += pts[i].y;
    so += out[i];
  }
  printf("pts y sum %.1f, out sum %.2f\n", sy, so);
  printf("pts[7].y %.1f, out[0] %.2f, out[5] %.2f, out[n-1] %.2f\n", pts[7].y, out[0], out[5], out[n - 1]);
  return 0;
}
