// expect: 7:31: error: loop after 'acc parallel loop' is not in canonical form
// fixed bug (regression test): the increment `i = i - 2 + 1` is read as i -= (2 + 1) (step -3;
//   --dump-after=parse shows `+= -(2 + 1)`), but it adds -1; it is not in
//   canonical form (var = var - incr), so expected a canonical-form error
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = n - 1; i >= 0; i = i - 2 + 1) x[i] = 1;
}
