/* Plans of phased task regions without a GPU: the graph and tables
 * gtrt_plan_build makes from stage instances, barriers and depend items.
 * Hand-made cases (phase tables, the no-graph fast path, empty phases),
 * misuse, and random plans against a brute-force reference: within a
 * phase, task b depends on an earlier task a when they name one address
 * and one of them writes it; the built graph's transitive closure must
 * equal the reference's and no edge may cross a barrier. */
#include <stdlib.h>
#include <string.h>

#include "gtrt_core.h"
#include "gtrt_insp.h"
#include "unit.h"

static const gtrt_site site = {"phase.c", 21, "omp task"};
static int cells[256]; /* the addresses items name */

typedef struct snap {
  int step;
  double x;
} snap;

static int succ_has(const gtrt_task_graph *g, unsigned a, unsigned b) {
  if (!g->off) /* no edges at all */
    return 0;
  for (unsigned e = g->off[a]; e < g->off[a + 1]; e++)
    if (g->succ[e] == b)
      return 1;
  return 0;
}

static unsigned nedges(const gtrt_task_graph *g) { return g->off ? g->off[g->ntasks] : 0; }

/* Predecessors of t and root number k (a plan without edges has no arrays). */
static int npred_at(const gtrt_task_graph *g, unsigned t) { return g->npred ? g->npred[t] : 0; }
static unsigned root_at(const gtrt_plan_graph *pg, unsigned k) { return pg->roots ? pg->roots[k] : k; }

/* ---- hand-made plans ---------------------------------------------------------------------- */

static void test_two_phases(void) {
  /* stage 0: a[i] = ..., 3 tasks, self_indep; taskwait; stage 1: 3 tasks
   * read a[i], inout b (a chain). */
  gtrt_plan *pl = gtrt_plan_new(&site, sizeof(snap));
  snap s0 = {0, 1.5}, s1 = {1, 2.5};
  long long b0 = gtrt_plan_stage(pl, 0, 3, &s0, 1);
  CHECK(b0 == 0);
  for (int i = 0; i < 3; i++)
    gtrt_plan_access(pl, b0 + i, &cells[i], 1);
  gtrt_plan_barrier(pl);
  long long b1 = gtrt_plan_stage(pl, 1, 3, &s1, 0);
  CHECK(b1 == 3);
  for (int i = 0; i < 3; i++) {
    gtrt_plan_access(pl, b1 + i, &cells[i], 0);
    gtrt_plan_access(pl, b1 + i, &cells[10], 2);
  }
  gtrt_plan_graph pg;
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  CHECK(pg.g.ntasks == 6 && pg.nphases == 2);
  CHECK(pg.phase_end[0] == 3 && pg.phase_end[1] == 6);
  CHECK(pg.root_off[0] == 0 && pg.root_off[1] == 3 && pg.root_off[2] == 4);
  CHECK(root_at(&pg, 0) == 0 && root_at(&pg, 1) == 1 && root_at(&pg, 2) == 2 && root_at(&pg, 3) == 3);
  CHECK(nedges(&pg.g) == 2 && succ_has(&pg.g, 3, 4) && succ_has(&pg.g, 4, 5)); /* nothing from a's writers */
  CHECK(pl->ninst == 2 && pl->inst_begin[0] == 0 && pl->inst_begin[1] == 3 && pl->inst_begin[2] == 6);
  CHECK(pl->inst_stage[0] == 0 && pl->inst_stage[1] == 1);
  snap got;
  memcpy(&got, pl->snaps + sizeof(snap), sizeof got);
  CHECK(got.step == 1 && got.x == 2.5);
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);
}

/* One instance alone in its phase: self_indep means no graph work at all,
 * even where the items would conflict (the compiler vouches for them). */
static void test_fast_path(void) {
  for (int indep = 0; indep <= 1; indep++) {
    gtrt_plan *pl = gtrt_plan_new(&site, 0);
    long long b = gtrt_plan_stage(pl, 0, 4, NULL, indep);
    for (int i = 0; i < 4; i++)
      gtrt_plan_access(pl, b + i, &cells[0], 2);
    gtrt_plan_barrier(pl);
    b = gtrt_plan_stage(pl, 1, 1, NULL, 0); /* a single task, with items */
    gtrt_plan_access(pl, b, &cells[0], 2);
    gtrt_plan_access(pl, b, &cells[1], 0);
    gtrt_plan_graph pg;
    CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
    CHECK(nedges(&pg.g) == (indep ? 0u : 3u));
    CHECK(pg.g.nroots == (indep ? 5u : 2u));
    CHECK(pg.root_off[1] == (indep ? 4u : 1u) && pg.root_off[2] == pg.g.nroots);
    CHECK(indep ? !pg.roots && !pg.g.npred && !pg.g.off : pg.roots && pg.g.npred && pg.g.off); /* no edges: no arrays */
    gtrt_plan_graph_free(&pg);
    gtrt_plan_free(pl);
  }
  /* Two self_indep instances in one phase: they conflict with each other. */
  gtrt_plan *pl = gtrt_plan_new(&site, 0);
  long long b = gtrt_plan_stage(pl, 0, 2, NULL, 1);
  gtrt_plan_access(pl, b, &cells[0], 1);
  gtrt_plan_access(pl, b + 1, &cells[1], 1);
  b = gtrt_plan_stage(pl, 0, 2, NULL, 1);
  gtrt_plan_access(pl, b, &cells[0], 1);
  gtrt_plan_access(pl, b + 1, &cells[1], 1);
  gtrt_plan_graph pg;
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  CHECK(nedges(&pg.g) == 2 && succ_has(&pg.g, 0, 2) && succ_has(&pg.g, 1, 3));
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);
}

/* taskwait twice, a loop of 0 iterations, a trailing taskwait: phases
 * with no tasks keep their place in phase_end. */
