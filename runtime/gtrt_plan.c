/* Plans of phased task regions, host part without a GPU: the generated host
 * code walks the region in program order and records stage instances
 * (task type, task count, snapshot), barriers and depend items; the builder
 * cuts the tasks into phases at the barriers and replays the items with
 * the inspector's OpenMP rules (gtrt_insp.c), the per-address state
 * forgotten at each cut. The items live only in a small buffer: a barrier
 * drops them when its phase needs no graph and replays them otherwise, and
 * a phase known to need one (two instances) is replayed whenever the
 * buffer fills. gtrt_plan_finish (gtrt_task.c) uploads the result.
 * Misuse never crashes: the first one is kept and reported by finish. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtrt_core.h"
#include "gtrt_insp.h"

#define GTRT_PLAN_MAX_TASKS 0x7fffffffLL /* ids stay below 2^31 */

/* ---- phases that need no graph ------------------------------------------------- */

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
  int inc[16], dec[16], writes[16], bad = 0;
  /* slot by slot, branch-free over the tasks: this runs at every barrier.
   * Each slot's task numbers step by one; as the items lie in lo .. hi - 1
   * in order, task t's items are v[t * m .. t * m + m). */
  for (size_t j = 0; j < m; j++) {
    const gtrt_insp_item *a = v + j;
    uintptr_t lo_addr = a->addr, hi_addr = a->addr;
    int up = 1, down = 1;
    for (size_t t = 1; t < tasks; t++, a += m) {
      uintptr_t x = a[m].addr;
      bad |= (a[m].task != a->task + 1) | (a[m].kind != a->kind);
      up &= x > a->addr;
      down &= x < a->addr;
      lo_addr = x < lo_addr ? x : lo_addr;
      hi_addr = x > hi_addr ? x : hi_addr;
    }
    mn[j] = lo_addr;
    mx[j] = hi_addr;
    inc[j] = up;
    dec[j] = down;
    writes[j] = v[j].kind != 0;
  }
  if (bad)
    return 0;
  for (size_t j = 0; j < m; j++)
    for (size_t k = j; k < m; k++) {
      if (!writes[j] && !writes[k])
        continue;
      int mono = (inc[j] | dec[j]) & (inc[k] | dec[k]); /* not monotone: fine only for a slot that never meets a write */
      if (j == k) {
        if (!mono)
          return 0;
        continue;
      }
      if (mx[j] < mn[k] || mx[k] < mn[j])
        continue;
      for (size_t t = 0; t < tasks; t++) /* overlapping ranges: the same address in every task? */
        if (v[t * m + j].addr != v[t * m + k].addr)
          return 0;
      if (!mono)
        return 0;
    }
  return 1;
}

/* First task of the open phase (the one the next barrier closes). */
static unsigned gtrt_plan_open_lo(const gtrt_plan *pl) { return pl->ncut ? pl->cut[pl->ncut - 1] : 0; }

/* gtrt_plan_slots_disjoint for items kept as strides: slot j of task t at
 * base[j] + t * stride[j]. Same rule: a slot that takes part in a write
 * is monotone (stride != 0) and two such slots either name the same
 * address in every task or have disjoint ranges. */
static int gtrt_plan_strides_disjoint(const gtrt_strides *sd) {
  const int m = sd->m;
  const uintptr_t *b = sd->base, *s = sd->stride, last = sd->n - 1;
  if (sd->n <= 1)
    return 1;
  for (int j = 0; j < m; j++)
    for (int k = j; k < m; k++) {
      if (!sd->kind[j] && !sd->kind[k])
        continue;
      if (!s[j] || !s[k])
        return 0; /* the same address in two tasks */
      if (j == k)
        continue;
      uintptr_t ej = b[j] + last * s[j], ek = b[k] + last * s[k]; /* modular, like the addresses */
      uintptr_t lj = b[j] < ej ? b[j] : ej, hj = b[j] < ej ? ej : b[j];
      uintptr_t lk = b[k] < ek ? b[k] : ek, hk = b[k] < ek ? ek : b[k];
      /* a range that wraps around 2^64 is not monotone as an address: the
       * modular end would not bound it; treat it as overlapping */
      int wraps = (s[j] < ((uintptr_t)1 << 63) ? ej < b[j] : ej > b[j]) || (s[k] < ((uintptr_t)1 << 63) ? ek < b[k] : ek > b[k]);
      if (!wraps && (hj < lk || hk < lj))
        continue;
      if (b[j] != b[k] || s[j] != s[k])
        return 0;
    }
  return 1;
}

