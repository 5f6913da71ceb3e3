# nvcc compiles the .gt.cu as C++, and it holds the file's own headers.
# Their function definitions are left out there (the regions do not call
# them), so C that C++ rejects inside them compiles: a malloc without a
# cast, a parameter named `class`, through a nested header with
# `#pragma once` included twice. C++-invalid C outside functions (a member
# named `new`) fails in nvcc at the header's line, with a note from gtcc
# saying why and where it is documented.
. "$(dirname "$0")/lib.sh"
mkdir -p inc
cat >inc/alloc.h <<'C'
#pragma once
#include <stdlib.h>
#define SCALE 3
static double *alloc_vec(int n) {
  double *p = malloc(sizeof(double) * (size_t)n);
  return p;
}
static inline int next_of(int class) { return class + 1; }
C
cat >util.h <<'C'
#include "inc/alloc.h"
typedef struct { int lo, hi; } range_t;
static range_t whole(int n) { range_t r = {0, n}; return r; }
C
cat >main.c <<'C'
#include <stdio.h>
#include "util.h"
#include "inc/alloc.h"
int main(void) {
  range_t r = whole(1000);
  int n = r.hi;
  double *a = alloc_vec(n);
#pragma acc parallel loop copyout(a[0:n])
  for (int i = 0; i < n; i++) a[i] = SCALE * i;
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  printf("%.1f %d\n", s, next_of(n));
  free(a);
  return 0;
}
C
run_gtcc main.c -o main
expect_rc 0 "main.c with C-only function bodies in its headers"
cc main.c -o main_cpu
[ "$(./main 2>/dev/null)" = "$(./main_cpu)" ] || fail "./main printed '$(./main 2>/dev/null)', the CPU build '$(./main_cpu)'"
rm -f main main_cpu

cat >bad.h <<'C'
struct opts { int new; };
C
cat >bad.c <<'C'
#include "bad.h"
int main(void) {
  struct opts o = {3};
  int n = 1000, k = o.new;
  double a[1000];
#pragma acc parallel loop copyout(a[0:n])
  for (int i = 0; i < n; i++) a[i] = i * k;
  return a[5] == 15 ? 0 : 1;
}
C
run_gtcc bad.c -o bad
expect_rc 1 "bad.c with a C-only header"
expect_stderr "bad.h(1): error"
expect_stderr "gtcc: error: nvcc failed"
expect_stderr "gtcc: note: nvcc compiles bad.gt.cu as CUDA C++"
expect_no_file bad
expect_clean_tmp