static void test_empty_phases(void) {
  gtrt_plan *pl = gtrt_plan_new(&site, 0);
  gtrt_plan_barrier(pl);                    /* phase 0: empty */
  CHECK(gtrt_plan_stage(pl, 0, 2, NULL, 0) == 0);
  gtrt_plan_access(pl, 0, &cells[3], 1);
  gtrt_plan_access(pl, 1, &cells[3], 0);
  gtrt_plan_barrier(pl);                    /* phase 1: tasks 0, 1 */
  gtrt_plan_barrier(pl);                    /* phase 2: empty */
  CHECK(gtrt_plan_stage(pl, 1, 0, NULL, 1) == 2);
  gtrt_plan_barrier(pl);                    /* phase 3: an instance of 0 tasks */
  CHECK(gtrt_plan_stage(pl, 2, 1, NULL, 0) == 2);
  gtrt_plan_access(pl, 2, &cells[3], 1);
  gtrt_plan_barrier(pl);                    /* phase 4: task 2; phase 5: empty */
  gtrt_plan_graph pg;
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  static const unsigned end[] = {0, 2, 2, 2, 3, 3}, off[] = {0, 0, 1, 1, 1, 2, 2};
  CHECK(pg.nphases == 6);
  for (unsigned p = 0; p < 6 && pg.nphases == 6; p++)
    CHECK(pg.phase_end[p] == end[p] && pg.root_off[p + 1] == off[p + 1]);
  CHECK(nedges(&pg.g) == 1 && succ_has(&pg.g, 0, 1));
  CHECK(pl->ninst == 3 && pl->inst_begin[1] == 2 && pl->inst_begin[2] == 2 && pl->inst_begin[3] == 3);
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);

  /* No tasks at all. */
  pl = gtrt_plan_new(&site, 8);
  gtrt_plan_barrier(pl);
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  CHECK(pg.g.ntasks == 0 && pg.nphases == 2 && pg.g.nroots == 0 && pg.root_off[2] == 0);
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);
}

/* Expected graph: edges {from, to}, listed by from then to. */
static int graph_is(const gtrt_task_graph *g, const unsigned (*edge)[2], unsigned nedge) {
  int bad = nedges(g) != nedge;
  int *np = calloc(g->ntasks + 1, sizeof *np);
  for (unsigned e = 0; !bad && e < nedge; e++) {
    bad += g->succ[e] != edge[e][1] || e < g->off[edge[e][0]] || e >= g->off[edge[e][0] + 1];
    np[edge[e][1]]++;
  }
  for (unsigned t = 0; !bad && t < g->ntasks; t++)
    bad += npred_at(g, t) != np[t];
  free(np);
  return !bad;
}

/* Phases with and without graphs in a row, as a barrier decides them:
 * slots disjoint (0), two instances (1), empty (2), one task (3), an
 * empty instance then a self_indep one (4), one instance that conflicts
 * with itself (5), two instances in the open phase the build closes (6).
 * A dropped phase leaves no items behind. */
static void test_mixed(void) {
  gtrt_plan *pl = gtrt_plan_new(&site, 0);
  long long b = gtrt_plan_stage(pl, 0, 4, NULL, 0); /* tasks 0..3: in c[i], out c[10+i] */
  for (int i = 0; i < 4; i++) {
    gtrt_plan_access(pl, b + i, &cells[i], 0);
    gtrt_plan_access(pl, b + i, &cells[10 + i], 1);
  }
  gtrt_plan_barrier(pl);
  CHECK(pl->acc.n == 0);
  b = gtrt_plan_stage(pl, 1, 3, NULL, 0); /* 4..6: inout c[20], a chain */
  for (int i = 0; i < 3; i++)
    gtrt_plan_access(pl, b + i, &cells[20], 2);
  b = gtrt_plan_stage(pl, 2, 2, NULL, 0); /* 7, 8: in c[20]; 8 also out c[10] (phase 0 wrote it) */
  gtrt_plan_access(pl, b, &cells[20], 0);
  gtrt_plan_access(pl, b + 1, &cells[10], 1);
  gtrt_plan_access(pl, b + 1, &cells[20], 0);
  gtrt_plan_barrier(pl);
  gtrt_plan_barrier(pl);
  b = gtrt_plan_stage(pl, 0, 1, NULL, 0); /* 9 alone */
  gtrt_plan_access(pl, b, &cells[20], 2);
  gtrt_plan_barrier(pl);
  size_t kept = pl->acc.n; /* phase 1's items, if still held */
  gtrt_plan_stage(pl, 1, 0, NULL, 0);
  b = gtrt_plan_stage(pl, 2, 3, NULL, 1); /* 10..12: self_indep */
  for (int i = 0; i < 3; i++) {
    gtrt_plan_access(pl, b + i, &cells[20], 0);
    gtrt_plan_access(pl, b + i, &cells[30], 1); /* conflicts, but the compiler vouched */
  }
  gtrt_plan_barrier(pl);
  CHECK(pl->acc.n == kept);
  b = gtrt_plan_stage(pl, 0, 3, NULL, 0); /* 13..15: inout c[40], a chain */
  for (int i = 0; i < 3; i++)
    gtrt_plan_access(pl, b + i, &cells[40], 2);
  gtrt_plan_barrier(pl);
  b = gtrt_plan_stage(pl, 1, 3, NULL, 0); /* 16 out c[50]; 17 in c[50]; 18 in c[50], out c[51] */
  gtrt_plan_access(pl, b, &cells[50], 1);
  gtrt_plan_access(pl, b + 1, &cells[50], 0);
  gtrt_plan_access(pl, b + 2, &cells[50], 0);
  gtrt_plan_access(pl, b + 2, &cells[51], 1);
  b = gtrt_plan_stage(pl, 2, 1, NULL, 0); /* 19: inout c[51], in c[50] */
  gtrt_plan_access(pl, b, &cells[51], 2);
  gtrt_plan_access(pl, b, &cells[50], 0);
  gtrt_plan_graph pg;
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  static const unsigned edge[][2] = {{4, 5},   {5, 6},   {6, 7},   {6, 8},   {13, 14},
                                     {14, 15}, {16, 17}, {16, 18}, {16, 19}, {18, 19}};
  static const unsigned end[] = {4, 9, 9, 10, 13, 16, 20}, roots[] = {0, 1, 2, 3, 4, 9, 10, 11, 12, 13, 16};
  static const unsigned root_off[] = {0, 4, 5, 5, 6, 9, 10, 11};
  CHECK(pg.g.ntasks == 20 && pg.nphases == 7 && pg.g.nroots == 11);
  CHECK(graph_is(&pg.g, edge, 10));
  CHECK(pg.nphases != 7 || memcmp(pg.phase_end, end, sizeof end) == 0);
  CHECK(pg.nphases != 7 || memcmp(pg.root_off, root_off, sizeof root_off) == 0);
  CHECK(pg.g.nroots != 11 || (pg.roots && memcmp(pg.roots, roots, sizeof roots) == 0));
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);
}

