/* Function pointers among the Before locals of a nest (chosen per row,
 * `const`, through a typedef) are saved in the CollectiveDP context like
 * other pointers: the inner loop runs in every tier, the next-level kernel
 * included (rows of 6000 entries), and calls through them. The values are
 * integers, so the GPU's sums equal the CPU build's exactly. Argument: N. */
#include <stdio.h>
#include <stdlib.h>

typedef long (*unary_fn)(long);

static long sq(long v) { return v * v; }
static long ab(long v) { return v < 0 ? -v : v; }
static long tw(long v) { return 2 * v + 1; }

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000;
  if (n < 0 || n > 2000000) return 2;
  long *rp = malloc(sizeof(long) * (size_t)(n + 1));
  long nnz = 0;
  for (long i = 0; i < n; i++) {
    rp[i] = nnz;
    nnz += i % 97 == 3 ? 6000 : i % 13 == 5 ? 300 : i % 9;
  }
  rp[n] = nnz;
  long *v = malloc(sizeof(long) * (size_t)(nnz + 1)), *y = malloc(sizeof(long) * (size_t)(n + 1));
  for (long k = 0; k < nnz; k++) v[k] = k % 7 - 3;
#pragma acc parallel loop copyin(rp[0:n+1], v[0:nnz]) copyout(y[0:n])
  for (long i = 0; i < n; i++) {
    long (*op)(long) = (i & 1) ? sq : ab; // expect-in-cu: gtrt_type<long (*)(long)> op;
    long (*const post)(long) = i % 3 ? tw : ab;
    unary_fn pre = i % 5 ? ab : tw;
    long s = 0;
#pragma acc loop reduction(+:s)
    for (long j = rp[i]; j < rp[i + 1]; j++) s += op(pre(v[j]));
    y[i] = post(s);
  }
  long c = 0;
  for (long i = 0; i < n; i++) c += y[i] % 100003 * (i % 5 + 1);
  printf("n %ld nnz %ld: %ld\n", n, nnz, c);
  free(rp), free(v), free(y);
  return 0;
}
// expect-not-in-cu: runs sequentially
