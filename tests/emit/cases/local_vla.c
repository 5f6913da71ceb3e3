/* Locals of run-time size (`double v[n]`, `double m[n][k]`) in offload
 * regions: offload code gets their addresses as it would a parameter's.
 * With a data clause, and without one (the whole array, which sizeof gives,
 * is copied in and out, as for a fixed-size array). Flat, nested and task
 * regions; compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

static double run(int n, int k) {
  double v[n], m[n][k], u[n];
  int rp[n + 1];
  rp[0] = 0;
  for (int i = 0; i < n; i++) {
    v[i] = i % 7, u[i] = 1.0, rp[i + 1] = rp[i] + (i % 97 == 0 ? 3000 : i % 4);
    for (int j = 0; j < k; j++) m[i][j] = i + j;
  }
  int nnz = rp[n];
  double *w = malloc(sizeof(double) * (size_t)(nnz + 1));
  for (int j = 0; j < nnz; j++) w[j] = j % 3;
#pragma acc data copy(v[0:n], m[0:n][0:k]) copyin(rp[0:n+1], w[0:nnz])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; i++) v[i] += m[i][k - 1];
#pragma acc parallel loop // expect-in-cu: nested parallel loop (CollectiveDP
    for (int i = 0; i < n; i++) {
      double s = 0;
#pragma acc loop reduction(+:s)
      for (int j = rp[i]; j < rp[i + 1]; j++) s += w[j];
      m[i][0] = s;
    }
  }
#pragma acc parallel loop
  for (int i = 0; i < n; i++) u[i] += v[i] + m[i][k - 1];
  int nb = 8, bs = (n + nb - 1) / nb;
#pragma omp parallel
#pragma omp single
  for (int b = 1; b < nb; b++) {
#pragma omp task depend(in: u[(b - 1) * bs]) depend(out: u[b * bs])
    for (int i = b * bs; i < (b + 1) * bs && i < n; i++) u[i] += 0.5 * u[i - bs];
  }
  double t = 0;
  for (int i = 0; i < n; i++) t += v[i] + m[i][0] + u[i];
  free(w);
  return t;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000;
  if (n < 8) n = 8;
  printf("n %d: %.3f %.3f\n", n, run(n, 3), run(8, 1));
  return 0;
}