/* Thousands of phases that need no graph (a heat step in taskwait form):
 * the item buffer never grows past its first allocation. */
static void test_dropped_items(void) {
  gtrt_plan *pl = gtrt_plan_new(&site, sizeof(snap));
  size_t most = 0;
  for (int s = 0; s < 2000; s++) {
    snap sn = {s, 0};
    long long b = gtrt_plan_stage(pl, s & 1, 64, &sn, 0);
    for (int i = 0; i < 64; i++) {
      gtrt_plan_access(pl, b + i, &cells[(s & 1) * 64 + i], 0);
      gtrt_plan_access(pl, b + i, &cells[(~s & 1) * 64 + i], 1);
    }
    most = pl->acc.cap > most ? pl->acc.cap : most;
    gtrt_plan_barrier(pl);
    CHECK(pl->acc.n == 0);
  }
  CHECK(most <= 1024);
  gtrt_plan_graph pg;
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  CHECK(pg.nphases == 2001 && pg.g.ntasks == 2000 * 64 && nedges(&pg.g) == 0 && pg.g.nroots == 2000 * 64);
  CHECK(pg.root_off[1] == 64 && pg.root_off[2000] == 2000 * 64 && pg.root_off[2001] == 2000 * 64);
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);
}

/* Readers of several addresses interleaved; each write retires exactly
 * its own address's readers (whose entries the next reads reuse). */
static void test_readers(void) {
  gtrt_plan *pl = gtrt_plan_new(&site, 0);
  long long b = gtrt_plan_stage(pl, 0, 9, NULL, 0);
  for (int t = 0; t < 5; t++) { /* 0..4 read A; 1 and 3 also read B */
    gtrt_plan_access(pl, b + t, &cells[0], 0);
    if (t & 1)
      gtrt_plan_access(pl, b + t, &cells[1], 0);
  }
  gtrt_plan_access(pl, b + 5, &cells[0], 1); /* after all of A's readers */
  gtrt_plan_access(pl, b + 6, &cells[0], 0);
  gtrt_plan_access(pl, b + 6, &cells[2], 0);
  gtrt_plan_access(pl, b + 7, &cells[1], 2); /* after B's readers only */
  gtrt_plan_access(pl, b + 8, &cells[0], 1); /* after 5 (writer) and 6 */
  gtrt_plan_access(pl, b + 8, &cells[2], 0);
  gtrt_plan_graph pg;
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  static const unsigned edge[][2] = {{0, 5}, {1, 5}, {1, 7}, {2, 5}, {3, 5}, {3, 7}, {4, 5}, {5, 6}, {5, 8}, {6, 8}};
  CHECK(graph_is(&pg.g, edge, 10));
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);
}

/* ---- phases replayed while they are recorded ------------------------------------------------ */

/* The OpenMP rules written out plainly: per phase and address, the last
 * writer and the readers since; a task's items on one address merge. */
typedef struct ref_edges {
  unsigned (*e)[2];
  unsigned n;
} ref_edges;

