// expect: 6:48: error: 'x' is already in another data clause of this directive
// fixed bug (regression test): `x` in both copy(x[0:n]) and copyout(x[0:n]) on one construct is
//   accepted (exit 0) and it is unclear which transfer gtcc does; OpenACC allows
//   a variable in at most one data clause of a construct: expected an error here
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n]) copyout(x[0:n])
  for (int i = 0; i < n; i++) x[i] = 1;
}
