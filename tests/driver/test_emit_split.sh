# Host code of a task region that needs the tasks' data splits the region
# (docs/phases.md): --emit-cu notes each split, the .gt.c runs the stub and
# brings the named data back there, and host code that needs nothing (a
# printf of scalars, a pointer swap) splits nothing.
. "$(dirname "$0")/lib.sh"
cat > conv.c <<'SRC'
#include <stdio.h>
void relax(int n, int nb, double *u, double *v, double *res) {
  int it = 0;
#pragma omp target data map(tofrom: u[0:n], v[0:n], res[0:1])
#pragma omp parallel
#pragma omp single
  while (res[0] > 1e-6) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: u[b]) depend(out: v[b])
      v[b] = 0.5 * u[b];
    }
#pragma omp task depend(out: res[0])
    res[0] = v[0];
#pragma omp taskwait
    double *t = u; u = v; v = t;
    printf("step %d\n", it);
    it++;
    if (it % 10 == 0) u[0] += 1.0;
  }
}
SRC
run_gtcc --emit-cu conv.c
expect_rc 0 "--emit-cu conv.c"
expect_file conv.gt.cu
expect_file conv.gt.c
grep -q "split by host code" conv.gt.cu || fail "the region's note does not say it is split"
grep -q "split in the header of the statement at line 7: host code reads or writes through 'res' (line 7)" conv.gt.cu ||
  fail "no note for the split in the while condition"
grep -q "split before the statement at line 18: host code reads or writes through 'u' (line 18)" conv.gt.cu ||
  fail "no note for the split before the write in the if branch"
[ "$(grep -c 'gtcc: note: the region is split' conv.gt.cu)" -eq 2 ] || fail "expected exactly 2 splits (printf and the swap need none)"
grep -q 'gtrt_sync_from(&gt_site, "res", (const void \*)(res), 0)' conv.gt.c || fail "res is not brought back for the condition"
grep -q 'gtrt_sync_from(&gt_site, "u", (const void \*)(u), 1)' conv.gt.c || fail "u is not brought back (as written) for the branch"
stub=$(grep -o 'gt_conv_[0-9]*_k0_[0-9a-f]*(&gt_site' conv.gt.c | wc -l)
[ "$stub" -eq 3 ] || fail "the stub should run at both splits and after the walk ($stub calls)"