static int cmp_edge(const void *a, const void *b) {
  const unsigned *x = a, *y = b;
  return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

typedef struct ref_addr {
  int writer;
  int *readers;
  int nreaders, cap;
} ref_addr;

static void ref_edge(ref_edges *r, int from, unsigned to) {
  r->e[r->n][0] = (unsigned)from;
  r->e[r->n++][1] = to;
}

static void ref_task(ref_edges *r, ref_addr *st, const int (*item)[3], int m, unsigned t) {
  for (int i = 0; i < m; i++) {
    int a = item[i][1], dup = 0, w = 0;
    for (int k = 0; k < m; k++) {
      dup |= k < i && item[k][1] == a;
      w |= item[k][1] == a && item[k][2] != 0;
    }
    if (dup)
      continue;
    ref_addr *s = &st[a];
    if (s->writer >= 0)
      ref_edge(r, s->writer, t);
    if (!w) {
      if (s->nreaders == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->readers = realloc(s->readers, (size_t)s->cap * sizeof *s->readers);
      }
      s->readers[s->nreaders++] = (int)t;
      continue;
    }
    for (int k = 0; k < s->nreaders; k++)
      ref_edge(r, s->readers[k], t);
    s->nreaders = 0;
    s->writer = (int)t;
  }
}

/* Long phases of many instances (the depend form of a stencil): the plan
 * replays them whenever its buffer fills, keeping the last task's items
 * (here one task has more items than the buffer). The graph must be the
 * plain replay's, and the buffer must stay small. Few addresses make many
 * conflicts; many (ints, 4 bytes apart) make the address table grow. */
static void test_streamed(void) {
  enum { MAXADDR = 30000 };
  static int items[20000][3], many[MAXADDR];
  static unsigned edges[40000][2];
  static ref_addr st[MAXADDR];
  int bad = 0;
  for (unsigned seed = 1; seed <= 16; seed++) {
    srand(seed);
    int naddr = seed & 1 ? 16 : MAXADDR, *base = seed & 1 ? cells : many;
    gtrt_plan *pl = gtrt_plan_new(&site, 0);
    ref_edges ref = {edges, 0};
    int nitems = 0;
    for (int a = 0; a < naddr; a++)
      st[a].writer = -1, st[a].nreaders = 0;
    unsigned t = 0;
    size_t most = 0;
    while (nitems < 15000) {
      if (rand() % 60 == 0) {
        gtrt_plan_barrier(pl);
        for (int a = 0; a < naddr; a++)
          st[a].writer = -1, st[a].nreaders = 0;
      }
      int n = 1 + rand() % 40;
      long long b = gtrt_plan_stage(pl, rand() % 3, n, NULL, 0);
      bad += b != (long long)t;
      for (int k = 0; k < n; k++, t++) {
        int m = seed == 3 && t == 500 ? 3000 : rand() % 5, first = nitems;
        for (int i = 0; i < m; i++, nitems++) {
          items[nitems][0] = (int)t;
          items[nitems][1] = rand() % naddr;
          items[nitems][2] = rand() % 4 ? 0 : 1 + rand() % 2;
          gtrt_plan_access(pl, t, &base[items[nitems][1]], items[nitems][2]);
        }
        ref_task(&ref, st, (const int(*)[3])items + first, m, t);
        most = pl->acc.cap > most ? pl->acc.cap : most;
      }
    }
    gtrt_plan_graph pg;
    if (gtrt_plan_build(&site, pl, &pg) != GTRT_OK) {
      bad++;
      gtrt_plan_free(pl);
      continue;
    }
    qsort(ref.e, ref.n, sizeof *ref.e, cmp_edge);
    unsigned u = 0;
    for (unsigned k = 0; k < ref.n; k++) /* unique */
      if (!u || cmp_edge(ref.e[k], ref.e[u - 1]))
        memmove(ref.e[u++], ref.e[k], sizeof *ref.e);
    ref.n = u;
    bad += !graph_is(&pg.g, (const unsigned(*)[2])ref.e, ref.n);
    bad += most > (seed == 3 ? 4096u : 1024u);
    bad += pl->acc.ndone + pl->acc.n != (size_t)nitems;
    gtrt_plan_graph_free(&pg);
    gtrt_plan_free(pl);
  }
  for (int a = 0; a < MAXADDR; a++)
    free(st[a].readers);
  CHECK(bad == 0);
}

/* ---- misuse ----------------------------------------------------------------------------------- */

static int fails_with(gtrt_plan *pl, const char *part) {
  gtrt_plan_graph pg;
  gtrt_status st = gtrt_plan_build(&site, pl, &pg);
  gtrt_plan_free(pl);
  if (st != GTRT_ERR_ARG || !strstr(gtrt_last_error(), "phase.c:21: error: task plan of the 'omp task' region: ") ||
      !strstr(gtrt_last_error(), part)) {
    fprintf(stderr, "status %d, message: %s\n", st, gtrt_last_error());
    return 0;
  }
  return pg.g.ntasks == 0 && pg.phase_end == NULL;
}

static void test_misuse(void) {
  gtrt_plan *pl = gtrt_plan_new(&site, 0);
  gtrt_plan_stage(pl, 0, 3, NULL, 0);
  gtrt_plan_access(pl, 2, &cells[0], 1);
  gtrt_plan_access(pl, 1, &cells[0], 1);
  CHECK(fails_with(pl, "tasks reported out of order (task 1, kind 1)"));

  pl = gtrt_plan_new(&site, 0);
  gtrt_plan_access(pl, 0, &cells[0], 1); /* before any stage */
  gtrt_plan_stage(pl, 0, 3, NULL, 0);
  CHECK(fails_with(pl, "task number out of range (task 0, kind 1)"));

  pl = gtrt_plan_new(&site, 0);
  gtrt_plan_stage(pl, 0, 3, NULL, 0);
  gtrt_plan_access(pl, 3, &cells[0], 1);
  CHECK(fails_with(pl, "task number out of range (task 3"));

  pl = gtrt_plan_new(&site, 0);
  gtrt_plan_stage(pl, 0, 3, NULL, 0);
  gtrt_plan_access(pl, -1, &cells[0], 1);
  CHECK(fails_with(pl, "out of range"));

  pl = gtrt_plan_new(&site, 0);
  gtrt_plan_stage(pl, 0, 3, NULL, 0);
  gtrt_plan_access(pl, 0, &cells[0], 3);
  CHECK(fails_with(pl, "depend kind is not in/out/inout"));

  pl = gtrt_plan_new(&site, 0);
  CHECK(gtrt_plan_stage(pl, 2, -4, NULL, 0) == -1);
  CHECK(strstr(gtrt_last_error(), "phase.c:21: error: task plan of the 'omp task' region: task type 2 adds -4 tasks") != NULL);
  CHECK(fails_with(pl, "adds -4 tasks to 0 (a region has 0 .. 2^31-1 tasks)"));

  pl = gtrt_plan_new(&site, 0);
  CHECK(gtrt_plan_stage(pl, 0, 0x7fffffffLL, NULL, 1) == 0); /* exactly the most */
  CHECK(gtrt_plan_stage(pl, 1, 1, NULL, 1) == -1);
  CHECK(fails_with(pl, "task type 1 adds 1 tasks to 2147483647"));

  pl = gtrt_plan_new(&site, 0);
  CHECK(gtrt_plan_stage(pl, 0, 1LL << 31, NULL, 1) == -1);
  CHECK(fails_with(pl, "2^31-1"));

  pl = gtrt_plan_new(&site, sizeof(snap));
  CHECK(gtrt_plan_stage(pl, 0, 1, NULL, 1) == -1);
  CHECK(fails_with(pl, "task type 0 has no snapshot (16 bytes expected)"));

  /* A barrier ends its tasks' reports (here the phase needed no graph and
   * its items are gone). */
  pl = gtrt_plan_new(&site, 0);
  gtrt_plan_stage(pl, 0, 2, NULL, 0);
  gtrt_plan_access(pl, 0, &cells[0], 1);
  gtrt_plan_barrier(pl);
  gtrt_plan_stage(pl, 1, 1, NULL, 0);
  gtrt_plan_access(pl, 1, &cells[0], 1);
  CHECK(fails_with(pl, "task reported after the barrier that ends its phase (task 1, kind 1)"));

  /* A plan is built once; then recording is over. */
  pl = gtrt_plan_new(&site, 0);
  gtrt_plan_stage(pl, 0, 2, NULL, 0);
  gtrt_plan_access(pl, 1, &cells[0], 1);
  gtrt_plan_graph built;
  CHECK(gtrt_plan_build(&site, pl, &built) == GTRT_OK && built.g.ntasks == 2);
  gtrt_plan_graph_free(&built);
  CHECK(gtrt_plan_stage(pl, 0, 1, NULL, 0) == -1);
  CHECK(strstr(gtrt_last_error(), "task type 0 recorded after the plan was built") != NULL);
  gtrt_plan_access(pl, 1, &cells[0], 1); /* kept out: its phase ended */
  CHECK(pl->acc.n == 0);
  CHECK(gtrt_plan_build(&site, pl, &built) == GTRT_ERR_ARG && built.phase_end == NULL);
  CHECK(strstr(gtrt_last_error(), "phase.c:21: error: task plan of the 'omp task' region was built already") != NULL);
  gtrt_plan_free(pl);

  /* The first misuse is the one reported; later calls are harmless. */
  pl = gtrt_plan_new(&site, 0);
  gtrt_plan_access(pl, 5, &cells[0], 1);
  gtrt_plan_access(pl, 0, &cells[0], 9);
  gtrt_plan_stage(pl, 0, 2, NULL, 0);
  gtrt_plan_barrier(pl);
  CHECK(fails_with(pl, "task number out of range (task 5, kind 1)"));

  /* A NULL plan (gtrt_plan_new failed) is accepted everywhere. */
  CHECK(gtrt_plan_stage(NULL, 0, 1, NULL, 0) == -1);
  gtrt_plan_access(NULL, 0, &cells[0], 1);
  gtrt_plan_barrier(NULL);
  gtrt_plan_free(NULL);
  gtrt_plan_graph pg;
  CHECK(gtrt_plan_build(&site, NULL, &pg) == GTRT_ERR_ARG);
  CHECK(strstr(gtrt_last_error(), "phase.c:21: error: task plan of the 'omp task' region was not created") != NULL);
}

/* ---- random plans against the brute force ------------------------------------------------------------- */

enum { MAXT = 120, MAXI = 600, NADDR = 8 };

typedef struct rplan {
  int ntasks, nitems;
  int item[MAXI][3]; /* task, address, kind */
  int phase[MAXT];   /* phase of each task */
  int nphases;
  unsigned phase_end[MAXT + 64];
  int nstrided; /* instances whose items went in as strides */
} rplan;

/* Does task a write address x / name it at all? */
static int names(const rplan *r, int a, int x, int *writes) {
  int any = 0;
  *writes = 0;
  for (int i = 0; i < r->nitems; i++)
    if (r->item[i][0] == a && r->item[i][1] == x) {
      any = 1;
      *writes |= r->item[i][2] != 0;
    }
  return any;
}

static int conflict(const rplan *r, int a, int b) {
  if (r->phase[a] != r->phase[b])
    return 0;
  for (int x = 0; x < NADDR + MAXT; x++) {
    int wa, wb;
    if (names(r, a, x, &wa) && names(r, b, x, &wb) && (wa || wb))
      return 1;
  }
  return 0;
}

/* Warshall over a [n][n] reachability matrix. */
static void closure(unsigned char (*m)[MAXT], int n) {
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      if (m[i][k])
        for (int j = 0; j < n; j++)
          m[i][j] |= m[k][j];
}

static void note_item(rplan *r, int t, int x, int kind) {
  r->item[r->nitems][0] = t;
  r->item[r->nitems][1] = x;
  r->item[r->nitems][2] = kind;
  r->nitems++;
}

static void add_item(rplan *r, gtrt_plan *pl, int t, int x, int kind) {
  if (r->nitems == MAXI)
    return;
  note_item(r, t, x, kind);
  gtrt_plan_access(pl, t, &cells[x], kind);
}

/* Items of constant stride (the host walk's shortcut, gtrt_plan_strided)
 * for tasks b .. b+n-1: m slots, slot j of task b+t at cell base_j + t *
 * stride_j. 0 when the plan does not take them (then nothing is noted). */
static int add_strided(rplan *r, gtrt_plan *pl, int b, int n) {
  int m = 1 + rand() % 3, kind[3];
  uintptr_t base[3], stride[3];
  long long cb[3], cs[3];
  if (r->nitems + n * m > MAXI)
    return 0;
  for (int j = 0; j < m; j++) {
    static const int strides[] = {0, 1, -1, 2, 3};
    cs[j] = strides[rand() % 5];
    cb[j] = rand() % 24 + (cs[j] < 0 ? n : 0); /* cells stay in 0 .. NADDR + MAXT */
    kind[j] = rand() % 3;
    base[j] = (uintptr_t)&cells[cb[j]];
    stride[j] = (uintptr_t)(cs[j] * (long long)sizeof cells[0]);
  }
  if (!gtrt_plan_strided(pl, b, n, m, base, stride, kind))
    return 0;
  for (int t = 0; t < n; t++)
    for (int j = 0; j < m; j++)
      note_item(r, b + t, (int)(cb[j] + t * cs[j]), kind[j]);
  return 1;
}

/* Random stages, items and barriers. A self_indep instance keeps its word:
 * task i writes only its own address (NADDR + task) and reads shared ones. */
static gtrt_plan *random_plan(rplan *r, unsigned seed) {
  srand(seed);
  memset(r, 0, sizeof *r);
  gtrt_plan *pl = gtrt_plan_new(&site, sizeof(snap));
  while (r->ntasks < MAXT - 8 && rand() % 40) {
    if (rand() % 3 == 0 && r->nphases < MAXT + 62) {
      gtrt_plan_barrier(pl);
      r->phase_end[r->nphases++] = (unsigned)r->ntasks;
      continue;
    }
    int n = rand() % 7 == 0 ? 0 : rand() % 6, indep = rand() % 3 == 0;
    snap s = {r->ntasks, seed * 0.5};
    long long b = gtrt_plan_stage(pl, rand() % 3, n, &s, indep);
    if (b != r->ntasks)
      return pl;
    for (int t = r->ntasks; t < r->ntasks + n; t++)
      r->phase[t] = r->nphases;
    if (!indep && n > 0 && rand() % 2 && gtrt_plan_stridable(pl, b) && add_strided(r, pl, (int)b, n)) {
      r->nstrided++;
      r->ntasks += n;
      continue;
    }
    for (int t = r->ntasks; t < r->ntasks + n; t++) {
      if (indep) {
        add_item(r, pl, t, rand() % NADDR, 0);
        add_item(r, pl, t, NADDR + t, 1 + rand() % 2);
        continue;
      }
      for (int k = rand() % 4; k > 0; k--)
        add_item(r, pl, t, rand() % NADDR, rand() % 3);
    }
    r->ntasks += n;
  }
  r->phase_end[r->nphases++] = (unsigned)r->ntasks;
  return pl;
}

static int check_random(const rplan *r, const gtrt_plan_graph *pg) {
  static unsigned char want[MAXT][MAXT], got[MAXT][MAXT];
  int n = r->ntasks, bad = 0;
  if (pg->g.ntasks != (unsigned)n || pg->nphases != (unsigned)r->nphases)
    return 1;
  for (int p = 0; p < r->nphases; p++)
    bad += pg->phase_end[p] != r->phase_end[p];
  memset(want, 0, sizeof want);
  memset(got, 0, sizeof got);
  for (int b = 0; b < n; b++)
    for (int a = 0; a < b; a++)
      want[a][b] = (unsigned char)conflict(r, a, b);
  for (int a = 0; a < n && pg->g.off; a++)
    for (unsigned e = pg->g.off[a]; e < pg->g.off[a + 1]; e++) {
      unsigned b = pg->g.succ[e];
      bad += b <= (unsigned)a || r->phase[a] != r->phase[b]; /* forward, never across a barrier */
      bad += e > pg->g.off[a] && pg->g.succ[e - 1] >= b;      /* sorted, no duplicates */
      got[a][b] = 1;
    }
  for (int b = 0; b < n; b++) { /* npred matches the edges; roots are the tasks without */
    int np = 0;
    for (int a = 0; a < b; a++)
      np += got[a][b];
    bad += npred_at(&pg->g, b) != np;
  }
  for (int p = 0, t = 0, k = 0; p < r->nphases; p++) {
    bad += pg->root_off[p] != (unsigned)k;
    for (; t < (int)r->phase_end[p]; t++)
      if (npred_at(&pg->g, t) == 0)
        bad += k >= (int)pg->g.nroots || root_at(pg, (unsigned)k++) != (unsigned)t;
  }
  closure(want, n);
  closure(got, n);
  for (int a = 0; a < n; a++)
    bad += memcmp(want[a], got[a], (size_t)n) != 0;
  return bad;
}

static void test_random(void) {
  static rplan r;
  int bad = 0, edges = 0, phases = 0, strided = 0;
  for (unsigned seed = 1; seed <= 300; seed++) {
    gtrt_plan *pl = random_plan(&r, seed);
    gtrt_plan_graph pg;
    gtrt_status st = gtrt_plan_build(&site, pl, &pg);
    if (st != GTRT_OK) {
      fprintf(stderr, "seed %u: %s\n", seed, gtrt_last_error());
      bad++;
    } else {
      int b = check_random(&r, &pg);
      if (b)
        fprintf(stderr, "seed %u: %d mismatches\n", seed, b);
      bad += b;
      edges += (int)nedges(&pg.g);
      phases += (int)pg.nphases;
      strided += r.nstrided;
      /* instance table: contiguous, ending at ntasks */
      bad += pl->inst_begin[0] != 0 || pl->inst_begin[pl->ninst] != (unsigned)r.ntasks;
      for (size_t i = 0; i < pl->ninst; i++)
        bad += pl->inst_begin[i] > pl->inst_begin[i + 1];
    }
    gtrt_plan_graph_free(&pg);
    gtrt_plan_free(pl);
  }
  CHECK(bad == 0);
  CHECK(edges > 1000 && phases > 1000); /* the random plans are not trivial */
  CHECK(strided > 100);                  /* and many keep items as strides */
}

/* Strided items: an instance alone in its phase with independent strides
 * records no item; one whose phase gets a second instance, or whose
 * strides collide, is expanded and gets its edges, and so is one that
 * joins a phase with a graph. */
static void test_strided(void) {
  const uintptr_t base[2] = {(uintptr_t)&cells[0], (uintptr_t)&cells[100]};
  const uintptr_t step[2] = {sizeof cells[0], sizeof cells[0]}, zero[2] = {sizeof cells[0], 0};
  const int kind[2] = {0, 1};
  gtrt_plan *pl = gtrt_plan_new(&site, 0);
  long long b = gtrt_plan_stage(pl, 0, 8, NULL, 0); /* reads cells[t], writes cells[100 + t] */
  CHECK(gtrt_plan_stridable(pl, b) && gtrt_plan_strided(pl, b, 8, 2, base, step, kind));
  CHECK(!gtrt_plan_stridable(pl, b)); /* given already */
  gtrt_plan_barrier(pl);
  CHECK(pl->acc.n == 0 && pl->acc.ndone == 16);
  b = gtrt_plan_stage(pl, 0, 4, NULL, 0); /* writes cells[100] in every task: a chain */
  CHECK(gtrt_plan_strided(pl, b, 4, 2, base, zero, kind));
  gtrt_plan_barrier(pl);
  b = gtrt_plan_stage(pl, 0, 3, NULL, 0); /* independent, but a second instance joins */
  CHECK(gtrt_plan_strided(pl, b, 3, 2, base, step, kind));
  long long c = gtrt_plan_stage(pl, 1, 1, NULL, 0);
  CHECK(gtrt_plan_stridable(pl, c));
  gtrt_plan_access(pl, c, &cells[101], 0); /* reads what task b + 1 writes */
  CHECK(!gtrt_plan_stridable(pl, c));
  long long d = gtrt_plan_stage(pl, 0, 2, NULL, 0); /* joins the phase: writes cells[100 + t], t = 0, 1 */
  CHECK(gtrt_plan_stridable(pl, d) && gtrt_plan_strided(pl, d, 2, 2, base, step, kind));
  gtrt_plan_graph pg;
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  CHECK(pg.g.ntasks == 18 && pg.nphases == 3);
  CHECK(nedges(&pg.g) == 7);
  CHECK(succ_has(&pg.g, 8, 9) && succ_has(&pg.g, 9, 10) && succ_has(&pg.g, 10, 11) && succ_has(&pg.g, 13, 15));
  CHECK(succ_has(&pg.g, 12, 16) && succ_has(&pg.g, 13, 17) && succ_has(&pg.g, 15, 17)); /* WAW, WAW, WAR */
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);
}

