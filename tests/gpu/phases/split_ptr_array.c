/* Two fields kept in an array of pointers (double *f[2] = {rho, e}), as a
 * multi-field code does: tasks update both fields per block; between steps
 * the host reads through the array of pointers (f[1][i]) to compute a
 * diagnostic and writes a floor value through it (f[0][i] = ...).
 *
 *   split_ptr_array [N [BS [STEPS]]]   (defaults 16000 200 40) */
#include <stdio.h>
#include <stdlib.h>

static void checksum(const char *name, const double *x, int n) {
  double s = 0.0, w = 0.0;
  for (int i = 0; i < n; i++) s += x[i], w += x[i] * (double)(i % 7 + 1);
  printf("%s sum %.12e weighted %.12e\n", name, s, w);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 16000, bs = argc > 2 ? atoi(argv[2]) : 200;
  int steps = argc > 3 ? atoi(argv[3]) : 40;
  if (n < 2 || bs < 1 || steps < 0) return 2;
  int nb = (n + bs - 1) / bs;
  double *rho = malloc(sizeof(double) * (size_t)n), *e = malloc(sizeof(double) * (size_t)n);
  if (!rho || !e) return 1;
  for (int i = 0; i < n; i++) rho[i] = 1.0 + (double)(i % 9) / 9.0, e[i] = 2.0 - (double)(i % 5) / 5.0;
  double *f[2] = {rho, e};
  double diag = 0.0;

#pragma omp target data map(tofrom: rho[0:n], e[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: rho[b*bs], e[b*bs])
      for (int i = b * bs; i < b * bs + bs && i < n; i++) {
        const double flux = 0.1 * (e[i] - rho[i]);
        rho[i] += flux;
        e[i] -= 0.5 * flux + 0.02 * e[i];
      }
    }
#pragma omp taskwait
    double d = 0.0;
    for (int i = 0; i < n; i += 97) d += f[1][i] / f[0][i];
    diag += d;
    for (int i = 0; i < n; i += 101) f[1][i] = f[1][i] < 0.5 ? 0.5 : f[1][i];
  }
  printf("diag %.12e\n", diag);
  checksum("rho", rho, n);
  checksum("e", e, n);
  free(rho), free(e);
  return 0;
}
