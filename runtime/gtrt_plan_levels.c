/* Level phases: a phase whose graph is a sequence of narrow levels runs
 * level by level, each level a phase of its own without a graph.
 *
 * A task's level is the length of the longest chain of predecessors
 * before it in its phase. When the levels never decrease with the task
 * id and every level starts at a stage instance (heat's or Jacobi's
 * depend-only steps: one level per task loop of a step), cutting the
 * phase at each level keeps every edge between two cuts, so the grid
 * barrier between them orders all of them: the level phases need no
 * counters, no queue and no release fences. On the H200 a dependent hop
 * through a counter and the queue cost about 5.6 us against about 1.9 us
 * per phase for a barrier and a task (docs/phases.md), so a phase whose
 * levels are narrower than the GPU's workers (latency-bound) runs faster
 * this way. Wide levels keep the counters: there tasks of consecutive
 * steps overlap, which the barriers would forbid (heat with 2048 blocks
 * per step: 13.2 ms with counters, 13.9 ms level by level). */
#include <stdlib.h>
#include <string.h>

#include "gtrt_insp.h"

/* Phase p (tasks lo..hi-1) has edges: not every task is a root. */
static int gtrt_lv_has_edges(const gtrt_plan_graph *pg, unsigned p, unsigned lo) {
  return pg->root_off[p + 1] - pg->root_off[p] != pg->phase_end[p] - lo;
}

/* Levels of all tasks (edges go from lower to higher ids, so one pass in
 * id order sees every predecessor first); NULL when out of memory. */
static unsigned *gtrt_lv_levels(const gtrt_task_graph *g) {
  unsigned *lv = calloc(g->ntasks ? g->ntasks : 1, sizeof *lv);
  if (!lv)
    return NULL;
  for (unsigned t = 0; t < g->ntasks; t++)
    for (unsigned e = g->off[t]; e < g->off[t + 1]; e++)
      if (lv[g->succ[e]] < lv[t] + 1)
        lv[g->succ[e]] = lv[t] + 1;
  return lv;
}

/* The new phase ends: every phase with edges cut at its level changes;
 * 0 (nothing changed) when some level decreases, starts inside an
 * instance, or the phase's levels are wider than max_width tasks on
 * average. */
static unsigned gtrt_lv_cuts(const gtrt_plan *pl, const gtrt_plan_graph *pg, const unsigned *lv, unsigned max_width,
                             unsigned *end) {
  unsigned n = 0;
  size_t i = 0; /* instance pointer: inst_begin[i] is the first begin >= the task looked at */
  for (unsigned p = 0, lo = 0; p < pg->nphases; lo = pg->phase_end[p++]) {
    const unsigned hi = pg->phase_end[p];
    if (gtrt_lv_has_edges(pg, p, lo)) {
      const unsigned nlevels = lv[hi - 1] + 1; /* levels are 0 .. lv[hi - 1] when they never decrease */
      if ((hi - lo) / nlevels > max_width)
        return 0;
      for (unsigned t = lo + 1; t < hi; t++) {
        if (lv[t] < lv[t - 1])
          return 0;
        if (lv[t] == lv[t - 1])
          continue;
        while (i < pl->ninst && pl->inst_begin[i] < t)
          i++;
        if (i == pl->ninst || pl->inst_begin[i] != t)
          return 0; /* a level starting inside an instance: a phase record starts its first instance */
        end[n++] = t;
      }
    }
    end[n++] = hi;
  }
  return n;
}

/* The new phase ends of pg (n of them, 0: it stays as it is), found from
 * its graph, or kept in the plan memo when pg borrows the memo's graph
 * (the pass over every edge took 0.6 ms for heat's 500,000). NULL with
 * *n == 0 when it stays or out of memory. */
static unsigned *gtrt_lv_find(const gtrt_plan *pl, const gtrt_plan_graph *pg, unsigned max_width, unsigned *n) {
  const unsigned *kept;
  *n = 0;
  if (pg->borrowed && gtrt_memo_levels(pl->memo, max_width, pg->phase_end, pg->nphases, pl->inst_begin, pl->ninst,
                                       &kept, n)) {
    unsigned *end = *n ? malloc((size_t)*n * sizeof *end) : NULL;
    if (end)
      memcpy(end, kept, (size_t)*n * sizeof *end);
    else
      *n = 0;
    return end;
  }
  unsigned *lv = gtrt_lv_levels(&pg->g);
  unsigned *end = lv ? malloc(((size_t)pg->g.ntasks + pg->nphases) * sizeof *end) : NULL; /* cuts + old ends */
  *n = end ? gtrt_lv_cuts(pl, pg, lv, max_width, end) : 0;
  free(lv);
  if (end && pg->borrowed)
    gtrt_memo_set_levels(pl->memo, max_width, pg->phase_end, pg->nphases, pl->inst_begin, pl->ninst, end, *n);
  if (!*n) {
    free(end);
    end = NULL;
  }
  return end;
}

int gtrt_plan_levels(const gtrt_plan *pl, gtrt_plan_graph *pg, unsigned max_width) {
  if (!pg->g.off || !pg->g.off[pg->g.ntasks] || !pg->root_off || !max_width)
    return 0; /* no edges, or not wanted */
  unsigned n;
  unsigned *end = gtrt_lv_find(pl, pg, max_width, &n);
  unsigned *root_off = n ? malloc(((size_t)n + 1) * sizeof *root_off) : NULL;
  if (!root_off) {
    free(end);
    return 0;
  }
  /* every task a root: no per-task arrays (the memo keeps its own) */
  if (!pg->borrowed)
    gtrt_task_graph_free(&pg->g);
  const unsigned ntasks = pg->g.ntasks;
  memset(&pg->g, 0, sizeof pg->g);
  pg->g.ntasks = pg->g.nroots = ntasks;
  pg->borrowed = 0;
  free(pg->phase_end);
  free(pg->root_off);
  free(pg->roots);
  pg->roots = NULL;
  pg->phase_end = end;
  pg->nphases = n;
  root_off[0] = 0;
  memcpy(root_off + 1, end, (size_t)n * sizeof *end);
  pg->root_off = root_off;
  return 1;
}
