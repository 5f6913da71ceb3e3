# An array declared `extern double xs[];` with no size in the file that maps
# it (defined in another file) is reached through its address: gtcc compiles
# the region, and the program gives the CPU build's result.
. "$(dirname "$0")/lib.sh"
cat >scale.c <<'C'
extern double xs[];
extern const int tbl[];
void scale(int n) {
#pragma acc parallel loop copy(xs[0:n]) copyin(tbl[0:4])
  for (int i = 0; i < n; i++) xs[i] = xs[i] * tbl[i % 4] + 1;
}
C
cat >main.c <<'C'
#include <stdio.h>
double xs[1000];
const int tbl[4] = {1, 2, 3, 4};
void scale(int n);
int main(void) {
  for (int i = 0; i < 1000; i++) xs[i] = i;
  scale(1000);
  double s = 0;
  for (int i = 0; i < 1000; i++) s += xs[i];
  printf("%.1f %.1f %.1f\n", xs[9], xs[10], s);
  return 0;
}
C
same_as_cpu_build scale.c main.c
