/* Recursion in device code (the cidioms8 probe `fnptr` stopped with an
 * illegal address at Ackermann depth 49: CUDA's default stack is 1 KB per
 * thread). The stubs of regions that reach a recursive function raise the
 * device stack (16 KB by default, --device-stack). Also: a function called
 * before its definition (the C file declares it first: nvcc once found it
 * undefined, so mutual recursion could not compile), mutual recursion, a
 * nested (CollectiveDP) region calling the recursive function in its inner
 * loop, and isinf's value, which glibc gives as -1 for negative infinity
 * (the .gt.cu maps isinf to that form). Compared with the CPU build. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

// expect-in-cu: __device__ static int is_even(int n);
// expect-in-cu: gtrt_device_stack(gt_site, 16384, "ack")
// expect-in-cu: #define isinf(x) gtrt_isinf_sign(x)

static double scaled(double x);
static int is_even(int n);

static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }

/* ack(1, k) = k + 2 and recurses k deep; the inner call is not a tail call */
static long ack(long m, long k) { return m == 0 ? k + 1 : k == 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, k - 1)); }

static double first(double x) { return scaled(x) + 1.0; }
static double scaled(double x) { return x * 0.5; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  int *parity = malloc(sizeof(int) * (size_t)n), *rp = malloc(sizeof(int) * ((size_t)n + 1));
  long *deep = malloc(sizeof(long) * (size_t)n), *inner = malloc(sizeof(long) * (size_t)n);
  double *val = malloc(sizeof(double) * (size_t)n), *inf = malloc(sizeof(double) * (size_t)n);
  if (!parity || !rp || !deep || !inner || !val || !inf) return 1;
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 97 == 0 ? 3000 : i % 5); /* some rows for the NLK */
  double minus_inf = -INFINITY;

#pragma acc parallel loop copyout(parity[0:n], deep[0:n], val[0:n], inf[0:n])
  for (int i = 0; i < n; i++) {
    parity[i] = is_even(i % 400);
    deep[i] = ack(1, i % 200); /* up to 200 frames of 48 bytes */
    val[i] = first((double)i);
    inf[i] = isinf(minus_inf * (i % 3)) + 2 * isinf(1.0 / (i % 4)) + isinf((float)i);
  }

#pragma acc parallel loop copyin(rp[0:n + 1]) copyout(inner[0:n])
  for (int i = 0; i < n; i++) {
    long s = 0;
#pragma acc loop reduction(+ : s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += ack(1, j % 64);
    inner[i] = s;
  }

  long sp = 0, sd = 0, si = 0;
  double sv = 0.0, sf = 0.0;
  for (int i = 0; i < n; i++)
    sp += parity[i] * (i % 7 + 1), sd += deep[i] * (i % 3 + 1), si += inner[i] % 1000003, sv += val[i], sf += inf[i];
  printf("parity %ld\ndeep %ld\ninner %ld\nval %.17g\ninf %.17g\n", sp, sd, si, sv, sf);
  free(parity), free(rp), free(deep), free(inner), free(val), free(inf);
  return 0;
}
