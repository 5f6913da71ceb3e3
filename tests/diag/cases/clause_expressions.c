// expect: 24:43: error: use of undeclared identifier 'nope' (in the 'if' clause)
// expect: 26:50: error: use of undeclared identifier 'ngang' (in the 'num_gangs' clause)
// expect: 28:36: error: use of undeclared identifier 'len' (in the 'copy' clause)
// expect: 30:43: error: 'cfg' in the 'if' clause is not a scalar expression
// expect: 32:80: error: 'x' in the 'num_teams' clause is not an integer expression
// expect: 34:35: error: 'n * 0.5' in the 'copyin' clause is not an integer expression
// expect: 36:40: error: expected expression (in the 'if' clause)
// expect: 41:65: error: use of undeclared identifier 'k' (in the 'depend' clause)
// expect: 42:47: error: use of undeclared identifier 'prio' (in the 'priority' clause)
// expect: 46:50: error: use of undeclared identifier 'nope' (in the 'gang' clause)
// only-expected
/* Expressions in clauses are checked by clang where the directive is: an
 * undeclared name, a syntax error, or a type the clause cannot take is a
 * located error (they reached cc at a line of the generated file, or passed
 * silently in clauses gtcc ignores). The names in scope are the
 * directive's own: the index of a loop whose body is the directive, a macro,
 * an enumerator, a function call. */
#include <stdio.h>
#define LEN(n) ((n) / 2)
enum { NB = 4 };
struct Cfg { int on; };
static int twice(int v) { return 2 * v; }
void run(int n, double *x, struct Cfg cfg) {
#pragma acc parallel loop copy(x[0:n]) if(nope > 3)
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma acc parallel loop copy(x[0:n]) num_gangs(ngang)
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma acc parallel loop copy(x[0:len])
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma acc parallel loop copy(x[0:n]) if(cfg)
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma omp target teams distribute parallel for map(tofrom: x[0:n]) num_teams(x)
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma acc enter data copyin(x[0:n * 0.5])
#pragma acc exit data delete(x[0:LEN(n)])
#pragma acc update self(x[0:n]) if(n > > 3)
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < NB; b++)
#pragma omp task depend(inout: x[b * LEN(n) / NB]) depend(in: x[k])
#pragma omp task depend(inout: x[b]) priority(prio) if(twice(b) > 2) final(cfg.on)
    x[b] += 1;
#pragma acc parallel loop copy(x[0:n]) if(cfg.on && n > NB) num_gangs(twice(NB)) vector_length(LEN(64))
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma acc parallel loop copy(x[0:n]) gang(num: nope)
  for (int i = 0; i < n; i++) x[i] += 1;
}
int main(void) {
  double x[64] = {0};
  struct Cfg cfg = {1};
  run(64, x, cfg);
  printf("%g\n", x[0]);
  return 0;
}
