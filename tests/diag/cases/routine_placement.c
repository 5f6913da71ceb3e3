// expect: 8:1: error: 'acc routine' must be followed by a function declaration or definition (or name one: 'acc routine(f) seq')
// expect: 15:26: error: 'acc parallel loop' takes no list in parentheses
// expect: 19:28: error: clause 'link' is not allowed on 'acc routine'
// only-expected
/* acc routine applies to the function declared next (or to the one it
 * names: here a function of a header, which is fine), and only acc routine
 * and omp declare target take a list after their name. */
#pragma acc routine seq
double table[16];
#pragma acc routine(sum) seq
static double sum(const double *a, int m);
double sum(const double *a, int m) { double s = 0; for (int j = 0; j < m; j++) s += a[j]; return s; }
#pragma acc routine(fabs) seq
void g(int n, double *x) {
#pragma acc parallel loop(x) copy(x[0:n])
  for (int i = 0; i < n; i++) x[i] = sum(table, 16);
}
#pragma acc routine(sum) seq
#pragma acc routine(g) seq link(table)
