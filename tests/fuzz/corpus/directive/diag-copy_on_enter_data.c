// expect: 3:24: error: clause 'copy' is not allowed on 'acc enter data'
void f(int n, double *x) {
#pragma acc enter data copy(x[0:n])
#pragma acc parallel loop present(x[0:n])
  for (int i = 0; i < n; i++) x[i] = 1;
#pragma acc exit data copyout(x[0:n])
}
