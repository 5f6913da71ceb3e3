# nvcc compiles the file's own headers as C++ (the .gt.cu includes them):
# valid C there that C++ rejects fails in nvcc at the header's line, and
# gtcc adds a note saying why and where it is documented.
. "$(dirname "$0")/lib.sh"
cat >util.h <<'C'
#include <stdlib.h>
static double *alloc_vec(int n) {
  double *p = malloc(sizeof(double) * (size_t)n);
  return p;
}
C
cat >main.c <<'C'
#include "util.h"
int main(void) {
  int n = 1000;
  double *a = alloc_vec(n);
#pragma acc parallel loop copyout(a[0:n])
  for (int i = 0; i < n; i++) a[i] = i;
  free(a);
  return 0;
}
C
run_gtcc main.c -o main
expect_rc 1 "main.c with a C-only header"
expect_stderr "util.h(3): error"
expect_stderr "gtcc: error: nvcc failed"
expect_stderr "gtcc: note: nvcc compiles main.gt.cu as CUDA C++"
expect_no_file main
expect_clean_tmp
