// expect: 24:31: error: unknown gtcc_cdp mode 'bogus' (use off, host, tail, cta or warp)
// expect: 24:53: error: 'gtcc_threshold' needs a non-negative integer constant
// expect: 36:29: error: unknown gtcc_cdp mode 'nope' (use off, host, tail, cta or warp)
// expect: 43:37: error: 'gtcc_threshold' needs a non-negative integer constant
// only-expected
/* gtcc's clauses on compute constructs (the construct of an outer `acc loop gang`): accepted
 * and checked there, each fault reported once although every loop of the construct reads
 * them; also on a task region's `omp target` and a construct without loops. */
int main(void) {
  int n = 100, off[101], v[1000], x[10];
  long y[100], z[100];
  for (int i = 0; i <= n; i++) off[i] = i * 10;
  for (int j = 0; j < 1000; j++) v[j] = j % 7;
#pragma acc parallel gtcc_cdp(tail) gtcc_threshold(64) copyin(off, v) copyout(y)
  {
#pragma acc loop gang
    for (int i = 0; i < n; i++) {
      long s = 0;
#pragma acc loop vector reduction(+:s)
      for (int j = off[i]; j < off[i + 1]; j++) s += v[j];
      y[i] = s;
    }
  }
#pragma acc parallel gtcc_cdp(bogus) gtcc_threshold(-1) copyin(off, v) copyout(z)
  {
#pragma acc loop gang
    for (int i = 0; i < n; i++) {
      long s = 0;
#pragma acc loop vector reduction(+:s)
      for (int j = off[i]; j < off[i + 1]; j++) s += v[j];
      z[i] = s;
    }
#pragma acc loop gang
    for (int i = 0; i < n; i++) z[i] += 1;
  }
#pragma omp target gtcc_cdp(nope) map(tofrom: x)
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < 10; i++) {
#pragma omp task depend(out: x[i])
    x[i] = i;
  }
#pragma acc parallel gtcc_threshold(x) copy(x)
  { x[0] = 1; }
  return (int)(y[3] + z[3]) + x[3];
}
