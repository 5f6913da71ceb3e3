// nvcc-quiet
/* Struct layout the device must share with the host: `#pragma pack`
 * around a struct, and attributes after a typedef's or a struct's
 * declarator. The .gt.cu copies them, so the kernels read the copied
 * arrays with the host's layout and see the host's sizeof (written into
 * the output); compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

#pragma pack(push, 1)
struct packed_rec {
  char c;
  double d;
  int k;
};
#pragma pack(pop)

typedef double wide_double __attribute__((aligned(16)));
struct aligned_pair {
  int a;
  int b;
} __attribute__((aligned(16)));

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  if (n < 1) n = 1;
  struct packed_rec *p = malloc(sizeof *p * (size_t)n);
  struct aligned_pair *q = malloc(sizeof *q * (size_t)n);
  double *y = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) {
    p[i].c = (char)(i % 100), p[i].d = i * 0.5, p[i].k = i % 13;
    q[i].a = i % 7, q[i].b = i % 5;
  }
#pragma acc parallel loop copyin(p[0:n], q[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    wide_double t = p[i].d;
    y[i] = p[i].c + t + p[i].k + q[i].a * q[i].b + (double)sizeof(struct packed_rec) +
           (double)sizeof(struct aligned_pair) + (double)_Alignof(wide_double);
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += y[i];
  printf("n %d sum %.1f sizes %zu %zu\n", n, s, sizeof(struct packed_rec), sizeof(struct aligned_pair));
  return 0;
}
