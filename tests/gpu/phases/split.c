/* Host code that needs the tasks' data splits a task region into several
 * megakernels (transform/phases.c, HostSplit): the tasks recorded before
 * it run to completion and the data it names comes back to the host;
 * what it writes goes back to the device before the next tasks.
 *
 *   split [N [BS [STEPS [TOL]]]]     (defaults 100000 1000 200 1e-6)
 *
 * A convergence loop: per step, one task per block relaxes its block of u
 * towards the mean of its neighbours and stores the change in r[block];
 * after a taskwait the host sums r (a read), stops when the sum is below
 * TOL, and on some steps:
 *   - step 3 writes u on the host inside an if branch (a write, wrapped);
 *   - step 5 calls damp(), a function that reads and writes u and the
 *     global array w that the tasks also read (an opaque call);
 *   - every step reads u[0] into a local that the next tasks read (a
 *     declaration split: its value travels in the snapshot);
 *   - step 4 reads u through a pointer declared inside an if branch's
 *     block (not in scope where the split goes: u comes back instead);
 *   - for odd N, step 7 writes u and leaves the loop with break (the write
 *     must still reach the result).
 * The loop without taskwait before the sum also checks that the split
 * itself waits for the tasks. After the loop, a task sets r[0] and the
 * next task loop runs r[0] iterations (a split before the loop). Prints the step count, the last sum and
 * checksums of u. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double w[64];

/* Reads and writes u through its argument and reads the global w. */
static void damp(double *u, int n) {
  for (int i = 0; i < n; i++) u[i] = u[i] * (1.0 - w[i % 64]) + w[(i * 7) % 64];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000, bs = argc > 2 ? atoi(argv[2]) : 1000;
  int steps = argc > 3 ? atoi(argv[3]) : 200;
  double tol = argc > 4 ? atof(argv[4]) : 1e-6;
  if (argc > 5 || n < 0 || bs < 1 || steps < 0) {
    fprintf(stderr, "usage: split [N [BS [STEPS [TOL]]]]\n");
    return 2;
  }
  int nb = (n + bs - 1) / bs;
  double *u = malloc(sizeof(double) * ((size_t)n + 1)), *r = calloc((size_t)nb + 1, sizeof(double));
  if (!u || !r) return 1;
  for (int i = 0; i < n; i++) u[i] = (double)((i * 37) % 101) / 101.0;
  for (int i = 0; i < 64; i++) w[i] = 0.01 * (i % 5);
  double sum = -1.0, probe = 0.0;
  int t = 0;

#pragma omp target data map(tofrom: u[0:n+1], r[0:nb+1]) map(to: w)
#pragma omp parallel
#pragma omp single
  {
    double first = n > 0 ? u[0] : 0.0; /* before any task: a split with nothing to run */
    while (t < steps) {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: u[b*bs]) depend(out: r[b])
        {
          const int lo = b * bs, hi = lo + bs < n ? lo + bs : n;
          double ch = 0.0, prev = u[lo];
          for (int i = lo; i < hi; i++) {
            const double next = i + 1 < hi ? u[i + 1] : u[i];
            const double nu = 0.5 * u[i] + 0.25 * (prev + next) + 1e-3 * first * w[i % 64];
            prev = u[i];
            ch += fabs(nu - u[i]);
            u[i] = nu;
          }
          r[b] = ch;
        }
      }
      sum = 0.0; /* no taskwait: the split waits for the tasks */
      for (int b = 0; b < nb; b++) sum += r[b];
      t++;
      if (sum < tol) break;
      if (t == 3) {
        for (int i = 0; i < n; i += 97) u[i] = 1.0;
      }
      if (t == 5) damp(u, n);
      if (t == 4 && n > 0) { /* a pointer declared in the block: the split brings back what it points into */
        const double *row = &u[n / 2];
        probe = row[0] + 2.0 * row[n / 2 > 0 ? -1 : 0];
      }
      first = n > 0 ? u[0] : 0.0;
      if (t == 7 && n % 2 == 1) {
        u[1] = 2.5;
        break;
      }
    }
    /* a task loop whose trip count a task computes: its header needs the data */
#pragma omp task depend(out: r[0])
    r[0] = (double)(nb / 2 + t % 3);
    for (int b = 0; b < (int)r[0]; b++) {
#pragma omp task depend(inout: u[b*bs])
      for (int i = b * bs; i < b * bs + bs && i < n; i++) u[i] = 0.5 * u[i] + 1.0;
    }
  }

  double s = 0.0, ws = 0.0;
  for (int i = 0; i < n; i++) s += u[i], ws += u[i] * (double)(i % 7 + 1);
  printf("steps %d\nsum %.12e\nprobe %.12e\nu %.12e\nweighted %.12e\n", t, sum, probe, s, ws);
  free(u), free(r);
  return 0;
}
