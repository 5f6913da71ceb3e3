// expect: 27:11: error: 'acc' is shared by the tasks and written by them
// only-expected
/* `&c` passed to a pointer-to-const parameter only reads c: the tasks may
 * share it (read_forms). Passed to a plain pointer parameter, the callee may
 * write through it: that is a write of a shared scalar. */
struct coef { double a, b; };
static double apply(const struct coef *c, double x) { return c->a * x + c->b; }
static double scaled(const double *s, double x) { return *s * x; }
static void bump(double *s, double x) { *s += x; }

void read_forms(double *x, int nb, struct coef c, double s) {
#pragma omp target data map(tofrom: x[0:nb])
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: x[b])
    x[b] = apply(&c, x[b]) + scaled(&s, x[b]) + scaled((&c.a), 1.0);
  }
}

void write_form(double *x, int nb, double acc) {
#pragma omp target data map(tofrom: x[0:nb])
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: x[b])
    bump(&acc, x[b]);
  }
}
