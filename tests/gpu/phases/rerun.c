/* One depend-only task region run many times in one process. The runtime
 * keeps the last plan's depend items and graph (the plan memo) and, from a
 * region's third run with exactly the same items, borrows that graph
 * instead of building one; any difference builds again. Between the runs
 * of the same sweep come runs with a wider halo (other items: task b then
 * also waits for blocks b-2 and b+2), fewer blocks, and more steps, each
 * of which must get its own graph. Every run's checksums are printed; the
 * CPU build (pragmas ignored) must agree.
 *
 *   rerun [NB [BS [STEPS [RUNS]]]]     (defaults 64 32 50 4)
 *
 * Block b of the NB blocks lies at [(b+H)*BS, (b+H+1)*BS) with H guard
 * blocks on each side; H = 1 or 2 (the halo in blocks). */
#include <stdio.h>
#include <stdlib.h>

static void sweep(double *u, double *v, int nb, int bs, int steps, int h) {
  const int n = (nb + 2 * h) * bs;
#pragma omp target data map(tofrom: u[0:n]) map(alloc: v[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: u[b*bs], u[(b+h)*bs], u[(b+2*h)*bs]) depend(out: v[(b+h)*bs])
      {
        const int lo = (b + h) * bs, d = h * bs;
#pragma omp parallel for
        for (int i = lo; i < lo + bs; i++) v[i] = (u[i - d] + u[i] + u[i + d]) * (1.0 / 3.0) + 1e-3 * (t % 7);
      }
    }
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: v[(b+h)*bs]) depend(out: u[(b+h)*bs])
      {
        const int lo = (b + h) * bs;
#pragma omp parallel for
        for (int i = lo; i < lo + bs; i++) u[i] = v[i];
      }
    }
  }
}

static void run(double *u, double *v, int nb, int bs, int steps, int h, int k) {
  const int n = (nb + 2 * h) * bs;
  for (int i = 0; i < n; i++) u[i] = v[i] = (double)((i * 7 + k) % 31) * 0.125;
  sweep(u, v, nb, bs, steps, h);
  double s = 0, w = 0;
  for (int i = 0; i < n; i++) s += u[i], w += u[i] * (i % 13);
  printf("run %d: nb %d bs %d steps %d halo %d: sum %.12g w %.12g mid %.12g\n", k, nb, bs, steps, h, s, w,
         n ? u[n / 2] : 0.0);
}

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 64, bs = argc > 2 ? atoi(argv[2]) : 32;
  int steps = argc > 3 ? atoi(argv[3]) : 50, runs = argc > 4 ? atoi(argv[4]) : 4;
  if (argc > 5 || nb < 1 || bs < 1 || steps < 0 || runs < 0) {
    fprintf(stderr, "usage: rerun [NB [BS [STEPS [RUNS]]]]\n");
    return 2;
  }
  double *u = malloc(sizeof(double) * (size_t)(nb + 4) * bs), *v = malloc(sizeof(double) * (size_t)(nb + 4) * bs);
  if (!u || !v)
    return 1;
  int k = 0;
  for (int r = 0; r < runs; r++)
    run(u, v, nb, bs, steps, 1, k++); /* the same items: from the third run the graph is borrowed */
  run(u, v, nb, bs, steps, 2, k++);   /* a wider halo: other items */
  run(u, v, nb, bs, steps, 2, k++);
  run(u, v, nb, bs, steps, 2, k++);   /* borrowed again */
  run(u, v, nb, bs, steps, 1, k++);
  run(u, v, nb > 1 ? nb / 2 : 1, bs, steps, 1, k++); /* fewer blocks */
  run(u, v, nb, bs, steps + 1, 1, k++);               /* one more step */
  run(u, v, nb, bs, steps, 1, k++);
  run(u, v, nb, bs, steps, 1, k++);
  free(u);
  free(v);
  return 0;
}
