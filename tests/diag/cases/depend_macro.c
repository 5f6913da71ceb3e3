// expect: 12:29: error: 'FIRST' in depend is not a variable declared before the task (it is a macro
// Depend items are read as written: a macro there is named as one (probe
// phases8: the message said only "not a variable").
#define FIRST tk[0]
void f(int nb, long *v, char *tk) {
#pragma omp target data map(tofrom: v[0:nb]) map(to: tk[0:nb+2])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < 3; t++)
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: tk[b+1]) \
                 depend(in: FIRST)
      v[b] = (v[b] * 5 + b + t) % 10007;
    }
}