/* The open phase, tasks lo .. acc.ntasks - 1 whose items the buffer holds
 * (none replayed: that starts with a second instance), needs no graph: at
 * most one task, all its tasks in one self_indep instance (instances never
 * straddle a cut), or one instance whose items pass
 * gtrt_plan_slots_disjoint. */
static int gtrt_plan_open_no_graph(const gtrt_plan *pl) {
  unsigned lo = gtrt_plan_open_lo(pl), hi = pl->acc.ntasks;
  if (hi - lo <= 1)
    return 1;
  size_t k = pl->phase_inst;
  while (pl->inst_begin[k + 1] <= lo) /* the instance holding task lo */
    k++;
  if (pl->inst_begin[k + 1] < hi)
    return 0; /* several instances */
  return pl->inst_indep[k] || gtrt_plan_slots_disjoint(pl->acc.v, pl->acc.n, lo, hi);
}

/* The replay object, created on first use; 0 when out of memory (recorded). */
static int gtrt_plan_need_replay(gtrt_plan *pl) {
  if (!pl->rp && !(pl->rp = gtrt_replay_new()))
    pl->acc.oom_bytes = 256; /* about sizeof(gtrt_replay) */
  return pl->rp != NULL;
}

/* Replays the memo's chunks that are this plan's too (once it differed
 * from the memo, or at the build); 0 when out of memory (recorded). */
static int gtrt_plan_catch_up(gtrt_plan *pl) {
  if (!gtrt_memo_pending(pl->memo))
    return 1;
  if (!gtrt_plan_need_replay(pl))
    return 0;
  size_t bytes = gtrt_memo_catch_up(pl->memo, pl->rp);
  if (bytes)
    pl->acc.oom_bytes = bytes;
  return !bytes;
}

/* Whole tasks of the open phase, items v[0..k) or (sd != NULL) the
 * instance sd gives by strides, into the graph, or only compared when the
 * memo holds the same chunk. 0 when out of memory (recorded). */
static int gtrt_plan_replay_chunk(gtrt_plan *pl, const gtrt_insp_item *v, size_t k, const gtrt_strides *sd) {
  const unsigned lo = gtrt_plan_open_lo(pl);
  if (sd ? gtrt_memo_follow_strides(pl->memo, sd, lo) : gtrt_memo_follow(pl->memo, v, k, lo))
    return 1;
  if (!gtrt_plan_catch_up(pl) || !gtrt_plan_need_replay(pl))
    return 0;
  size_t bytes = sd ? gtrt_replay_strides(pl->rp, sd, lo) : gtrt_replay_items(pl->rp, v, k, lo);
  if (bytes)
    pl->acc.oom_bytes = bytes;
  return !bytes;
}

/* Replays (or compares) the buffer's first k items and drops them. */
static void gtrt_plan_replay(gtrt_plan *pl, size_t k) {
  gtrt_insp *a = &pl->acc;
  if (!gtrt_plan_replay_chunk(pl, a->v, k, NULL))
    return;
  if (a->n > k) /* a->v may be NULL when nothing was recorded */
    memmove(a->v, a->v + k, (a->n - k) * sizeof *a->v);
  a->n -= k;
  a->ndone += k;
}

/* An instance given by strides, whose phase needs a graph, after every
 * item before it. */
static void gtrt_plan_replay_strides(gtrt_plan *pl, const gtrt_strides *sd) {
  pl->acc.ndone += (size_t)sd->n * (size_t)sd->m;
  gtrt_plan_replay_chunk(pl, NULL, 0, sd);
}

/* The kept strided instance (alone in its phase until now), when its
 * phase needs a graph after all. */
static void gtrt_plan_replay_kept(gtrt_plan *pl) {
  if (!pl->strided.on)
    return;
  pl->strided.on = 0;
  gtrt_plan_replay_strides(pl, &pl->strided.s);
}

/* Ends the open phase's items: dropped when it needs no graph, else
 * replayed. */
