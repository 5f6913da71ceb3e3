/* Several task types in one phase, ordered only by depend clauses across
 * types and across steps (no taskwait at all), and single tasks with depend.
 *
 *   multi_type [N [BS [STEPS]]]     (defaults 60000 600 40)
 *
 * Before the loop a single task sets acc[0]. Per step t:
 *   A (task loop, parallel loop)  a = 0.9 z + c(t)              in z[b], out a[b]
 *   B (task loop, function call)  y = a + 0.5 * a(first cell of block b+1)
 *                                                               in a[b], a[b+1], out y[b]
 *   C (single task)               acc[t+1] = 0.5 acc[t] + y(first cell) - y(last cell)
 *                                                               in y[0], y[nb-1], acc[t], out acc[t+1]
 *   D (task loop, plain loop)     z += 0.1 y - 0.2 z            in y[b], inout z[b]
 * (x[b] stands for x[b*BS].) Arrays hold nb+1 blocks so that a[(b+1)*BS]
 * exists for the last block; that block is never written. Prints checksums
 * of z, y and acc. */
#include <stdio.h>
#include <stdlib.h>

static int block_len(int b, int bs, int n) {
  int rest = n - b * bs;
  return rest < bs ? rest : bs;
}

/* type B: block b of y from block b of a and the first cell of block b+1 */
static void mix_block(const double *a, double *y, int b, int bs, int n) {
  const int lo = b * bs, hi = lo + block_len(b, bs, n);
  const double next = hi < n ? a[hi] : 0.0;
  for (int i = lo; i < hi; i++) y[i] = a[i] + 0.5 * next;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 60000, bs = argc > 2 ? atoi(argv[2]) : 600;
  int steps = argc > 3 ? atoi(argv[3]) : 40;
  if (argc > 4 || n < 0 || bs < 1 || steps < 0) {
    fprintf(stderr, "usage: multi_type [N [BS [STEPS]]]\n");
    return 2;
  }
  int nb = (n + bs - 1) / bs, len = (nb + 1) * bs;
  double *z = malloc(sizeof(double) * (size_t)len), *a = malloc(sizeof(double) * (size_t)len);
  double *y = malloc(sizeof(double) * (size_t)len), *acc = calloc((size_t)steps + 2, sizeof(double));
  if (!z || !a || !y || !acc) return 1;
  for (int i = 0; i < len; i++) z[i] = ((i * 37) % 101) * 0.01, a[i] = y[i] = 0.0;

#pragma omp target data map(tofrom: z[0:len], a[0:len], y[0:len], acc[0:steps+2])
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out: acc[0])
    acc[0] = 1.0;
    for (int t = 0; t < steps; t++) {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: z[b*bs]) depend(out: a[b*bs])
        {
          const int lo = b * bs, hi = lo + block_len(b, bs, n);
          const double c = 0.05 * (t % 7) - 0.1;
#pragma omp parallel for
          for (int i = lo; i < hi; i++) a[i] = 0.9 * z[i] + c;
        }
      }
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: a[b*bs], a[(b+1)*bs]) depend(out: y[b*bs])
        mix_block(a, y, b, bs, n);
      }
      if (nb > 0) {
#pragma omp task depend(in: y[0], y[(nb-1)*bs], acc[t]) depend(out: acc[t+1])
        acc[t + 1] = 0.5 * acc[t] + y[0] - y[n - 1];
      }
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: y[b*bs]) depend(inout: z[b*bs])
        for (int i = b * bs; i < b * bs + block_len(b, bs, n); i++) z[i] += 0.1 * y[i] - 0.2 * z[i];
      }
    }
  }

  double sz = 0.0, wz = 0.0, sy = 0.0, sacc = 0.0;
  for (int i = 0; i < n; i++) sz += z[i], wz += z[i] * (double)(i % 9 + 1), sy += y[i];
  for (int t = 0; t <= steps; t++) sacc += acc[t] * (double)(t % 3 + 1);
  printf("multi_type n %d bs %d blocks %d steps %d\n", n, bs, nb, steps);
  printf("z sum %.12e wsum %.12e y sum %.12e acc %.12e last %.12e\n", sz, wz, sy, sacc, acc[steps]);
  if (n > 0) printf("z[0] %.12e z[n-1] %.12e\n", z[0], z[n - 1]);
  free(z), free(a), free(y), free(acc);
  return 0;
}
