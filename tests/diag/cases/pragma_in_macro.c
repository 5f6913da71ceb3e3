// expect: 9:14: error: 'omp taskwait' in the definition of macro 'SYNC': gtcc reads the directives written in the file
// expect: 10:20: error: 'acc parallel loop' in the definition of macro 'OFFLOAD'
// expect: 12:3: error: 'omp task' in the definition of macro 'TASK'
// only-expected
/* Directives that macros carry take effect where the macro expands, which
 * gtcc does not see: leaving out a taskwait, a compute construct or a task
 * could change results, so each is an error at its _Pragma. (A loop
 * directive in a macro is only a warning: see tests/emit/cases/skipped_directives.c.) */
#define SYNC _Pragma("omp taskwait")
#define OFFLOAD(n) _Pragma("acc parallel loop copy(x[0:n])")
#define TASK(v) \
  _Pragma("omp task depend(inout: v)") v++
void f(int n, double *x) {
  OFFLOAD(n)
  for (int i = 0; i < n; i++) x[i] = 1;
}
