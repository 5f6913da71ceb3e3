// expect: 13:5: error: the 'acc parallel loop' region reads a pointer stored in 'g' (a pointer member)
// expect: 21:50: error: the 'acc parallel loop' region reads a pointer stored in 'sp' (a pointer member)
// expect: 32:17: error: the 'omp task region' region reads a pointer stored in 'h' (a pointer member)
// only-expected
/* A struct's bytes reach the device, but a pointer stored in them is still
 * a host address there. Array and scalar members are fine (ok_forms). */
struct grid { double *cnt; int n; double w[4]; };

void flat(struct grid g, double *y, int n) {
#pragma acc parallel loop copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = g.w[i % 4] + g.n +
    g.cnt[i];
}

void nested(const struct grid *sp, double *y, const int *rp, int n) {
#pragma acc parallel loop copy(y[0:n]) copyin(rp[0:n+1], sp[0:1])
  for (int i = 0; i < n; i++) {
    double s = 0;
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += sp->cnt[j];
    y[i] = s;
  }
}

void tasks(struct grid h, double *x, int nb) {
#pragma omp target data map(tofrom: x[0:nb])
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: x[b])
      x[b] += *(h.cnt + b);
  }
}

void ok_forms(struct grid g, double *y, int n) {
  double *c = g.cnt; /* copied out of the struct before the region: c is translated */
  struct grid p;
#pragma acc parallel loop copy(y[0:n]) copyin(c[0:n]) private(p)
  for (int i = 0; i < n; i++) {
    struct grid l = {c, 1, {0, 0, 0, 0}}; /* the region's own struct */
    p.cnt = c;
    y[i] = c[i] + g.w[i % 4] + g.n + l.cnt[i] + p.cnt[i];
  }
}
