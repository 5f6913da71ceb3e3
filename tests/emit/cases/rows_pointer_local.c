/* Locals of type pointer to rows of constant size (`double (*q)[4]`) set
 * from a mapped pointer of that type in offload code: the kernel gets the
 * mapped pointer as a view, which converts back to C's pointer type
 * (nvcc rejected `double (*q)[4] = Q + i` before, found by a probe). Through
 * `Q + i`, `&Q[i]`, assignment and `+=`, to a pointer to const rows and
 * passed to a function; flat and nested regions, and saved in the context
 * of a nest. Compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

static double first(const double (*r)[4], int c) { return r[0][c]; }

static void run(int n, double (*Q)[4], const int *rp, double *o) {
#pragma acc parallel loop copyin(Q[0:n], rp[0:n+1]) copyout(o[0:n])
  for (int i = 0; i < n; i++) {
    double (*q)[4] = Q + i;
    const double (*r)[4] = &Q[i];
    double (*u)[4];
    u = Q;
    u += i;
    o[i] = q[0][i & 3] + 2 * r[0][(i + 1) & 3] + 3 * u[0][(i + 2) & 3] + first(q, 3);
  }
#pragma acc parallel loop copyin(Q[0:n], rp[0:n+1]) copy(o[0:n]) // expect-in-cu: nested parallel loop (CollectiveDP
  for (int i = 0; i < n; i++) {
    double s = 0;
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) {
      const double (*w)[4] = Q + (j % n);
      s += w[0][j & 3];
    }
    o[i] += s;
  }
  /* a Before local of that type is saved in the context (as a view) */
#pragma acc parallel loop copyin(Q[0:n], rp[0:n+1]) copy(o[0:n]) // expect-in-cu: gtrt_vla1<const double> q;
  for (int i = 0; i < n; i++) {
    const double (*q)[4] = Q + i;
    double s = 0;
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += q[0][j & 3] * first(q, (j + 1) & 3);
    o[i] += s + q[0][0];
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000;
  if (n < 1 || n > (1 << 22)) return 2;
  double (*Q)[4] = malloc(sizeof(double[4]) * (size_t)n);
  int *rp = malloc(sizeof(int) * (size_t)(n + 1));
  double *o = malloc(sizeof(double) * (size_t)n);
  rp[0] = 0;
  for (int k = 0; k < n; k++) {
    for (int c = 0; c < 4; c++) Q[k][c] = (k + c) % 5;
    rp[k + 1] = rp[k] + (k % 211 == 0 ? 5000 : k % 5);
  }
  run(n, Q, rp, o);
  double c = 0;
  for (int i = 0; i < n; i++) c += o[i] * (i % 7 + 1);
  printf("n %d: %.12g\n", n, c);
  free(Q), free(rp), free(o);
  return 0;
}
