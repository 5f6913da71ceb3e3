/* Host reads and writes written with pointer arithmetic instead of
 * subscripts: s += *(u + probe), (u + off)[j], *(u + src) += 1.0. Each needs
 * the tasks' data exactly as u[probe] would (a split before it), and the
 * write must reach the device and the copy-out.
 *
 *   split_ptr_arith [N [BS [STEPS [K]]]]   (defaults 20000 200 60 5) */
#include <stdio.h>
#include <stdlib.h>

static void checksum(const char *name, const double *x, int n) {
  double s = 0.0, w = 0.0;
  for (int i = 0; i < n; i++) s += x[i], w += x[i] * (double)(i % 7 + 1);
  printf("%s sum %.12e weighted %.12e\n", name, s, w);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000, bs = argc > 2 ? atoi(argv[2]) : 200;
  int steps = argc > 3 ? atoi(argv[3]) : 60, k = argc > 4 ? atoi(argv[4]) : 5;
  if (n < 16 || bs < 1 || steps < 0 || k < 1) return 2;
  int nb = (n + bs - 1) / bs, probe = n / 2 + 1, off = n / 4, src = n / 3;
  double *u = malloc(sizeof(double) * (size_t)n), *v = malloc(sizeof(double) * (size_t)n);
  if (!u || !v) return 1;
  for (int i = 0; i < n; i++) u[i] = v[i] = (double)(i % 10) / 10.0;
  double s = 0.0, w = 0.0;

#pragma omp target data map(tofrom: u[0:n], v[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: u[b*bs]) depend(out: v[b*bs])
      for (int i = b * bs; i < b * bs + bs && i < n; i++)
        v[i] = 0.5 * u[i] + 0.25 * ((i > 0 ? u[i - 1] : u[i]) + (i + 1 < n ? u[i + 1] : u[i]));
    }
#pragma omp taskwait
    double *tmp = u;
    u = v;
    v = tmp;
    s += *(u + probe);
    if (t % k == 0) {
      for (int j = 0; j < 4; j++) w += (u + off)[j] * (j + 1);
      *(u + src) += 1.0;
    }
  }
  printf("s %.12e\nw %.12e\n", s, w);
  checksum("u", u, n);
  checksum("v", v, n);
  free(u), free(v);
  return 0;
}
