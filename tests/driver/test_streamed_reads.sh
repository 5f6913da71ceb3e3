# Which reads of a nested inner loop become streaming loads in the
# warp-flat tier (transform/nested.c find_streamed): a[j] of a read-only
# 1-D array, j the inner index, in loops whose range follows the outer
# iteration. Checked in --dump-after=lower and in the generated .gt.cu.
. "$(dirname "$0")/lib.sh"
cat >nest.c <<'C'
void spmv(int n, const int *rp, const int *col, const double *val, const double *x, double *y) {
#pragma acc parallel loop copyin(rp[0:n+1], col[0:rp[n]], val[0:rp[n]], x[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double sum = 0.0;
#pragma acc loop reduction(+:sum)
    for (int j = rp[i]; j < rp[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}
void dense(int n, const double *a, const double *x, double *y) {
#pragma acc parallel loop copyin(a[0:n*n], x[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double sum = 0.0;
#pragma acc loop reduction(+:sum)
    for (int j = 0; j < n; j++)
      sum += a[i * n + j] * x[j];
    y[i] = sum;
  }
}
void written(int n, const int *rp, double *val, double *y) {
#pragma acc parallel loop copyin(rp[0:n+1]) copy(val[0:rp[n]]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double sum = 0.0;
    int lo = rp[i], hi = rp[i + 1];
#pragma acc loop reduction(+:sum)
    for (int j = lo; j < hi; j++) {
      sum += val[j];
      val[j] = 0.0;
    }
    y[i] = sum;
  }
}
C
run_gtcc --emit-cu --dump-after=lower nest.c
expect_rc 0 "--emit-cu --dump-after=lower nest.c"
# spmv: val[j] and col[j] (not x[col[j]]); dense: none (x[j] is reused by
# every row, a[i*n+j] is not a plain a[j]); written: none (val is written).
got=$(grep -o 'streamed read [a-z]*\[[a-z]*\]' out.txt | tr '\n' ' ')
[ "$got" = "streamed read val[j] streamed read col[j] " ] || { cat out.txt >&2; fail "streamed reads: '$got'"; }
n=$(grep -c 'gtrt_ld_stream(&(val\[j\]))\|gtrt_ld_stream(&(col\[j\]))' nest.gt.cu)
[ "$n" -eq 1 ] || fail "expected the two streaming loads on one line (the spmv warp-flat tier), got $n lines"
grep -q 'sum += gtrt_ld_stream(&(val\[j\])) \* x\[gtrt_ld_stream(&(col\[j\]))\];' nest.gt.cu || fail "spmv flat tier not rewritten as expected"
[ "$(grep -o "gtrt_ld_stream" nest.gt.cu | wc -l)" -eq 2 ] || fail "gtrt_ld_stream outside the spmv flat tier"
expect_clean_tmp