static void gtrt_plan_close(gtrt_plan *pl) {
  if (pl->strided.on) {
    if (!pl->open_graph && gtrt_plan_strides_disjoint(&pl->strided.s)) { /* alone and independent: no item at all */
      pl->strided.on = 0;
      pl->acc.ndone += (size_t)pl->strided.s.n * (size_t)pl->strided.s.m;
      return;
    }
    gtrt_plan_replay_kept(pl);
  }
  if (pl->open_graph || !gtrt_plan_open_no_graph(pl)) {
    gtrt_plan_replay(pl, pl->acc.n);
    return;
  }
  pl->acc.ndone += pl->acc.n;
  pl->acc.n = 0;
}

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
    pl->memo = gtrt_memo_take(site); /* NULL: no memo, every phase is replayed */
    if (gtrt_profile_enabled())
      pl->t_new = gtrt_now_ms();
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
  if (pl->built) {
    gtrt_plan_misuse(pl, "task type %d recorded after the plan was built", stage);
    return -1;
  }
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
  if (ntasks && first > gtrt_plan_open_lo(pl)) {
    pl->open_graph = 1; /* a second instance with tasks in the phase */
    gtrt_plan_replay_kept(pl);
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

int gtrt_plan_stridable(const gtrt_plan *pl, long long first) {
  return pl && !pl->built && !pl->acc.oom_bytes && !pl->acc.bad[0] && !pl->strided.on &&
         first >= (long long)gtrt_plan_open_lo(pl) && pl->acc.last_task < first;
}

int gtrt_plan_strided(gtrt_plan *pl, long long first, long long ntasks, int m, const uintptr_t *base,
                      const uintptr_t *stride, const int *kind) {
  if (!gtrt_plan_stridable(pl, first) || m < 1 || m > GTRT_PLAN_STRIDED_MAX || ntasks < 1 ||
      first + ntasks != (long long)pl->acc.ntasks || !base || !stride || !kind)
    return 0;
  for (int j = 0; j < m; j++)
    if (kind[j] < 0 || kind[j] > 2)
      return 0; /* reported item by item, where the misuse is recorded */
  /* alone in its phase so far: kept for the barrier to decide; else the
   * phase needs a graph and the strides are replayed at once */
  const int alone = !pl->open_graph && pl->acc.n == 0;
  gtrt_strides local, *sd = alone ? &pl->strided.s : &local;
  /* field by field, unused slots zero (descriptors compare with memcmp):
   * a memset and a struct copy took most of the walk of heat's 2000
   * instances */
  sd->first = (unsigned)first;
  sd->n = (unsigned)ntasks;
  sd->m = m;
  sd->zero = 0;
  for (int j = 0; j < GTRT_PLAN_STRIDED_MAX; j++) {
    sd->base[j] = j < m ? base[j] : 0;
    sd->stride[j] = j < m ? stride[j] : 0;
    sd->kind[j] = j < m ? kind[j] : 0;
  }
  pl->acc.last_task = first + ntasks - 1; /* items of these tasks are misuse from now */
  if (alone) {
    pl->strided.on = 1;
    return 1;
  }
  if (pl->acc.n) /* the items of earlier instances go first */
    gtrt_plan_replay(pl, pl->acc.n);
  gtrt_plan_replay_strides(pl, sd);
  return 1;
}

/* The checked way of gtrt_plan_access (out of line, so the common path
 * saves no registers). Once the open phase is known to
 * need a graph, a full buffer is replayed but for the last task's items
 * (more may come), so it stays small. */
static void gtrt_plan_add(gtrt_plan *pl, long long task, const void *addr, int kind) __attribute__((noinline));
static void gtrt_plan_add(gtrt_plan *pl, long long task, const void *addr, int kind) {
  if (!pl)
    return;
  gtrt_insp *a = &pl->acc;
  if (a->n == a->cap && pl->open_graph && !a->oom_bytes) {
    size_t k = a->n;
    while (k && a->v[k - 1].task == (unsigned)a->last_task)
      k--;
    gtrt_plan_replay(pl, k);
  }
  gtrt_insp_add(a, task, addr, kind); /* range: the tasks recorded so far */
}

void gtrt_plan_access(gtrt_plan *pl, long long task, const void *addr, int kind) {
  if (!pl || !gtrt_insp_try(&pl->acc, task, addr, kind))
    gtrt_plan_add(pl, task, addr, kind);
}

/* Closes the open phase. Its items leave the buffer at once (dropped when
 * it needs no graph, else replayed), so the buffer stays small across
 * thousands of phases and the build never sees them. Items of the closed
 * phase's tasks are misuse from now. */
void gtrt_plan_barrier(gtrt_plan *pl) {
  if (!pl || pl->acc.oom_bytes)
    return;
  if (pl->built) {
    gtrt_plan_misuse(pl, "taskwait recorded after the plan was built");
    return;
  }
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
  gtrt_plan_close(pl);
  pl->cut[pl->ncut++] = pl->acc.ntasks;
  pl->phase_inst = pl->ninst;
  pl->open_graph = 0;
  pl->acc.first_task = pl->acc.ntasks;
  pl->acc.last_task = -1;
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
  gtrt_replay_free(pl->rp);
  gtrt_memo_give(pl->memo);
  free(pl);
}

/* ---- building -------------------------------------------------------------------- */

void gtrt_plan_graph_free(gtrt_plan_graph *pg) {
  if (!pg->borrowed)
    gtrt_task_graph_free(&pg->g);
  free(pg->phase_end);
  free(pg->root_off);
  free(pg->roots);
  memset(pg, 0, sizeof *pg);
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

/* No phase was replayed, so no task has a predecessor: no per-task
 * arrays (a walk of half a million tasks spent over a millisecond filling
 * them), every task a root. */
static int gtrt_plan_no_edges(gtrt_plan_graph *pg, unsigned ntasks) {
  pg->g.ntasks = pg->g.nroots = ntasks;
  pg->root_off = malloc(((size_t)pg->nphases + 1) * sizeof *pg->root_off);
  if (!pg->root_off)
    return 0;
  pg->root_off[0] = 0;
  memcpy(pg->root_off + 1, pg->phase_end, (size_t)pg->nphases * sizeof *pg->phase_end);
  return 1;
}

/* The graph: the memo's when this plan replayed exactly its items (none
 * hashed, nothing built), else built from the replay (and kept in the
 * memo for the next plan), or none when no phase needed one. */
static int gtrt_plan_edges(gtrt_plan *pl, gtrt_plan_graph *pg) {
  const unsigned n = pl->acc.ntasks;
  if (gtrt_memo_reuse(pl->memo, n, &pg->g)) {
    pg->borrowed = 1;
    return gtrt_plan_roots(pg);
  }
  if (!gtrt_plan_catch_up(pl))
    return 0;
  if (!pl->rp)
    return gtrt_plan_no_edges(pg, n);
  if (!gtrt_replay_graph(pl->rp, n, &pg->g))
    return 0;
  pg->borrowed = gtrt_memo_keep(pl->memo, n, &pg->g);
  return gtrt_plan_roots(pg);
}

gtrt_status gtrt_plan_build(const gtrt_site *site, gtrt_plan *pl, gtrt_plan_graph *pg) {
  memset(pg, 0, sizeof *pg);
  if (!pl)
    return gtrt_record(site, GTRT_ERR_ARG, "task plan of the '%s' region was not created", gtrt_site_what(site));
  if (pl->built)
    return gtrt_record(site, GTRT_ERR_ARG, "task plan of the '%s' region was built already", gtrt_site_what(site));
  pl->built = 1;
  if (!pl->acc.bad[0] && !pl->acc.oom_bytes)
    gtrt_plan_close(pl);
  pl->acc.first_task = pl->acc.ntasks; /* later items are misuse */
  pl->acc.last_task = -1;
  gtrt_status st = gtrt_insp_check(site, &pl->acc, "task plan");
  if (st != GTRT_OK)
    return st;
  pg->nphases = (unsigned)pl->ncut + 1;
  pg->phase_end = malloc((size_t)pg->nphases * sizeof *pg->phase_end);
  int ok = pg->phase_end != NULL;
  if (ok) {
    if (pl->ncut)
      memcpy(pg->phase_end, pl->cut, pl->ncut * sizeof *pl->cut);
    pg->phase_end[pl->ncut] = pl->acc.ntasks;
    ok = gtrt_plan_edges(pl, pg);
  }
  if (ok)
    return GTRT_OK;
  gtrt_plan_graph_free(pg);
  return gtrt_record(site, GTRT_ERR_NOMEM,
                     "out of host memory building the task graph of the '%s' region (%u tasks, %zu depend items)",
                     gtrt_site_what(site), pl->acc.ntasks, pl->acc.ndone + pl->acc.n);
}
