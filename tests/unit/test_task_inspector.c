/* Task-region inspector without a GPU: the graph gtrt_insp_build makes from
 * reported depend items (OpenMP RAW/WAR/WAW per address, duplicates merged),
 * checked by hand on small cases and against a brute-force replay on random
 * ones; misuse gives located errors. */
#include <stdlib.h>
#include <string.h>

#include "gtrt_core.h"
#include "gtrt_insp.h"
#include "unit.h"

static const gtrt_site site = {"dep.c", 12, "omp task loop"};
static int cells[64]; /* the addresses items name */

/* items: {task, address index, kind}, in reporting order */
static gtrt_status build(int ntasks, const int (*items)[3], int nitems, gtrt_task_graph *g) {
  gtrt_insp *in = gtrt_insp_new(&site, ntasks);
  for (int i = 0; i < nitems; i++)
    gtrt_insp_access(in, items[i][0], &cells[items[i][1]], items[i][2]);
  gtrt_status st = gtrt_insp_build(&site, in, g);
  gtrt_insp_free(in);
  return st;
}

static int succ_is(const gtrt_task_graph *g, unsigned t, const unsigned *want, unsigned n) {
  if (g->off[t + 1] - g->off[t] != n)
    return 0;
  return n == 0 || memcmp(g->succ + g->off[t], want, n * sizeof *want) == 0;
}

static void test_chain(void) {
  /* out A; in A; in A; out A; inout A */
  static const int items[][3] = {{0, 0, 1}, {1, 0, 0}, {2, 0, 0}, {3, 0, 1}, {4, 0, 2}};
  gtrt_task_graph g;
  CHECK(build(5, items, 5, &g) == GTRT_OK);
  static const int npred[] = {0, 1, 1, 3, 1};
  for (int t = 0; t < 5; t++)
    CHECK(g.npred[t] == npred[t]);
  static const unsigned s0[] = {1, 2, 3}, s1[] = {3}, s3[] = {4};
  CHECK(succ_is(&g, 0, s0, 3)); /* RAW to both readers, WAW to 3 */
  CHECK(succ_is(&g, 1, s1, 1)); /* WAR */
  CHECK(succ_is(&g, 2, s1, 1));
  CHECK(succ_is(&g, 3, s3, 1));
  CHECK(succ_is(&g, 4, NULL, 0));
  CHECK(g.nroots == 1);
  gtrt_task_graph_free(&g);
}

static void test_merge_and_independent(void) {
  /* task 1 names A three times (in, in, out = inout): one edge from 0;
   * task 2 reads A (after 1); task 3 writes B: independent. */
  static const int items[][3] = {{0, 0, 1}, {1, 0, 0}, {1, 0, 0}, {1, 0, 1}, {2, 0, 0}, {3, 1, 1}};
  gtrt_task_graph g;
  CHECK(build(5, items, 6, &g) == GTRT_OK);
  CHECK(g.npred[0] == 0 && g.npred[1] == 1 && g.npred[2] == 1 && g.npred[3] == 0 && g.npred[4] == 0);
  static const unsigned s0[] = {1}, s1[] = {2};
  CHECK(succ_is(&g, 0, s0, 1));
  CHECK(succ_is(&g, 1, s1, 1));
  CHECK(g.nroots == 3); /* tasks 0, 3 and 4 (no items) */
  gtrt_task_graph_free(&g);
}

static void test_two_addresses_one_edge(void) {
  /* task 1 reads A and B, both last written by task 0: one edge. */
  static const int items[][3] = {{0, 0, 1}, {0, 1, 1}, {1, 0, 0}, {1, 1, 0}};
  gtrt_task_graph g;
  CHECK(build(2, items, 4, &g) == GTRT_OK);
  CHECK(g.npred[1] == 1 && g.off[1] - g.off[0] == 1);
  gtrt_task_graph_free(&g);
}

static void test_misuse(void) {
  gtrt_task_graph g;
  static const int order[][3] = {{1, 0, 1}, {0, 0, 1}};
  CHECK(build(2, order, 2, &g) == GTRT_ERR_ARG);
  CHECK(strstr(gtrt_last_error(), "dep.c:12: error: task inspector of the 'omp task loop' region: tasks reported out of order") != NULL);
  static const int kind[][3] = {{0, 0, 7}};
  CHECK(build(1, kind, 1, &g) == GTRT_ERR_ARG);
  CHECK(strstr(gtrt_last_error(), "depend kind") != NULL);
  static const int range[][3] = {{3, 0, 1}};
  CHECK(build(2, range, 1, &g) == GTRT_ERR_ARG);
  CHECK(strstr(gtrt_last_error(), "out of range") != NULL);
  CHECK(gtrt_insp_new(&site, 0) == NULL);
  CHECK(strstr(gtrt_last_error(), "dep.c:12: error:") != NULL);
  CHECK(gtrt_insp_new(&site, 1LL << 31) == NULL);
  CHECK(gtrt_insp_build(&site, NULL, &g) == GTRT_ERR_ARG);
}

/* Brute force: j depends on i < j iff for some address a of j, i is the
 * last writer of a before j, or j writes a and i reads a after that writer. */
static int depends(const int (*items)[3], int nitems, int i, int j) {
  for (int x = 0; x < nitems; x++) {
    if (items[x][0] != j)
      continue;
    int a = items[x][1], jw = 0;
    for (int y = 0; y < nitems; y++)
      if (items[y][0] == j && items[y][1] == a && items[y][2])
        jw = 1;
    /* walk back from j: readers until the last writer */
    for (int k = j - 1; k >= 0; k--) {
      int kr = 0, kw = 0;
      for (int y = 0; y < nitems; y++)
        if (items[y][0] == k && items[y][1] == a)
          kr = 1, kw |= items[y][2] != 0;
      if (kw) {
        if (k == i)
          return 1;
        break;
      }
      if (kr && jw && k == i)
        return 1;
    }
  }
  return 0;
}

static void test_random(void) {
  enum { N = 60, MAXI = 200 };
  static int items[MAXI][3];
  int bad = 0;
  for (unsigned seed = 1; seed <= 200; seed++) {
    srand(seed);
    int n = 0, naddr = 1 + (int)(seed % 7);
    for (int t = 0; t < N && n < MAXI - 3; t++)
      for (int k = rand() % 4; k > 0; k--) {
        items[n][0] = t;
        items[n][1] = rand() % naddr;
        items[n][2] = rand() % 3;
        n++;
      }
    gtrt_task_graph g;
    if (build(N, (const int(*)[3])items, n, &g) != GTRT_OK) {
      bad++;
      continue;
    }
    for (int j = 0; j < N; j++) {
      int np = 0;
      for (int i = 0; i < j; i++) {
        int want = depends((const int(*)[3])items, n, i, j), got = 0;
        for (unsigned e = g.off[i]; e < g.off[i + 1]; e++)
          got |= g.succ[e] == (unsigned)j;
        bad += want != got;
        np += want;
      }
      bad += g.npred[j] != np;
    }
    for (int i = 0; i < N; i++) /* sorted, no duplicates */
      for (unsigned e = g.off[i] + 1; e < g.off[i + 1]; e++)
        bad += g.succ[e - 1] >= g.succ[e];
    gtrt_task_graph_free(&g);
  }
  CHECK(bad == 0);
}

int main(void) {
  test_chain();
  test_merge_and_independent();
  test_two_addresses_one_edge();
  test_misuse();
  test_random();
  return unit_result();
}
