/* Host code between phases that changes struct and union members: every
 * task must see the members as they were when it was created (OpenMP
 * firstprivate), not their final values. gtcc once missed member writes
 * (`p.k *= 2`) and passed the struct once, after the whole host walk.
 *
 *   host_members [N [BS [STEPS]]]     (defaults 100000 1000 40)
 *
 * Each step, one task per block adds a term built from a local struct p,
 * a union u and a global struct g to its block of x; after a taskwait the
 * host code changes one member of each. Also takes an element's address
 * in host code (`double *row = &x[...]`: a pointer value, no access).
 * Prints checksums of x. */
#include <stdio.h>
#include <stdlib.h>

struct params {
  double k;
  int j;
};
union bits {
  double d;
  long long i;
};
struct glob {
  double a, b;
};
struct glob g = {0.5, -0.25};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000, bs = argc > 2 ? atoi(argv[2]) : 1000;
  int steps = argc > 3 ? atoi(argv[3]) : 40;
  if (argc > 4 || n < 0 || bs < 1 || steps < 0) {
    fprintf(stderr, "usage: host_members [N [BS [STEPS]]]\n");
    return 2;
  }
  int nb = (n + bs - 1) / bs;
  double *x = calloc((size_t)n + 1, sizeof(double));
  if (!x) return 1;
  struct params p = {1.0, 0};
  union bits u;
  u.d = 0.125;

#pragma omp target data map(tofrom: x[0:n+1])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: x[b*bs])
      {
        const int lo = b * bs, hi = lo + bs < n ? lo + bs : n;
        for (int i = lo; i < hi; i++) x[i] += p.k * 1e-3 + p.j + u.d * (i % 5) + g.a - g.b * t;
      }
    }
#pragma omp taskwait
    p.k = p.k * 1.5 - 0.25;
    p.j++;
    u.d = u.d * 0.5 + 0.0625 * (t % 3);
    g.a += 0.01;
    double *row = &x[nb ? (t % nb) * bs : 0]; /* the item of block t % nb: ordered with its tasks */
#pragma omp task depend(inout: row[0])
    row[0] += 1.0;
  }

  double s = 0, w = 0;
  for (int i = 0; i <= n; i++) {
    s += x[i];
    w += x[i] * (i % 13 + 1);
  }
  printf("host_members n %d bs %d steps %d\n", n, bs, steps);
  printf("sum %.12g weighted %.12g x[0] %.12g x[n/2] %.12g\n", s, w, x[0], n ? x[n / 2] : 0.0);
  printf("p %.12g %d u %.12g g %.12g\n", p.k, p.j, u.d, g.a);
  free(x);
  return 0;
}
