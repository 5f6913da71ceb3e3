// expect: 16:21: error: 'copy' on 'acc declare' at file scope: only create, copyin,
// expect: 17:28: error: 'gp' is a pointer: give the section to map, e.g. create(gp[0
// expect: 18:28: error: 'gq' is a pointer: a file-scope 'acc declare' maps its data
// expect: 27:21: error: 'deviceptr' on 'acc declare' is not supported by gtcc
// expect: 30:21: error: 'break' leaves the scope of the 'acc declare' at line 29 wit
// expect: 36:17: error: 'goto' leaves the scope of the 'acc declare' at line 35 with
// expect: 49:1: error: 'acc declare' needs at least one data clause
// expect: 22:1: error: 'acc declare' in function 'helper', which offload code calls
// expect: 42:1: error: 'acc declare' inside the 'acc parallel loop' region at line
// only-expected
/* acc declare: what gtcc cannot do with it is a located error. */
#include <stdlib.h>

double g[100];
double *gp, *gq;
#pragma acc declare copy(g)
#pragma acc declare create(gp)
#pragma acc declare create(gq[0:8])

static double helper(double x) {
  double t[4] = {x, x, x, x};
#pragma acc declare create(t)
  return t[0] + t[3];
}

double f(int n, double *x, double *d) {
#pragma acc declare deviceptr(d)
  for (int b = 0; b < 4; b++) {
#pragma acc declare copyin(x[0:n])
    if (x[b] > 1.0) break;
#pragma acc parallel loop present(x[0:n])
    for (int i = 0; i < n; i++) x[i] += 1.0;
  }
  {
#pragma acc declare copy(x[0:n])
    if (n > 10) goto out;
  }
out:;
  double s = 0.0;
#pragma acc parallel loop reduction(+:s) copyin(x[0:n])
  for (int i = 0; i < n; i++) {
#pragma acc declare create(s)
    s += helper(x[i]);
  }
  return s;
}

int h(int n) {
#pragma acc declare
  return n;
}
