/* Atomic constructs (acc atomic, omp atomic) in offload loops, compared with
 * the CPU build: a lost or repeated update changes what this prints.
 * - the inner loop of a nested parallel loop scatters into y[col[j]] (a
 *   transposed product), counts column degrees and a scalar edge count, and
 *   pushes selected columns into a queue through `atomic capture` on a
 *   scalar counter (every tier of CollectiveDP runs inner loops: rows of
 *   0..40 entries and every 97th of 5000);
 * - flat loops: histograms of int, unsigned long long, float and double
 *   bins, read / write / the reversed and CAS-only forms (x = e - x, *=,
 *   <<=, /=), the two-statement capture blocks, seq_cst, and an atomic in a
 *   function the loop calls.
 * Values are multiples of 1/8 small enough that every sum is exact in any
 * order. Built once per --cdp mode. Argument: the row count (default 60000). */
#include <stdio.h>
#include <stdlib.h>

static void add_to(long long *c, int v) {
#pragma omp atomic
  *c += v;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 60000;
  if (n < 0) return 1;
  int *rp = malloc(sizeof(int) * (size_t)(n + 1));
  if (!rp) return 1;
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 97 == 0 ? 5000 : (i * 7) % 41);
  int nnz = rp[n];
  int *col = malloc(sizeof(int) * ((size_t)nnz + 1)), *deg = calloc((size_t)n + 1, sizeof(int));
  int *queue = malloc(sizeof(int) * ((size_t)nnz + 1));
  double *val = malloc(sizeof(double) * ((size_t)nnz + 1)), *x = malloc(sizeof(double) * ((size_t)n + 1));
  double *y = calloc((size_t)n + 1, sizeof(double));
  if (!col || !deg || !queue || !val || !x || !y) return 1;
  unsigned s = 12345;
  for (int k = 0; k < nnz; k++) {
    s = s * 1103515245u + 12345u;
    col[k] = (int)((s >> 8) % (unsigned)(n ? n : 1));
    val[k] = (double)((s >> 4) % 17) * 0.125 - 1;
  }
  for (int i = 0; i < n; i++) x[i] = (i % 13) * 0.25;

  long long edges = 0;
  int queued = 0;
#pragma acc parallel loop copyin(rp[0:n+1], col[0:nnz], val[0:nnz], x[0:n]) copy(y[0:n], deg[0:n], edges, queued) \
    copyout(queue[0:nnz])
  for (int i = 0; i < n; i++) {
    double xi = x[i];
#pragma acc loop
    for (int j = rp[i]; j < rp[i + 1]; j++) {
#pragma acc atomic update
      y[col[j]] += val[j] * xi;
#pragma acc atomic
      deg[col[j]]++;
#pragma acc atomic
      edges += 1;
      if (col[j] % 3 == 0) {
        int at;
#pragma acc atomic capture
        at = queued++;
        queue[at] = col[j];
      }
    }
  }
  /* The same scatter through OpenMP nesting; the row's own count is captured in the outer body. */
  double *z = calloc((size_t)n + 1, sizeof(double));
  int *first = malloc(sizeof(int) * ((size_t)n + 1));
  int rows_seen = 0;
  if (!z || !first) return 1;
#pragma omp target teams distribute map(to: rp[0:n+1], col[0:nnz], val[0:nnz]) map(tofrom: z[0:n], rows_seen) \
    map(from: first[0:n])
  for (int i = 0; i < n; i++) {
    int mine;
#pragma omp atomic capture
    mine = ++rows_seen;
    first[i] = mine > 0;
#pragma omp target teams distribute parallel for
    for (int j = rp[i]; j < rp[i + 1]; j++) {
#pragma omp atomic
      z[col[j]] = z[col[j]] + val[j];
    }
  }

  /* Flat loops: histograms and the other forms. */
  int ib[16] = {0};
  unsigned long long ub[16] = {0};
  float fb[16] = {0};
  double db[16] = {0};
  long long through_fn = 0, prod = 1;
  unsigned bits = 1, flags = 0;
  int rev = 0, last = -1, old_sum = 0, new_sum = 0, exch = 0;
  double halves = 1024.0;
#pragma acc parallel loop copyin(col[0:nnz]) copy(ib, ub, fb, db, through_fn, prod, bits, flags, rev, last, \
                                                   old_sum, new_sum, exch, halves)
  for (int k = 0; k < nnz; k++) {
    int b = col[k] & 15;
#pragma acc atomic
    ib[b]++;
#pragma acc atomic update
    ub[b] = ub[b] + (unsigned long long)col[k];
#pragma acc atomic
    fb[b] += 0.5f;
#pragma acc atomic
    db[b] = 0.125 + db[b];
    add_to(&through_fn, col[k] & 7);
    if (k % 1000 == 0) {
#pragma acc atomic
      prod *= -1;
#pragma acc atomic
      rev = 1 - rev; /* x = e - x: flips between 0 and 1 */
    }
    if (k < 20) {
#pragma acc atomic update
      bits <<= 1;
#pragma acc atomic
      halves /= 2;
    }
#pragma omp atomic update seq_cst
    flags |= 1u << (col[k] & 31);
    if (k == nnz - 1) {
#pragma acc atomic write
      last = k;
    }
    int o, w, e;
#pragma acc atomic capture
    {
      o = old_sum;
      old_sum += 2;
    }
#pragma acc atomic capture
    {
      new_sum++;
      w = new_sum;
    }
#pragma acc atomic capture
    {
      e = exch;
      exch = 7;
    }
    (void)o, (void)w, (void)e;
  }
  int seen_last;
#pragma acc parallel loop copyin(last) copyout(seen_last)
  for (int k = 0; k < 1; k++) {
    int v;
#pragma acc atomic read
    v = last;
    seen_last = v;
  }

  /* Queue contents in any order: sort before printing a checksum. */
  qsort(queue, (size_t)queued, sizeof *queue, cmp_int);
  long long qsum = 0, dsum = 0, firsts = 0;
  double ysum = 0, zsum = 0;
  for (int k = 0; k < queued; k++) qsum += (long long)queue[k] * (k % 7 + 1);
  for (int i = 0; i < n; i++) {
    ysum += y[i] * (i % 11 + 1);
    zsum += z[i] * (i % 5 + 1);
    dsum += (long long)deg[i] * (i % 3 + 1);
    firsts += first[i];
  }
  long long isum = 0, usum = 0;
  double fsum = 0, dbsum = 0;
  for (int b = 0; b < 16; b++) isum += ib[b] * (b + 1), usum += ub[b] * (b + 1), fsum += fb[b], dbsum += db[b];
  printf("nnz=%d edges=%lld queued=%d qsum=%lld dsum=%lld rows_seen=%d firsts=%lld\n", nnz, edges, queued, qsum, dsum,
         rows_seen, firsts);
  printf("ysum %.17g\nzsum %.17g\n", ysum, zsum);
  printf("isum=%lld usum=%lld through_fn=%lld prod=%lld bits=%u flags=%u rev=%d last=%d seen_last=%d\n", isum, usum,
         through_fn, prod, bits, flags, rev, last, seen_last);
  printf("old_sum=%d new_sum=%d exch=%d\nfsum %.17g\ndbsum %.17g\nhalves %.17g\n", old_sum, new_sum, exch, fsum, dbsum,
         halves);
  free(rp), free(col), free(deg), free(queue), free(val), free(x), free(y), free(z), free(first);
  return 0;
}
