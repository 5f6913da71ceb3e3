// expect: 3:53: error: clause 'num_gangs' appears more than once on 'acc parallel loop'
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n]) num_gangs(4) num_gangs(8)
  for (int i = 0; i < n; i++) x[i] = 1;
}
