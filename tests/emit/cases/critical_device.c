/* omp critical in device code: the block runs under a spin lock, one per
 * critical name in the file (frontend/critical.c). An arg-max (value and
 * first index: a pair no atomic updates at once) in a flat loop, a named
 * critical in a function a loop calls, a critical in the inner loop of a
 * nested parallel loop (CollectiveDP) and in a task body. Each block reads
 * and writes several shared values, so two threads inside at once lose or
 * mix updates; the results are exact and compared with the CPU build. */
// expect-in-cu: gtrt_critical_enter(&gt_crit_lock[1])
#include <stdio.h>
#include <stdlib.h>

typedef struct Stat { long long count, sum; int first, last; } Stat;

static void record(Stat *s, int v) {
#pragma omp critical(stats)
  {
    s->count++;
    s->sum += v;
    if (v < s->first) s->first = v;
    if (v > s->last) s->last = v;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  if (n < 64) n = 64;
  int *v = malloc(sizeof(int) * (size_t)n), *rp = malloc(sizeof(int) * 1025);
  for (int i = 0; i < n; i++) v[i] = (int)((i * 7919LL) % 1000003);
  int nr = 1024;
  for (int r = 0; r <= nr; r++) rp[r] = (int)((long long)r * n / nr);

  /* arg-max of the multiples of 64 */
  int best = -1, at = -1;
#pragma omp target teams distribute parallel for map(to: v[0:n]) map(tofrom: best, at)
  for (int i = 0; i < n; i++)
    if (v[i] % 64 == 0) {
#pragma omp critical
      if (v[i] > best || (v[i] == best && i < at)) {
        best = v[i];
        at = i;
      }
    }
  printf("argmax: %d at %d\n", best, at);

  /* a named critical in a called function */
  Stat st = {0, 0, 1 << 30, -1};
#pragma acc parallel loop copyin(v[0:n]) copy(st)
  for (int i = 0; i < n; i += 37) record(&st, v[i]);
  printf("stats: %lld %lld %d %d\n", st.count, st.sum, st.first, st.last);

  /* the inner loop of a nested parallel loop: rows of 2^20/1024 entries */
  long long hits = 0, hsum = 0;
#pragma acc parallel loop copyin(v[0:n], rp[0:nr+1]) copy(hits, hsum)
  for (int r = 0; r < nr; r++) {
#pragma acc loop
    for (int j = rp[r]; j < rp[r + 1]; j++)
      if (v[j] % 101 == 7) {
#pragma omp critical
        {
          hits++;
          hsum += v[j] % 1000;
        }
      }
  }
  printf("nested: %lld %lld\n", hits, hsum);

  /* task bodies */
  long long tcount = 0, tmax = 0;
#pragma omp target data map(to: v[0:n]) map(tofrom: tcount, tmax)
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < 64; b++) {
#pragma omp task depend(in: v[b * (n / 64)])
    {
      long long m = 0;
      for (int i = b * (n / 64); i < (b + 1) * (n / 64); i++) m = v[i] > m ? v[i] : m;
#pragma omp critical(tasks)
      {
        tcount++;
        if (m > tmax) tmax = m;
      }
    }
  }
  printf("tasks: %lld %lld\n", tcount, tmax);
  free(v), free(rp);
  return 0;
}
