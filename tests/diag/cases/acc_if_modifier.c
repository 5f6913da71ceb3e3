// expect: 7:46: error: modifier 'task:' in clause 'if' is not supported by gtcc
// only-expected
/* OpenACC's if clause has no modifier: `task: 0` was copied into the host
 * condition and cc failed. (OpenMP's if(target: c) and if(parallel: c) on
 * a combined target construct are accepted: tests/emit/cases/if_clause.c.) */
void f(int n, double *x) {
#pragma acc parallel loop copyout(x[0:n]) if(task: 0)
  for (int i = 0; i < n; i++) x[i] = i;
}
