// expect: 7:19: error: loop after 'acc parallel loop' is not in canonical form
// fixed bug (regression test): a condition `i < n && i < k` is taken as canonical with upper bound
//   "n && i < k" (--dump-after=parse); the generated host code then fails in cc
//   with "12:70: error: 'i' undeclared" (a line past the end of this file)
void f(int n, int k, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n && i < k; i++) x[i] = 1;
}
