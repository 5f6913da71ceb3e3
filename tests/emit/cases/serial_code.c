/* Code of compute constructs that is not a parallel loop runs in one GPU
 * thread: `acc serial` (a block, and `acc serial loop` with a reduction),
 * statements between the loops of `acc kernels` / `omp target` regions (a
 * declaration before them stays on the host), an `omp target` body with no
 * loop directive (a scan with locals of its own, a call, a while loop),
 * scalars of `acc kernels` its serial code writes (copy there, as OpenACC
 * says), `if` on `acc serial`, a mapped count a loop changes on the device
 * read by the code after it. Each step depends on the one before, so a
 * statement run twice, not at all or out of order changes what is printed;
 * every value is an integer or a dyadic fraction, exact in any order.
 * Compared with the CPU build. */
// expect-serial: 48 48 63 63 86 98 109
#include <stdio.h>
#include <stdlib.h>

static long long mixed(long long h) { return (h * 2654435761LL) % 1000003; }

/* A scan: each element depends on the one before. */
static void prefix(const int *v, long long *out, int n) {
  long long s = 0;
  for (int i = 0; i < n; i++) out[i] = (s += v[i]);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200000;
  if (n < 4) n = 4;
  int *v = malloc(sizeof(int) * (size_t)n);
  long long *ps = malloc(sizeof(long long) * (size_t)n);
  double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) v[i] = (int)(mixed(i) % 19) - 9;

  /* acc serial: a scan and a running maximum, then a parallel loop that reads them */
  long long best = 0;
  int where = -1;
#pragma acc serial copyin(v[0:n]) copyout(ps[0:n]) copy(best, where)
  {
    long long s = 0;
    for (int i = 0; i < n; i++) {
      s += v[i];
      ps[i] = s;
      if (s > best) best = s, where = i;
    }
  }
  printf("serial: best %lld at %d, ps[n-1] %lld\n", best, where, ps[n - 1]);

  /* acc kernels: serial code between two acc loops; its scalar writes come back */
  long long first = 0, last = 0;
#pragma acc kernels copy(a[0:n]) copyin(ps[0:n])
  {
#pragma acc loop independent
    for (int i = 0; i < n; i++) a[i] = (double)(ps[i] % 1024) / 8.0;
    first = (long long)(a[0] * 8.0), last = (long long)(a[n - 1] * 8.0);
    a[0] = a[n - 1] + 1.0; /* read by the next loop */
#pragma acc loop independent
    for (int i = 1; i < n; i++) a[i] += a[0] / 4.0;
  }
  double sa = 0.0;
  for (int i = 0; i < n; i++) sa += a[i];
  printf("kernels: first %lld last %lld a0 %.4f sum %.4f\n", first, last, a[0], sa);

  /* omp target: statements around a teams loop, and a serial reduction loop */
  double total = 0.0;
#pragma omp target map(tofrom: a[0:n], b[0:n], total)
  {
    const double half = 0.5; /* before any device code: a host scalar, firstprivate in the kernels */
    b[0] = 1.0;
#pragma omp teams distribute parallel for
    for (int i = 1; i < n; i++) b[i] = a[i] - a[i - 1];
    for (int i = 0; i < n; i++) total += b[i] * half; /* sequential, in one thread */
  }
  printf("target: total %.4f b[1] %.4f\n", total, b[1]);

  /* acc serial loop with a reduction; acc serial with a false if clause (runs on the host) */
  long long neg = 0;
#pragma acc serial loop reduction(+:neg) copyin(v[0:n])
  for (int i = 0; i < n; i++)
    if (v[i] < 0) neg += -v[i];
  int on_device = n > 10;
  long long tail = 0;
#pragma acc serial copyin(ps[0:n]) copy(tail) if(!on_device)
  tail = ps[n - 1] - ps[n / 2];
  printf("serial loop: neg %lld tail %lld\n", neg, tail);

  /* omp target without loops: a while loop, a call and locals of its own */
  long long check = 0;
#pragma omp target map(to: v[0:n]) map(from: ps[0:n]) map(tofrom: check)
  {
    prefix(v, ps, n);
    int i = 0;
    long long c = 0;
    while (i < n) c = c * 31 % 1000000007 + ps[i], i += 7;
    check = c;
  }
  printf("target scan: ps[n-1] %lld check %lld\n", ps[n - 1], check);

  /* acc parallel reduction(+:r): its serial code adds to r, and the loop restates the reduction */
  double r = 0.5;
#pragma acc parallel copyin(v[0:n]) reduction(+:r)
  {
    r += 2.0;
#pragma acc loop reduction(+:r)
    for (int i = 0; i < n; i++) r += v[i] * 0.25;
  }
  printf("parallel reduction: %.4f\n", r);

  /* a mapped count that a loop's atomics change on the device: the serial code and the loop
   * after it read the device copy (by value they would get the host's 0) */
  int cnt = 0, twice = 0;
#pragma omp target map(tofrom: a[0:n], cnt, twice) map(to: v[0:n])
  {
#pragma omp teams distribute parallel for
    for (int i = 0; i < n; i++)
      if (v[i] > 0) {
#pragma omp atomic
        cnt++;
      }
    twice = cnt * 2;
#pragma omp teams distribute parallel for
    for (int i = 0; i < n; i++) a[i] = (double)(cnt - i % 3);
  }
  sa = 0.0;
  for (int i = 0; i < n; i++) sa += a[i];
  printf("device count: %d %d sum %.1f\n", cnt, twice, sa);
  free(v), free(ps), free(a), free(b);
  return 0;
}
