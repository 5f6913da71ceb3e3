/* Plans of phased task regions, host part without a GPU: the generated host
 * code walks the region in program order and records stage instances
 * (task type, task count, snapshot), barriers and depend items; the builder
 * cuts the tasks into phases at the barriers and replays the items with
 * the inspector's OpenMP rules (gtrt_insp.c), the per-address state
 * forgotten at each cut. gtrt_plan_finish (gtrt_task.c) uploads the result.
 * Misuse never crashes: the first one is kept and reported by finish. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtrt_core.h"
#include "gtrt_insp.h"

#define GTRT_PLAN_MAX_TASKS 0x7fffffffLL /* ids stay below 2^31 */

/* ---- recording ------------------------------------------------------------------ */

static int gtrt_plan_grow_inst(gtrt_plan *pl, size_t cap) {
  /* inst_begin keeps one more entry: the end of the last instance */
  unsigned *b = realloc(pl->inst_begin, (cap + 1) * sizeof *b);
  if (b)
    pl->inst_begin = b;
  int *s = realloc(pl->inst_stage, cap * sizeof *s);
  if (s)
    pl->inst_stage = s;
  unsigned char *f = realloc(pl->inst_indep, cap);
  if (f)
    pl->inst_indep = f;
  unsigned char *sn = pl->snap_bytes ? realloc(pl->snaps, cap * pl->snap_bytes) : pl->snaps;
  if (sn)
    pl->snaps = sn;
  if (!b || !s || !f || (pl->snap_bytes && !sn)) {
    pl->acc.oom_bytes = cap * ((size_t)pl->snap_bytes + 2 * sizeof(unsigned) + 1);
    return 0;
  }
  pl->capinst = cap;
  return 1;
}

gtrt_plan *gtrt_plan_new(const gtrt_site *site, unsigned snap_bytes) {
  gtrt_plan *pl = calloc(1, sizeof *pl);
  if (pl) {
    pl->site = site;
    pl->snap_bytes = snap_bytes;
    pl->acc.site = site;
    pl->acc.last_task = -1;
  }
  if (!pl || !gtrt_plan_grow_inst(pl, 16)) {
    gtrt_record(site, GTRT_ERR_NOMEM, "out of host memory for the task plan of the '%s' region (%zu bytes)",
                gtrt_site_what(site), sizeof *pl + 16 * ((size_t)snap_bytes + 9));
    gtrt_plan_free(pl);
    return NULL;
  }
  pl->inst_begin[0] = 0;
  return pl;
}

/* Keeps the first misuse for finish and records it now too (so a caller
 * that stops at once, as on gtrt_plan_stage's -1, prints it). */
static void gtrt_plan_misuse(gtrt_plan *pl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void gtrt_plan_misuse(gtrt_plan *pl, const char *fmt, ...) {
  char msg[sizeof pl->acc.bad];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!pl->acc.bad[0])
    memcpy(pl->acc.bad, msg, sizeof msg);
  gtrt_record(pl->site, GTRT_ERR_ARG, "task plan of the '%s' region: %s", gtrt_site_what(pl->site), msg);
}

long long gtrt_plan_stage(gtrt_plan *pl, int stage, long long ntasks, const void *snap, int self_indep) {
  if (!pl)
    return -1;
  long long first = pl->acc.ntasks;
  if (ntasks < 0 || ntasks > GTRT_PLAN_MAX_TASKS - first) {
    gtrt_plan_misuse(pl, "task type %d adds %lld tasks to %lld (a region has 0 .. 2^31-1 tasks)", stage, ntasks, first);
    return -1;
  }
  if (!snap && pl->snap_bytes) {
    gtrt_plan_misuse(pl, "task type %d has no snapshot (%u bytes expected)", stage, pl->snap_bytes);
    return -1;
  }
  if (pl->ninst == pl->capinst && !gtrt_plan_grow_inst(pl, 2 * pl->capinst)) {
    gtrt_record(pl->site, GTRT_ERR_NOMEM, "out of host memory in the task plan of the '%s' region (%zu bytes)",
                gtrt_site_what(pl->site), pl->acc.oom_bytes);
    return -1;
  }
  size_t i = pl->ninst++;
  pl->inst_stage[i] = stage;
  pl->inst_indep[i] = self_indep != 0;
  if (pl->snap_bytes)
    memcpy(pl->snaps + i * pl->snap_bytes, snap, pl->snap_bytes);
  pl->acc.ntasks = (unsigned)(first + ntasks);
  pl->inst_begin[i + 1] = pl->acc.ntasks;
  return first;
}

