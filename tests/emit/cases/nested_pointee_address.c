/* A Before local that is a pointer, whose pointees' addresses the inner
 * loop takes (`&e[k]`, `&e->w`): that is not the address of the local
 * itself, so the nest is lowered with CollectiveDP (it used to run its
 * inner loops sequentially). Rows of up to 20000 entries reach every tier;
 * compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

struct entry {
  int col;
  float w;
};

#pragma acc routine seq
static double weight(const struct entry *e, const double *x) { return e->w * x[e->col]; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 16;
  if (n < 1) n = 1;
  long *off = malloc(sizeof(long) * ((size_t)n + 1));
  off[0] = 0;
  for (int i = 0; i < n; i++) off[i + 1] = off[i] + (i % 4099 == 0 ? 20000 : i % 41 == 0 ? 300 : i % 9);
  long nnz = off[n];
  struct entry *ents = malloc(sizeof *ents * (size_t)(nnz > 0 ? nnz : 1));
  double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
  for (long j = 0; j < nnz; j++) ents[j].col = (int)((j * 7919) % n), ents[j].w = (float)(j % 5) - 2.0f;
  for (int i = 0; i < n; i++) x[i] = (double)(i % 11);
#pragma acc parallel loop copyin(off[0:n+1], ents[0:nnz], x[0:n]) copyout(y[0:n]) // expect-in-cu: nested parallel loop (CollectiveDP
  for (int i = 0; i < n; i++) {
    const struct entry *e = ents + off[i];
    int len = (int)(off[i + 1] - off[i]);
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int k = 0; k < len; k++) s += weight(&e[k], x) + (&e[k])->col % 3;
    y[i] = s + (len > 0 ? (double)(&e->w)[0] : 0.0);
  }
  double t = 0.0;
  for (int i = 0; i < n; i++) t += y[i];
  printf("n %d nnz %ld sum %.1f y0 %.1f\n", n, nnz, t, y[0]);
  return 0;
}
