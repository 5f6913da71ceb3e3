// expect: 18:43: error: use of undeclared identifier 'chnk' (in the 'schedule' clause)
// expect: 22:92: error: use of undeclared identifier 'ch2' (in the 'dist_schedule' clause)
// expect: 22:114: error: '2.5' in the 'schedule' clause is not an integer expression
// expect: 28:40: error: use of undeclared identifier 'gs' (in the 'grainsize' clause)
// expect: 34:45: error: use of undeclared identifier 'dv' (in the 'device' clause)
// expect: 35:45: error: use of undeclared identifier 'q1' (in the 'wait' clause)
// expect: 43:43: error: 'x' in the 'schedule' clause is not an integer expression
// only-expected
/* The integer arguments of clauses with modifiers are checked like other
 * clause expressions (clause_expressions.c): the chunk of schedule and
 * dist_schedule, grainsize and num_tasks after `strict:`, device after its
 * modifier, the queues of wait. Modifiers, kinds and the devnum:/queues:
 * form of wait are no C expressions and are left alone. */
#include <stdio.h>
enum { NB = 4 };
static int twice(int v) { return 2 * v; }
void run(int n, double *x) {
#pragma omp parallel for schedule(static, chnk)
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma omp parallel for schedule(monotonic: dynamic, 4 * NB)
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma omp target teams distribute parallel for map(tofrom: x[0:n]) dist_schedule(static, ch2) schedule(static, 2.5)
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma omp target teams distribute parallel for map(tofrom: x[0:n]) dist_schedule(static, NB) schedule(dynamic) device(0)
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(strict: gs)
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop num_tasks(twice(NB))
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma omp target update to(x[0:n]) device(dv)
#pragma acc parallel loop copy(x[0:n]) wait(q1, 2) async(1)
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma acc parallel loop copy(x[0:n]) wait(1, NB) async(1)
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma acc parallel loop copy(x[0:n]) wait(devnum: 0: queues: 1)
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma acc parallel loop copy(x[0:n]) wait
  for (int i = 0; i < n; i++) x[i] += 1;
#pragma omp parallel for schedule(static, x)
  for (int i = 0; i < n; i++) x[i] += 1;
}
int main(void) {
  double x[64] = {0};
  run(64, x);
  printf("%g\n", x[0]);
  return 0;
}