void gtrt_plan_access(gtrt_plan *pl, long long task, const void *addr, int kind) {
  if (pl)
    gtrt_insp_access(&pl->acc, task, addr, kind); /* range: the tasks recorded so far */
}

void gtrt_plan_barrier(gtrt_plan *pl) {
  if (!pl || pl->acc.oom_bytes)
    return;
  if (pl->ncut >= (size_t)GTRT_PLAN_MAX_TASKS - 1) {
    gtrt_plan_misuse(pl, "more than 2^31-2 taskwaits");
    return;
  }
  if (pl->ncut == pl->capcut) {
    size_t cap = pl->capcut ? 2 * pl->capcut : 64;
    unsigned *c = realloc(pl->cut, cap * sizeof *c);
    if (!c) {
      pl->acc.oom_bytes = cap * sizeof *c;
      return;
    }
    pl->cut = c;
    pl->capcut = cap;
  }
  pl->cut[pl->ncut++] = pl->acc.ntasks;
}

void gtrt_plan_free(gtrt_plan *pl) {
  if (!pl)
    return;
  free(pl->acc.v);
  free(pl->inst_begin);
  free(pl->inst_stage);
  free(pl->inst_indep);
  free(pl->snaps);
  free(pl->cut);
  free(pl);
}

/* ---- building -------------------------------------------------------------------- */

void gtrt_plan_graph_free(gtrt_plan_graph *pg) {
  gtrt_task_graph_free(&pg->g);
  free(pg->phase_end);
  free(pg->root_off);
  free(pg->roots);
  memset(pg, 0, sizeof *pg);
}

/* The items v[0..n) of tasks lo..hi-1 of one instance never let two of
 * its tasks conflict, checked without hashing: each task has the same m
 * items; every slot (item position) that takes part in a write has
 * strictly monotone addresses over the tasks, and two slots of which one
 * writes either name the same address in every task or have disjoint
 * address ranges. Then addr[a][j] == addr[b][j'] with a != b is
 * impossible. Typical of block loops (u[b*bs] -> v[b*bs]) whose
 * subscripts the compiler could not prove injective. */
static int gtrt_plan_slots_disjoint(const gtrt_insp_item *v, size_t n, unsigned lo, unsigned hi) {
  size_t tasks = hi - lo, m = tasks ? n / tasks : 0;
  if (!m || m * tasks != n || m > 16)
    return 0;
  uintptr_t mn[16], mx[16];
  int dir[16], writes[16];
  for (size_t j = 0; j < m; j++) {
    mn[j] = mx[j] = v[j].addr;
    dir[j] = 0;
    writes[j] = v[j].kind != 0;
  }
  for (size_t t = 1; t < tasks; t++)
    for (size_t j = 0; j < m; j++) {
      const gtrt_insp_item *a = &v[(t - 1) * m + j], *b = &v[t * m + j];
      if (b->task != lo + t || b->kind != a->kind)
        return 0;
      int d = b->addr > a->addr ? 1 : b->addr < a->addr ? -1 : 0;
      if (d == 0 || (dir[j] && d != dir[j]))
        dir[j] = 2; /* not monotone: fine only for a slot that never meets a write */
      else
        dir[j] = d;
      if (b->addr < mn[j]) mn[j] = b->addr;
      if (b->addr > mx[j]) mx[j] = b->addr;
    }
  for (size_t j = 0; j < m; j++)
    for (size_t k = j; k < m; k++) {
      if (!writes[j] && !writes[k])
        continue;
      if (j == k) {
        if (tasks > 1 && dir[j] == 2)
          return 0;
        continue;
      }
      if (mx[j] < mn[k] || mx[k] < mn[j])
        continue;
      for (size_t t = 0; t < tasks; t++) /* overlapping ranges: the same address in every task? */
        if (v[t * m + j].addr != v[t * m + k].addr)
          return 0;
      if (tasks > 1 && (dir[j] == 2 || dir[k] == 2))
        return 0;
    }
  return 1;
}