/* Many phases and instances: an iterative loop of 2000 steps without a
 * taskwait after its single task, so that task and the next step's loop
 * share a phase (WAR edges); grows every table past its first allocation. */
static void test_many_phases(void) {
  gtrt_plan *pl = gtrt_plan_new(&site, sizeof(snap));
  for (int s = 0; s < 2000; s++) {
    snap sn = {s, s * 0.25};
    long long b = gtrt_plan_stage(pl, 0, 50, &sn, 1);
    for (int i = 0; i < 50; i++)
      gtrt_plan_access(pl, b + i, &cells[i], 1);
    gtrt_plan_barrier(pl);
    b = gtrt_plan_stage(pl, 1, 1, &sn, 0);
    for (int i = 0; i < 50; i++)
      gtrt_plan_access(pl, b, &cells[i], 0);
  }
  gtrt_plan_graph pg;
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  CHECK(pg.nphases == 2001 && pg.g.ntasks == 2000 * 51 && nedges(&pg.g) == 1999 * 50);
  CHECK(pg.g.nroots == 50 + 2000 && pg.root_off[1] == 50 && pg.root_off[2] == 51 && succ_has(&pg.g, 50, 51));
  CHECK(pl->ninst == 4000 && pl->inst_begin[3999] == 2000 * 51 - 1);
  snap got;
  memcpy(&got, pl->snaps + 3999 * sizeof(snap), sizeof got);
  CHECK(got.step == 1999 && got.x == 1999 * 0.25);
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);
}

