/* Blocked explicit diffusion (the 1D heat equation) as OpenMP tasks.
 *
 *   heat [FORM [N [BS [STEPS]]]]
 *     FORM   taskwait (default) or depend
 *     N      cells (default 2^21), BS cells per block (default 4096),
 *     STEPS  time steps (default 100)
 *
 * Each step computes v = u + R (u[i-1] - 2 u[i] + u[i+1]) block by block
 * and copies v back to u, with fixed values at both ends. The whole time
 * loop is one task region: gtcc runs it in one persistent GPU kernel
 * (docs/tasks.md); the plain C build runs the tasks in program order.
 *
 *   taskwait  per step: a task loop of updates, taskwait, a task loop of
 *             copies, taskwait (two phases per step)
 *   depend    no taskwait at all: an update reads its own block and the
 *             edge cells of both neighbours, so it names the three blocks
 *             of u (in) and its block of v (out); a copy names its block of
 *             v (in) and of u (out). OpenMP's rules (RAW, WAR, WAW on each
 *             item, in creation order) then order exactly the tasks that
 *             touch the same cells, and step t+1 overlaps step t.
 *
 * Storage: u and v hold nb+2 blocks of BS cells; cell i (0 <= i < N) is
 * element BS + i, so block b of cells starts at element (b+1)*BS and the
 * neighbours' items u[b*BS] and u[(b+2)*BS] exist for every b (blocks 0
 * and nb+1 are guards that only hold the two boundary cells, which no task
 * writes). The last block may be partial.
 *
 * Prints the sum, a zero-mean weighted sum (sensitive to every block), the
 * sum of squares and sample cells with %.12e; tests compare them with
 * the CPU build (tests/gpu/run_gpu_tests.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double left_value = 1.0, right_value = -0.5;

/* Initial temperature of cell i: a deterministic pseudo-random value in [0, 1). */
static double initial(int i) {
  unsigned h = (unsigned)i * 2654435761u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (double)(h >> 8) / 16777216.0;
}

/* Cells of block b: min(bs, n - b*bs). */
static int block_len(int b, int bs, int n) {
  int rest = n - b * bs;
  return rest < bs ? rest : bs;
}

/* Two phases per step: all updates, then all copies. */
static void heat_taskwait(int n, int bs, int nb, int steps, double r, double *u, double *v) {
#pragma omp target data map(tofrom: u[0:(nb+2)*bs]) map(alloc: v[0:(nb+2)*bs])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: u[(b+1)*bs]) depend(out: v[(b+1)*bs])
      {
        const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
        for (int i = lo; i < hi; i++) v[i] = u[i] + r * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
      }
    }
#pragma omp taskwait
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: v[(b+1)*bs]) depend(out: u[(b+1)*bs])
      {
        const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
        for (int i = lo; i < hi; i++) u[i] = v[i];
      }
    }
#pragma omp taskwait
  }
}

/* No taskwait: individual dependences on the block and its two neighbours. */
static void heat_depend(int n, int bs, int nb, int steps, double r, double *u, double *v) {
#pragma omp target data map(tofrom: u[0:(nb+2)*bs]) map(alloc: v[0:(nb+2)*bs])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: u[b*bs], u[(b+1)*bs], u[(b+2)*bs]) depend(out: v[(b+1)*bs])
      {
        const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
        for (int i = lo; i < hi; i++) v[i] = u[i] + r * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
      }
    }
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: v[(b+1)*bs]) depend(out: u[(b+1)*bs])
      {
        const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
#pragma omp parallel for
        for (int i = lo; i < hi; i++) u[i] = v[i];
      }
    }
  }
}

static int usage(void) {
  fprintf(stderr, "usage: heat [taskwait|depend [N [BS [STEPS]]]]   (N >= 0, BS >= 1, STEPS >= 0)\n");
  return 2;
}

int main(int argc, char **argv) {
  const char *form = argc > 1 ? argv[1] : "taskwait";
  long nl = argc > 2 ? atol(argv[2]) : 1L << 21, bsl = argc > 3 ? atol(argv[3]) : 4096;
  int steps = argc > 4 ? atoi(argv[4]) : 100;
  int depend = strcmp(form, "depend") == 0;
  if (argc > 5 || (!depend && strcmp(form, "taskwait") != 0) || nl < 0 || bsl < 1 || steps < 0 ||
      nl + 2 * bsl > (1L << 30))
    return usage();
  int n = (int)nl, bs = (int)bsl, nb = (n + bs - 1) / bs;
  const double r = 0.3; /* R dt/dx^2 <= 1/2: stable */
  size_t len = (size_t)(nb + 2) * (size_t)bs;
  double *u = malloc(len * sizeof *u), *v = malloc(len * sizeof *v);
  if (!u || !v) {
    fprintf(stderr, "heat: out of memory (N=%d)\n", n);
    return 1;
  }
  for (size_t k = 0; k < len; k++) u[k] = v[k] = 0.0;
  for (int i = 0; i < n; i++) u[bs + i] = initial(i);
  u[bs - 1] = v[bs - 1] = left_value;
  u[bs + n] = v[bs + n] = right_value;

  if (depend)
    heat_depend(n, bs, nb, steps, r, u, v);
  else
    heat_taskwait(n, bs, nb, steps, r, u, v);

  double sum = 0.0, wsum = 0.0, sq = 0.0;
  for (int i = 0; i < n; i++) {
    double x = u[bs + i];
    sum += x;
    wsum += x * (double)(i % 7 - 3);
    sq += x * x;
  }
  printf("heat %s n %d bs %d blocks %d steps %d\n", form, n, bs, nb, steps);
  printf("sum %.12e wsum %.12e sq %.12e\n", sum, wsum, sq);
  if (n > 0)
    printf("u[0] %.12e u[n/3] %.12e u[n/2] %.12e u[n-1] %.12e\n", u[bs], u[bs + n / 3], u[bs + n / 2],
           u[bs + n - 1]);
  free(u);
  free(v);
  return 0;
}
