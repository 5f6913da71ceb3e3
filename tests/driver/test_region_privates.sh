# private / firstprivate on the omp parallel / single around tasks: the
# region's host code works on its own copies, so the variables keep their
# values after the region, as in an OpenMP build (cc -fopenmp), while the
# tasks see the values the region's code gives them.
. "$(dirname "$0")/lib.sh"
cat >rp.c <<'C'
#include <stdio.h>
#include <stdlib.h>
struct state { int k; double w; };
int main(void) {
  int nb = 64, bs = 128, n = nb * bs, steps = 10;
  double *u = malloc(n * sizeof(double)), *v = malloc(n * sizeof(double));
  char tok[66];
  for (int i = 0; i < n; i++) u[i] = i % 9;
  double c = 0.5;
  int step = -7;
  struct state st = {3, 2.0};
#pragma omp target data map(tofrom: u[0:n], v[0:n])
#pragma omp parallel firstprivate(c, st) private(step)
#pragma omp single
  for (step = 0; step < steps; step++) {
    c = c * 0.9;
    st.k += 1;
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: tok[b], tok[b+2]) depend(out: tok[b+1])
      for (int i = b * bs; i < (b + 1) * bs; i++) v[i] = u[i] * c + (i > 0 ? u[i - 1] : 0) + st.k;
    }
#pragma omp taskwait
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: tok[b+1]) depend(out: tok[b])
      for (int i = b * bs; i < (b + 1) * bs; i++) u[i] = v[i] * 0.5;
    }
#pragma omp taskwait
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += u[i];
  printf("c %g step %d k %d s %.17g\n", c, step, st.k, s);
  return 0;
}
C
run_gtcc rp.c -o rp
expect_rc 0 "rp.c -o rp"
cc -fopenmp rp.c -o rp_omp || fail "cc -fopenmp failed"
want=$(OMP_NUM_THREADS=4 ./rp_omp)
case $want in "c 0.5 step -7 k 3 "*) ;; *) fail "the OpenMP build printed '$want'" ;; esac
got=$(./rp 2>/dev/null)
[ "$got" = "$want" ] || fail "./rp printed '$got', the OpenMP build '$want'"