/* The items of a heat-like depend-only region (nb blocks, steps steps,
 * one phase): step s reads blocks b-1..b+1 of u and writes v[b], then
 * copies v[b] back; tweak moves the last task's write. Reported to a plan
 * (pl) or to the inspector (in), which builds without the plan memo. */
static int heat_strided; /* the plan gets each loop's items as strides where they are */
static int heat_shift;   /* the copy writes block b + 1 + heat_shift */

static void heat_items(gtrt_plan *pl, gtrt_insp *in, int nb, int steps, int tweak) {
  long long t = 0;
  for (int s = 0; s < steps; s++) {
    for (int pass = 0; pass < 2; pass++) {
      if (pl)
        t = gtrt_plan_stage(pl, pass, nb, NULL, 0);
      if (pl && heat_strided && !(tweak && s == steps - 1 && pass == 1)) {
        static const int kind[2][4] = {{0, 0, 0, 1}, {0, 1}};
        const uintptr_t base[2][4] = {{(uintptr_t)&cells[0], (uintptr_t)&cells[1], (uintptr_t)&cells[2], (uintptr_t)&cells[128]},
                                      {(uintptr_t)&cells[128], (uintptr_t)&cells[1 + heat_shift]}},
                        step[4] = {sizeof cells[0], sizeof cells[0], sizeof cells[0], sizeof cells[0]};
        CHECK(gtrt_plan_strided(pl, t, nb, pass ? 2 : 4, base[pass], step, kind[pass]));
        t += nb;
        continue;
      }
      for (int b = 0; b < nb; b++, t++) {
        const int last = tweak && s == steps - 1 && b == nb - 1;
        const int at[4][2] = {{b, 0}, {b + 1, 0}, {b + 2, 0}, {128 + b, 1}}, back[2][2] = {{128 + b, 0}, {last ? 0 : b + 1 + heat_shift, 1}};
        for (int k = 0; k < (pass ? 2 : 4); k++) {
          const int *it = pass ? back[k] : at[k];
          if (pl)
            gtrt_plan_access(pl, t, &cells[it[0]], it[1]);
          else
            gtrt_insp_access(in, t, &cells[it[0]], it[1]);
        }
      }
    }
  }
}

