// expect: 7:31: error:
// fixed bug (regression test): `for (int i = n - 1; i >= 0; i++)` after 'acc parallel loop' is accepted
//   (exit 0): the constant step goes up while the condition needs i to go down
//   (clang -fopenmp: "increment expression must cause 'i' to decrease")
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = n - 1; i >= 0; i++) x[i] = 1;
}
