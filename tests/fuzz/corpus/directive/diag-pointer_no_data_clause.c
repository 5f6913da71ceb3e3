// expect: 4:31: error: pointer 'x' is used in the 'acc parallel loop' region but its extent is unknown: add a data clause such as copyin(x[0:n]), copy(x[0:n]) or copyout(x[0:n])
void f(int n, double *x) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) x[i] = 1;
}