/* The plan of heat_items, then tail tasks without items in a phase of
 * their own (never replayed: the builder copies its per-task counts
 * instead of handing them over). */
static gtrt_plan *heat_plan(int nb, int steps, int tweak, long long tail) {
  gtrt_plan *pl = gtrt_plan_new(&site, 0);
  heat_items(pl, NULL, nb, steps, tweak);
  if (tail) {
    gtrt_plan_barrier(pl);
    gtrt_plan_stage(pl, 2, tail, NULL, 1);
  }
  return pl;
}

/* The plan's graph equals the inspector's of the same items (the tail's
 * tasks have none). */
static int heat_graph_ok(const gtrt_plan_graph *pg, int nb, int steps, int tweak, long long tail) {
  gtrt_insp *in = gtrt_insp_new(&site, 2LL * nb * steps);
  heat_items(NULL, in, nb, steps, tweak);
  gtrt_task_graph want;
  int ok = gtrt_insp_build(&site, in, &want) == GTRT_OK;
  gtrt_insp_free(in);
  const unsigned n = want.ntasks, ne = ok ? want.off[n] : 0;
  ok = ok && pg->g.ntasks == n + tail && nedges(&pg->g) == ne;
  ok = ok && memcmp(pg->g.npred, want.npred, n * sizeof *want.npred) == 0 &&
       memcmp(pg->g.off, want.off, (n + 1) * sizeof *want.off) == 0 &&
       memcmp(pg->g.succ, want.succ, ne * sizeof *want.succ) == 0;
  for (long long t = n; ok && t < n + tail; t++)
    ok = pg->g.npred[t] == 0 && pg->g.off[t + 1] == ne;
  gtrt_task_graph_free(&want);
  return ok;
}

/* Builds heat_plan and checks it; returns its npred array (the memo's,
 * when it was borrowed) to tell a reused graph. */
static const int *heat_check(int nb, int steps, int tweak, long long tail) {
  gtrt_plan *pl = heat_plan(nb, steps, tweak, tail);
  gtrt_plan_graph pg;
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  CHECK(heat_graph_ok(&pg, nb, steps, tweak, tail));
  const int *np = pg.g.npred;
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);
  return np;
}

/* The builder keeps the last replay's memory and the last graph (the plan
 * memo): the same plan again borrows that graph; a plan that differs in
 * its last item, has more or fewer steps or more tasks, or is small and
 * different, gets the graph fresh state gives (compared with the
 * inspector's, which has no memo), and the memo follows it. */
static void test_reuse(void) {
  const int *first = heat_check(100, 300, 0, 0);
  CHECK(heat_check(100, 300, 0, 0) == first); /* borrowed */
  heat_check(100, 300, 1, 0);
  heat_check(100, 301, 0, 0);
  heat_check(100, 299, 0, 0);
  const int *tailed = heat_check(100, 300, 0, 100000);
  CHECK(heat_check(100, 300, 0, 100000) == tailed);
  CHECK(heat_check(100, 300, 0, 0) != tailed); /* the same items, fewer tasks: built again */
  heat_check(2, 1, 0, 100000);
  heat_check(2, 1, 1, 0);
  heat_check(100, 300, 0, 0);
  /* npred of the borrowed graph: tasks 100 (a copy) and 250 (an update of step 1) */
  gtrt_plan *pl = heat_plan(100, 300, 0, 0);
  gtrt_plan_graph pg;
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  CHECK(pg.borrowed && pg.g.nroots == 100 && npred_at(&pg.g, 100) == 2 && npred_at(&pg.g, 250) == 4);
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);
}