/* Phase p needs no graph: at most one task, all its tasks in one
 * self_indep instance (instances never straddle a cut), or one instance
 * whose items pass gtrt_plan_slots_disjoint. */
static void gtrt_plan_no_graph(const gtrt_plan *pl, const unsigned *end, unsigned nphases, unsigned char *ng) {
  size_t k = 0, i = 0;
  for (unsigned p = 0, lo = 0; p < nphases; lo = end[p++]) {
    while (i < pl->acc.n && pl->acc.v[i].task < lo) /* the first item of the phase */
      i++;
    ng[p] = end[p] - lo <= 1;
    if (ng[p])
      continue;
    while (pl->inst_begin[k + 1] <= lo) /* the instance holding task lo */
      k++;
    if (pl->inst_begin[k + 1] < end[p])
      continue; /* several instances */
    size_t e = i;
    while (e < pl->acc.n && pl->acc.v[e].task < end[p])
      e++;
    ng[p] = pl->inst_indep[k] || gtrt_plan_slots_disjoint(pl->acc.v + i, e - i, lo, end[p]);
  }
}

/* Roots of each phase, in task order. */
static int gtrt_plan_roots(gtrt_plan_graph *pg) {
  pg->root_off = calloc((size_t)pg->nphases + 1, sizeof *pg->root_off);
  pg->roots = malloc((pg->g.nroots ? pg->g.nroots : 1) * sizeof *pg->roots);
  if (!pg->root_off || !pg->roots)
    return 0;
  unsigned n = 0;
  for (unsigned p = 0, t = 0; p < pg->nphases; p++) {
    for (; t < pg->phase_end[p]; t++)
      if (pg->g.npred[t] == 0)
        pg->roots[n++] = t;
    pg->root_off[p + 1] = n;
  }
  return 1;
}

gtrt_status gtrt_plan_build(const gtrt_site *site, const gtrt_plan *pl, gtrt_plan_graph *pg) {
  memset(pg, 0, sizeof *pg);
  if (!pl)
    return gtrt_record(site, GTRT_ERR_ARG, "task plan of the '%s' region was not created", gtrt_site_what(site));
  gtrt_status st = gtrt_insp_check(site, &pl->acc, "task plan");
  if (st != GTRT_OK)
    return st;
  pg->nphases = (unsigned)pl->ncut + 1;
  pg->phase_end = malloc((size_t)pg->nphases * sizeof *pg->phase_end);
  unsigned char *ng = malloc(pg->nphases);
  int ok = pg->phase_end && ng;
  if (ok) {
    if (pl->ncut)
      memcpy(pg->phase_end, pl->cut, pl->ncut * sizeof *pl->cut);
    pg->phase_end[pl->ncut] = pl->acc.ntasks;
    gtrt_plan_no_graph(pl, pg->phase_end, pg->nphases, ng);
    ok = gtrt_graph_build(&pl->acc, pg->phase_end, ng, pg->nphases, &pg->g) && gtrt_plan_roots(pg);
  }
  free(ng);
  if (ok)
    return GTRT_OK;
  gtrt_plan_graph_free(pg);
  return gtrt_record(site, GTRT_ERR_NOMEM,
                     "out of host memory building the task graph of the '%s' region (%u tasks, %zu depend items)",
                     gtrt_site_what(site), pl->acc.ntasks, pl->acc.n);
}
