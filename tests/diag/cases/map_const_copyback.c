// expect: 5:48: error: 'table' is const: 'copy' would copy data back into it; copy it to the device only (copyin)
static const double table[4] = {1, 2, 3, 4};
void f(int n, double *x) {
  /* copying back would write read-only memory */
#pragma acc parallel loop copyout(x[0:n]) copy(table)
  for (int i = 0; i < n; i++) x[i] = table[i % 4];
}
