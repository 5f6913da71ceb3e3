// expect: 7:31: error: pointer 'x' is used in the 'acc parallel loop' region but its extent is unknown
// fixed bug (regression test): the missing-data-clause error is repeated for every use of the pointer
//   on the line (3 times here: 7:31, 7:38, 7:45); once per variable and region is enough
// only-expected
void f(int n, double *x) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) x[i] = x[i] + x[i];
}
