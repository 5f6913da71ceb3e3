/* File-scope arrays declared `extern T a[];` (unknown size) and mapped by a
 * data clause: gtcc said "'a' is not an array or pointer". The definition
 * later in the file gives the size; tests/driver/test_extern_array.sh
 * covers an array defined in another file. Compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

#define N 400000
extern double xs[];
extern const int weights[];
extern int counts[];

static void scale(int n) {
#pragma acc parallel loop copy(xs[0:n]) copyin(weights[0:8])
  for (int i = 0; i < n; i++) xs[i] = xs[i] * weights[i % 8] + 1;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : N;
  if (n > N) n = N;
  for (int i = 0; i < n; i++) xs[i] = (i % 97) * 0.25;
  scale(n);
#pragma omp target teams distribute parallel for map(tofrom: counts[0:64]) map(to: xs[0:n])
  for (int b = 0; b < 64; b++) {
    int c = 0;
    for (int i = b; i < n; i += 64) c += xs[i] > 40;
    counts[b] = c;
  }
  double s = 0;
  long c = 0;
  for (int i = 0; i < n; i++) s += xs[i] * (i % 3 + 1);
  for (int b = 0; b < 64; b++) c += counts[b] * (b + 1);
  printf("s %.6e c %ld xs[5] %.3f\n", s, c, xs[5]);
  return 0;
}

double xs[N];
const int weights[8] = {1, 2, 3, 4, 5, 6, 7, 8};
int counts[64];
