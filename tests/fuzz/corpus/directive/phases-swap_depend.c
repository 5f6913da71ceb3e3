/* Double buffering with a pointer swap and no taskwait: steps overlap
 * through individual dependences (a 1D Jacobi-style smoother).
 *
 *   swap_depend [N [BS [STEPS]]]     (defaults 80000 800 60)
 *
 * The region declares its own pointers cur and nxt (so every task gets
 * their values when it is created, in the CPU build as on the GPU) and
 * swaps them after each step's task loop. Block b of nxt is computed from
 * blocks b-1, b, b+1 of cur: the task names those three blocks of cur (in)
 * and its block of nxt (out); two steps later the same buffer is written
 * again, after the readers of the step in between (WAR on the same items).
 * Storage: nb+2 blocks of BS cells per buffer, cell i at BS + i; blocks 0
 * and nb+1 are guards holding the fixed boundary cells. After the loop a
 * single task (after a taskwait) copies a few cells of the newest buffer
 * into probe[]. Prints checksums of both buffers and probe. */
#include <stdio.h>
#include <stdlib.h>

static int block_len(int b, int bs, int n) {
  int rest = n - b * bs;
  return rest < bs ? rest : bs;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 80000, bs = argc > 2 ? atoi(argv[2]) : 800;
  int steps = argc > 3 ? atoi(argv[3]) : 60;
  if (argc > 4 || n < 0 || bs < 1 || steps < 0) {
    fprintf(stderr, "usage: swap_depend [N [BS [STEPS]]]\n");
    return 2;
  }
  int nb = (n + bs - 1) / bs, len = (nb + 2) * bs;
  double *xa = calloc((size_t)len, sizeof(double)), *xb = calloc((size_t)len, sizeof(double));
  double *probe = calloc(4, sizeof(double));
  if (!xa || !xb || !probe) return 1;
  for (int i = 0; i < n; i++) xa[bs + i] = ((i * 11) % 31) * 0.03 - 0.4;
  xa[bs - 1] = xb[bs - 1] = 1.5;
  xa[bs + n] = xb[bs + n] = -0.75;

#pragma omp target data map(tofrom: xa[0:len], xb[0:len], probe[0:4])
#pragma omp parallel
#pragma omp single
  {
    double *cur = xa, *nxt = xb;
    for (int t = 0; t < steps; t++) {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: cur[b*bs], cur[(b+1)*bs], cur[(b+2)*bs]) depend(out: nxt[(b+1)*bs])
        {
          const int lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
          const double w = 0.2 + 0.01 * (t % 3);
#pragma omp parallel for
          for (int i = lo; i < hi; i++) nxt[i] = (1.0 - 2.0 * w) * cur[i] + w * (cur[i - 1] + cur[i + 1]);
        }
      }
      double *tmp = cur;
      cur = nxt;
      nxt = tmp;
    }
#pragma omp taskwait
#pragma omp task depend(out: probe[0])
    {
      probe[0] = n > 0 ? cur[bs] : 0.0;
      probe[1] = n > 0 ? cur[bs + n / 2] : 0.0;
      probe[2] = n > 0 ? cur[bs + n - 1] : 0.0;
      probe[3] = nxt[bs - 1] + cur[bs + n];
    }
  }

  const double *x = steps % 2 ? xb : xa, *y = steps % 2 ? xa : xb;
  double sx = 0.0, wx = 0.0, sy = 0.0;
  for (int i = 0; i < n; i++) sx += x[bs + i], wx += x[bs + i] * (double)(i % 5 + 1), sy += y[bs + i];
  printf("swap_depend n %d bs %d blocks %d steps %d\n", n, bs, nb, steps);
  printf("newest sum %.12e wsum %.12e previous sum %.12e\n", sx, wx, sy);
  printf("probe %.12e %.12e %.12e %.12e\n", probe[0], probe[1], probe[2], probe[3]);
  free(xa), free(xb), free(probe);
  return 0;
}
