/* Nests whose outer loop is collapsed run CollectiveDP: the parent splits
 * its one index into the collapsed loops' indices, and every context
 * saves them all (gt_iv, gt_iv1, gt_iv2), since the inner loop and After
 * use them.
 *  A: acc collapse(2) over (matrix, column): column sums of a batch of
 *     dense matrices of varying height (some of 20000 rows: next-level
 *     kernel), with an outer reduction;
 *  B: omp collapse(3) over (b, r, c) with a lower bound, a step of 2 and a
 *     descending loop, inner `parallel for` with a max reduction;
 *  C: acc tile(2, 4) over the same space as A (tile is run as collapse(2)).
 * The values are integers, so the GPU's sums equal the CPU build's exactly.
 * Arguments: NB (matrices) GIANT (rows of every 7th matrix). */
#include <stdio.h>
#include <stdlib.h>

#define NC 6

int main(int argc, char **argv) {
  long nb = argc > 1 ? atol(argv[1]) : 2000;
  long giant = argc > 2 ? atol(argv[2]) : 20000;
  if (nb < 0 || nb > 200000 || giant < 0 || giant > 1000000) return 2;
  long *off = malloc(sizeof(long) * (size_t)(nb + 1)), *h = malloc(sizeof(long) * (size_t)(nb + 1));
  long na = 0;
  for (long b = 0; b < nb; b++) {
    h[b] = b % 7 == 3 ? giant : b % 5 == 1 ? 300 : b % 11;
    off[b] = na;
    na += h[b] * NC;
  }
  off[nb] = na;
  long *a = malloc(sizeof(long) * (size_t)(na + 1));
  for (long k = 0; k < na; k++) a[k] = (k * 7919) % 23 - 11;
  long *csum = malloc(sizeof(long) * (size_t)(nb * NC + 1)), *ctile = malloc(sizeof(long) * (size_t)(nb * NC + 1));
  long *bmax = malloc(sizeof(long) * (size_t)(nb * NC + 1));
  long total = 0;

#pragma acc parallel loop collapse(2) copyin(off[0:nb+1], h[0:nb], a[0:na]) copyout(csum[0:nb*NC]) reduction(+:total)
  for (long b = 0; b < nb; b++)
    for (int c = 0; c < NC; c++) {
      const long *col = a + off[b] + c;
      long s = 0;
#pragma acc loop reduction(+:s)
      for (long r = 0; r < h[b]; r++) s += col[r * NC];
      csum[b * NC + c] = s;
      total += s * (c + 1);
    }
  // expect-in-cu: gt_mine.gt_iv1 = c;
  // expect-not-in-cu: the outer loop is collapsed

  for (long k = 0; k < nb * NC; k++) bmax[k] = -1;
#pragma omp target teams distribute collapse(3) map(to: off[0:nb+1], h[0:nb], a[0:na]) map(tofrom: bmax[0:nb*NC])
  for (long b = 1; b < nb; b += 2)
    for (int r = 1; r >= 0; r--)
      for (unsigned c = 0; c < NC / 2; c++) {
        long m = -1000, hb = h[b];
        int cc = (int)c * 2 + r;
#pragma omp parallel for reduction(max:m)
        for (long i = 0; i < hb; i++) {
          long v = a[off[b] + i * NC + cc] * (i % 3 + 1);
          m = v > m ? v : m;
        }
        bmax[b * NC + cc] = hb ? m : -2;
      }
  // expect-in-cu: gt_mine.gt_iv2 = c;

#pragma acc parallel loop tile(2, 4) copyin(off[0:nb+1], h[0:nb], a[0:na]) copyout(ctile[0:nb*NC])
  for (long b = 0; b < nb; b++)
    for (int c = 0; c < NC; c++) {
      long s = 0, base = off[b] + c;
#pragma acc loop reduction(+:s)
      for (long r = 0; r < h[b]; r++) s += a[base + r * NC] * (r % 2 ? 1 : 2);
      ctile[b * NC + c] = s;
    }

  long c1 = 0, c2 = 0, c3 = 0;
  for (long k = 0; k < nb * NC; k++) {
    c1 += csum[k] % 100003 * (k % 5 + 1);
    c2 += bmax[k] * (k % 7 + 1);
    c3 += ctile[k] % 100003 * (k % 3 + 1);
  }
  printf("nb %ld na %ld: total %ld sums %ld max %ld tile %ld\n", nb, na, total, c1, c2, c3);
  free(off), free(h), free(a), free(csum), free(ctile), free(bmax);
  return 0;
}
// nvcc-quiet
