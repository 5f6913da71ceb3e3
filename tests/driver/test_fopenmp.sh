# -fopenmp: the host directives gtcc keeps run with OpenMP threads, in a file
# that also has an offload region; without it they run sequentially.
. "$(dirname "$0")/lib.sh"
cat >homp.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void) {
  int n = 1000, threads = 0;
  double a[1000], s = 0;
  #pragma acc parallel loop copyout(a[0:n])
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma omp parallel reduction(+:threads)
  threads += 1;
  #pragma omp parallel for reduction(+:s)
  for (int i = 0; i < n; i++) s += a[i];
  printf("%g %d\n", s, threads);
  return 0;
}
C
run_gtcc -fopenmp homp.c -o homp
expect_rc 0 "-fopenmp homp.c"
out=$(OMP_NUM_THREADS=3 ./homp 2>/dev/null)
[ "$out" = "499500 3" ] || fail "-fopenmp build printed '$out', expected '499500 3'"
# Without -fopenmp the host pragmas are ignored by cc: one thread.
cat >hseq.c <<'C'
#include <stdio.h>
int main(void) {
  int threads = 0;
  #pragma omp parallel reduction(+:threads)
  threads += 1;
  printf("%d\n", threads);
  return 0;
}
C
run_gtcc hseq.c -o hseq
expect_rc 0 "hseq.c"
[ "$(OMP_NUM_THREADS=3 ./hseq)" = "1" ] || fail "without -fopenmp: $(./hseq)"
expect_clean_tmp
