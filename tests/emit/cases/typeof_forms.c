/* Variables declared with typeof / __typeof__ captured by a flat loop, a
 * nested loop's context and a phased task region's snapshot. Generated code
 * declared them with their written type, `typeof (n) k`, where n is not in
 * scope (nvcc: identifier "n" is undefined); the type is now written as what
 * it stands for. Compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>
typedef struct { double w; int k; } par_t;
int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 2000, n = nb * 100;
  double *a = malloc(sizeof(double) * n);
  __typeof__(a) p = a;
  __typeof__(n) k = 3;
  typeof(a[0]) s = 2.0;
  par_t pr = {1.5, 2};
  __typeof__(pr) q = pr;
  const __typeof__(q.w) cw = 0.5;
  int *rp = malloc(sizeof(int) * (size_t)(nb + 1));
  for (int i = 0; i <= nb; i++) rp[i] = i * 100;
#pragma acc parallel loop copyout(p[0:n]) copyin(rp[0:nb+1])
  for (int r = 0; r < nb; r++) {
    __typeof__(s) base = s * r + k + q.w * cw;
#pragma acc loop
    for (int i = rp[r]; i < rp[r + 1]; i++) p[i] = base + i;
  }
#pragma omp target data map(tofrom: a[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < 3; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: a[b * 100])
      for (int i = b * 100; i < b * 100 + 100; i++) a[i] += s * q.k + t;
    }
#pragma omp taskwait
    s += 1.0;
  }
  double sum = 0;
  for (int i = 0; i < n; i++) sum += a[i];
  printf("%.12e %.12e\n", sum, p[n / 2]);
  return 0;
}