/* Level phases: heat's steps become one phase per task loop (edges only
 * between them, so the graph is dropped); wider levels than allowed, a
 * level starting inside an instance or levels that decrease keep the
 * graph. A borrowed graph (the memo's) stays intact for the next plan. */
static void test_levels(void) {
  gtrt_plan *pl = heat_plan(10, 3, 0, 5); /* tasks 0..59 in 6 loops of 10, then a phase of 5 */
  gtrt_plan_graph pg;
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  CHECK(pg.nphases == 2 && nedges(&pg.g) > 0);
  CHECK(gtrt_plan_levels(pl, &pg, 9) == 0 && pg.nphases == 2 && nedges(&pg.g) > 0); /* 10 per level > 9 */
  CHECK(gtrt_plan_levels(pl, &pg, 10) == 1);
  static const unsigned end[] = {10, 20, 30, 40, 50, 60, 65};
  CHECK(pg.nphases == 7 && memcmp(pg.phase_end, end, sizeof end) == 0);
  CHECK(!pg.g.off && !pg.g.npred && !pg.roots && pg.g.nroots == 65 && pg.g.ntasks == 65);
  CHECK(pg.root_off[0] == 0 && pg.root_off[3] == 30 && pg.root_off[7] == 65);
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);

  /* a chain inside one instance: levels start inside it */
  pl = gtrt_plan_new(&site, 0);
  long long b = gtrt_plan_stage(pl, 0, 4, NULL, 0);
  for (int i = 0; i < 4; i++)
    gtrt_plan_access(pl, b + i, &cells[0], 2);
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  CHECK(nedges(&pg.g) == 3 && gtrt_plan_levels(pl, &pg, 100) == 0 && pg.nphases == 1 && nedges(&pg.g) == 3);
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);

  /* levels 0 1 | 1 0: task 3 does not wait for anything */
  pl = gtrt_plan_new(&site, 0);
  b = gtrt_plan_stage(pl, 0, 2, NULL, 0);
  gtrt_plan_access(pl, b, &cells[0], 1);
  gtrt_plan_access(pl, b + 1, &cells[0], 0);
  gtrt_plan_access(pl, b + 1, &cells[1], 1);
  b = gtrt_plan_stage(pl, 1, 2, NULL, 0);
  gtrt_plan_access(pl, b, &cells[1], 0);
  gtrt_plan_access(pl, b + 1, &cells[5], 1);
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  CHECK(gtrt_plan_levels(pl, &pg, 100) == 0 && pg.nphases == 1 && nedges(&pg.g) == 2);
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);

  /* the memo's graph: levels drop the plan's view of it, not the memo's */
  heat_check(20, 4, 0, 0);
  heat_check(20, 4, 0, 0);
  pl = heat_plan(20, 4, 0, 0);
  CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
  CHECK(pg.borrowed && gtrt_plan_levels(pl, &pg, 20) == 1 && pg.nphases == 8 && !pg.borrowed);
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);
  heat_check(20, 4, 0, 0); /* borrows the memo's graph again, intact */

  /* The memo keeps the levels with its graph, but they also depend on the
   * instances: the same items (so the same graph, borrowed) with step 0's
   * two loops recorded as one instance must not be cut inside it. */
  for (int run = 0; run < 4; run++) {
    const int merged = run == 3;
    pl = gtrt_plan_new(&site, 0);
    for (int st = 0; st < 3; st++) {
      long long t = gtrt_plan_stage(pl, 0, merged && st == 0 ? 20 : 10, NULL, 0);
      for (int blk = 0; blk < 10; blk++, t++) {
        for (int k = 0; k < 3; k++)
          gtrt_plan_access(pl, t, &cells[blk + k], 0);
        gtrt_plan_access(pl, t, &cells[128 + blk], 1);
      }
      if (!(merged && st == 0))
        t = gtrt_plan_stage(pl, 1, 10, NULL, 0);
      for (int blk = 0; blk < 10; blk++, t++) {
        gtrt_plan_access(pl, t, &cells[128 + blk], 0);
        gtrt_plan_access(pl, t, &cells[blk + 1], 1);
      }
    }
    CHECK(gtrt_plan_build(&site, pl, &pg) == GTRT_OK);
    CHECK(pg.g.ntasks == 60 && (run < 2 || pg.borrowed));
    CHECK(gtrt_plan_levels(pl, &pg, 100) == !merged && pg.nphases == (merged ? 1u : 6u));
    gtrt_plan_graph_free(&pg);
    gtrt_plan_free(pl);
  }
}

/* The memo with the loops given by strides (several instances share the
 * phase, so each goes in as a descriptor): the same strides again borrow
 * the graph; a plan whose last loop is reported item by item, or that
 * gives the same items one by one instead of as strides, or has one step
 * less, is built again, and every graph equals the inspector's. */
static void test_reuse_strided(void) {
  heat_strided = 1;
  heat_check(100, 300, 0, 0);
  const int *kept = heat_check(100, 300, 0, 0);
  CHECK(heat_check(100, 300, 0, 0) == kept); /* borrowed */
  heat_check(100, 300, 1, 0);
  const int *tweaked = heat_check(100, 300, 1, 0);
  CHECK(tweaked != kept && heat_check(100, 300, 1, 0) == tweaked);
  heat_strided = 0;
  CHECK(heat_check(100, 300, 1, 0) != tweaked);
  heat_strided = 1;
  heat_check(100, 299, 0, 0);
  heat_check(7, 3, 0, 5);
  kept = heat_check(100, 300, 0, 0);
  CHECK(heat_check(100, 300, 0, 0) == kept);
  heat_shift = 1; /* the same tasks and descriptors but one base: other edges */
  CHECK(heat_check(100, 300, 0, 0) != kept);
  heat_shift = 0;
  heat_strided = 0;
}

int main(void) {
  test_two_phases();
  test_fast_path();
  test_empty_phases();
  test_mixed();
  test_dropped_items();
  test_readers();
  test_streamed();
  test_misuse();
  test_random();
  test_strided();
  test_many_phases();
  test_reuse();
  test_reuse_strided();
  test_levels();
  return unit_result();
}
