/* OpenMP 5.1 atomic compare: the min/max forms (a conditional expression or
 * an if, x on either side of < or >, the branches either way round) on
 * int, long, unsigned long long and double, and the compare-and-swap forms
 * if (x == e) x = d; and x = x == e ? d : x; in a flat loop and in the inner loop of a nested one
 * (a label propagation step: every column takes the smallest row index that
 * reaches it). Compared with the CPU build: a lost update leaves a larger
 * minimum or a smaller maximum. */
// expect-in-cu: gtrt_atomic<GTRT_AOP_MIN, 1, 0>(&(mn), (v[i]));
// expect-in-cu: gtrt_atomic_cas_if<1>(gt_atomic_e, &(owner
// expect-in-cu: gtrt_atomic_cas_eq<0>(&(claim[i & 1023]
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 2000000, m = 200000;
  int *v = malloc(sizeof(int) * (size_t)n);
  int *rp = malloc(sizeof(int) * (size_t)(m + 1)), *col = malloc(sizeof(int) * (size_t)n);
  int *lab = malloc(sizeof(int) * (size_t)m);
  if (!v || !rp || !col || !lab) return 1;
  unsigned s = 7;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    v[i] = (int)(s >> 3) - (1 << 27);
    col[i] = (int)((s >> 5) % (unsigned)m);
  }
  for (int r = 0; r <= m; r++) rp[r] = (int)((long long)r * n / m);
  for (int c = 0; c < m; c++) lab[c] = m + c;

  int mn = 1 << 30, mx = -(1 << 30), owner = -1, label[64], claim[1024];
  double dmn = 1e300, dmx = -1e300;
  unsigned long long umn = ~0ull;
  long lmx = -5;
  for (int k = 0; k < 64; k++) label[k] = 1 << 30;
  for (int k = 0; k < 1024; k++) claim[k] = k % 3 ? -1 : 9;
#pragma omp target teams distribute parallel for map(to: v[0:n]) \
    map(tofrom: mn, mx, dmn, dmx, umn, lmx, owner, label, claim)
  for (int i = 0; i < n; i++) {
#pragma omp atomic compare
    mn = v[i] < mn ? v[i] : mn;
#pragma omp atomic compare
    if (v[i] > mx) {
      mx = v[i];
    }
#pragma omp atomic compare
    dmn = dmn > v[i] * 0.5 ? v[i] * 0.5 : dmn;
#pragma omp atomic compare
    if (dmx < v[i] * 0.25) dmx = v[i] * 0.25;
#pragma omp atomic compare
    umn = (unsigned long long)(v[i] & 0xffff) < umn ? (unsigned long long)(v[i] & 0xffff) : umn;
#pragma omp atomic compare
    lmx = lmx > (long)(v[i] % 1000) ? lmx : (long)(v[i] % 1000);
    int k = i & 63;
#pragma omp atomic compare
    if (label[k] > i / 64 + (v[i] & 7)) label[k] = i / 64 + (v[i] & 7);
#pragma omp atomic compare seq_cst
    if (owner == -1) {
      owner = i % 5 == 4 ? 4 : 4;
    }
#pragma omp atomic compare
    claim[i & 1023] = claim[i & 1023] == -1 ? (i & 7) : claim[i & 1023];
  }

  /* one propagation step over the rows' columns, in the inner loop */
#pragma omp target teams distribute map(to: rp[0:m+1], col[0:n]) map(tofrom: lab[0:m])
  for (int r = 0; r < m; r++) {
#pragma omp parallel for
    for (int j = rp[r]; j < rp[r + 1]; j++) {
#pragma omp atomic compare
      if (r < lab[col[j]]) lab[col[j]] = r;
    }
  }

  long long ls = 0, cs = 0, claimed = 0, nine = 0;
  for (int k = 0; k < 1024; k++) claimed += claim[k] >= 0 && claim[k] < 8, nine += claim[k] == 9;
  for (int k = 0; k < 64; k++) ls += (long long)label[k] * (k + 1);
  for (int c = 0; c < m; c++) cs += (long long)lab[c] * (c % 7 + 1);
  printf("mn=%d mx=%d umn=%llu lmx=%ld owner=%d ls=%lld cs=%lld claimed=%lld nine=%lld\n", mn, mx, umn, lmx, owner,
         ls, cs, claimed, nine);
  printf("dmn %.17g\ndmx %.17g\n", dmn, dmx);
  free(v), free(rp), free(col), free(lab);
  return 0;
}
