/* Inspector of task regions and plans of phased regions, the part that
 * needs no GPU: records the depend items (and, for plans, the stage
 * instances and phase boundaries) the generated host code reports and
 * builds the task graph (predecessor counts, successor lists) with OpenMP
 * semantics. gtrt_insp_finish and gtrt_plan_finish (gtrt_task.c) upload it.
 * Internal: generated code uses gtrt.h. */
#ifndef GTRT_INSP_H
#define GTRT_INSP_H

#include <stdint.h>

#include "gtrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One reported depend item. */
typedef struct gtrt_insp_item {
  uintptr_t addr;
  unsigned task;
  int kind; /* 0 in, 1 out, 2 inout */
} gtrt_insp_item;

struct gtrt_insp {
  const gtrt_site *site;
  unsigned ntasks;
  gtrt_insp_item *v;
  size_t n, cap;
  size_t ndone;        /* items recorded before v[0] (plans: replayed or dropped) */
  long long last_task; /* tasks must come in increasing order; its items take the fast path */
  long long first_task; /* no task below (plans: the tasks before the last barrier) */
  char bad[256];       /* first misuse (order, range, kind), reported by finish */
  size_t oom_bytes;    /* a host allocation of this size failed while recording */
};

/* Stores one item the checked way: range, order, kind, room (misuse kept
 * in bad, out of memory in oom_bytes: the item is dropped). */
void gtrt_insp_add(gtrt_insp *in, long long task, const void *addr, int kind);

/* Stores one more item of the task whose first item passed the checks, or
 * the first of the next task (still in range and in order); 0 for anything
 * else (another task, a bad kind, a full buffer): then gtrt_insp_add. */
static inline int gtrt_insp_try(gtrt_insp *in, long long task, const void *addr, int kind) {
  if (in->n == in->cap || (unsigned)kind > 2)
    return 0;
  if (task != in->last_task) {
    if (in->last_task < 0 || task != in->last_task + 1 || task >= (long long)in->ntasks)
      return 0;
    in->last_task = task;
  }
  gtrt_insp_item *it = &in->v[in->n++];
  it->addr = (uintptr_t)addr;
  it->task = (unsigned)task;
  it->kind = kind;
  return 1;
}

/* The graph: task t waits for npred[t] tasks; its successors are
 * succ[off[t] .. off[t+1]) in increasing order. */
typedef struct gtrt_task_graph {
  unsigned ntasks;
  int *npred;
  unsigned *off;
  unsigned *succ;
  unsigned nroots; /* tasks with npred == 0 */
} gtrt_task_graph;

/* Builds g from in (in is kept). On failure records an error naming site
 * (misuse, out of host memory) and leaves g empty. */
gtrt_status gtrt_insp_build(const gtrt_site *site, const gtrt_insp *in, gtrt_task_graph *g);
void gtrt_insp_free(gtrt_insp *in);
void gtrt_task_graph_free(gtrt_task_graph *g);

/* The recording's first misuse (GTRT_ERR_ARG) or failed allocation
 * (GTRT_ERR_NOMEM), recorded naming site and noun ("task plan"); GTRT_OK
 * if none. */
gtrt_status gtrt_insp_check(const gtrt_site *site, const gtrt_insp *in, const char *noun);

/* The graph of in's items (checked already) for in->ntasks tasks cut into
 * nphases phases: phase p is tasks [p ? end[p-1] : 0, end[p]) (end
 * non-decreasing, end[nphases-1] = in->ntasks); no edge joins two phases.
 * no_graph (may be NULL): phase p's tasks get no edges and their items are
 * not even hashed. end == NULL: one phase. 0 when out of host memory (g
 * left empty). */
int gtrt_graph_build(const gtrt_insp *in, const unsigned *end, const unsigned char *no_graph, unsigned nphases,
                     gtrt_task_graph *g);

/* The items of one stage instance given by strides (gtrt_plan_strided):
 * item j of task first + t is at base[j] + t * stride[j] (mod 2^64), kind
 * kind[j]. Entries from m on are zero, so two descriptors of the same
 * items compare equal with memcmp. */
typedef struct gtrt_strides {
  unsigned first, n;
  int m, zero; /* zero: an explicit pad, so no byte of the struct is padding */
  uintptr_t base[GTRT_PLAN_STRIDED_MAX], stride[GTRT_PLAN_STRIDED_MAX];
  int kind[GTRT_PLAN_STRIDED_MAX];
} gtrt_strides;

/* The graph built as the items come (gtrt_graph_build, plans): replaying
 * whole tasks in order keeps only per-address state and the edges, so the
 * items need not be kept. */
typedef struct gtrt_replay gtrt_replay;
gtrt_replay *gtrt_replay_new(void); /* NULL when out of host memory */
/* Replays v[0..n): the items of whole tasks (in order, after those
 * replayed before), all in the phase whose first task is lo (lo
 * non-decreasing over the calls; a new phase forgets the per-address
 * state). 0, or the size of the allocation that failed. */
size_t gtrt_replay_items(gtrt_replay *r, const gtrt_insp_item *v, size_t n, unsigned lo);
/* gtrt_replay_items for the n * m items of s (whole tasks, after those
 * replayed before), expanded a few thousand at a time. */
size_t gtrt_replay_strides(gtrt_replay *r, const gtrt_strides *s, unsigned lo);
/* The graph of ntasks tasks (tasks never replayed have no edges); ends the
 * replay (only gtrt_replay_free may follow). 0 when out of host memory (g
 * left empty). */
int gtrt_replay_graph(gtrt_replay *r, unsigned ntasks, gtrt_task_graph *g);
void gtrt_replay_free(gtrt_replay *r);

/* ---- the plan memo (gtrt_plan_memo.c) ---------------------------------------- */

/* The last plan's replayed items and graph: a plan whose items match it
 * exactly borrows its graph instead of building one. */
typedef struct gtrt_plan_memo gtrt_plan_memo;
/* The kept memo or a new one (NULL: out of memory), for a plan of site's
 * region; it records only if the last plan was of the same region. */
gtrt_plan_memo *gtrt_memo_take(const gtrt_site *site);
void gtrt_memo_give(gtrt_plan_memo *m);      /* kept for the next plan */
/* A chunk the plan would replay (items v[0..k) of the phase starting at
 * task lo): 1 when it matches the memo, so nothing is to be replayed; 0
 * when it must be replayed, after gtrt_memo_catch_up. */
int gtrt_memo_follow(gtrt_plan_memo *m, const gtrt_insp_item *v, size_t k, unsigned lo);
/* The same for a chunk given by strides (compared as a descriptor). */
int gtrt_memo_follow_strides(gtrt_plan_memo *m, const gtrt_strides *sd, unsigned lo);
/* Replays the matched chunks that turned out to be needed; 0 or the size
 * of a failed allocation. */
size_t gtrt_memo_catch_up(gtrt_plan_memo *m, gtrt_replay *r);
int gtrt_memo_pending(const gtrt_plan_memo *m);
/* At the build: 1 when every chunk matched and the task count is the
 * memo's: g borrows the memo's graph (until the memo's next plan keeps
 * another, so free it before building the next plan). Otherwise the
 * matched chunks become pending. */
int gtrt_memo_reuse(gtrt_plan_memo *m, unsigned ntasks, gtrt_task_graph *g);
/* After a build from replayed items: the memo takes g's arrays when it
 * recorded this plan's chunks (1: g now borrows them), else 0. */
int gtrt_memo_keep(gtrt_plan_memo *m, unsigned ntasks, const gtrt_task_graph *g);
/* gtrt_plan_levels' answer for the memo's graph, kept with it for the
 * same width, phase ends and instance begins (ninst + 1 of them): 1 and
 * the n new phase ends (n == 0: the graph stays) when known. */
int gtrt_memo_levels(const gtrt_plan_memo *m, unsigned width, const unsigned *phase_end, size_t nphases,
                     const unsigned *inst_begin, size_t ninst, const unsigned **end, unsigned *n);
void gtrt_memo_set_levels(gtrt_plan_memo *m, unsigned width, const unsigned *phase_end, size_t nphases,
                          const unsigned *inst_begin, size_t ninst, const unsigned *end, unsigned n);

/* ---- plans of phased regions (gtrt_plan_*) ---------------------------------- */

struct gtrt_plan {
  const gtrt_site *site;
  unsigned snap_bytes;
  gtrt_insp acc;            /* depend items of the open phase not replayed yet; acc.ntasks: tasks
                               recorded so far; misuse */
  unsigned *inst_begin;     /* [ninst + 1]: first task of each instance, then acc.ntasks */
  int *inst_stage;          /* [ninst] */
  unsigned char *inst_indep; /* [ninst] self_indep flags */
  unsigned char *snaps;     /* [ninst * snap_bytes] */
  size_t ninst, capinst;
  unsigned *cut;            /* acc.ntasks at each barrier (non-decreasing) */
  size_t ncut, capcut;
  size_t phase_inst;        /* first instance of the open phase */
  int open_graph;           /* the open phase has two instances with tasks, so it needs a graph:
                               its items are replayed whenever the buffer fills */
  int built;                /* gtrt_plan_build ended the recording */
  gtrt_replay *rp;          /* the graph of the phases closed so far (NULL: none needed one yet) */
  gtrt_plan_memo *memo;     /* the previous plan's items and graph (NULL: none) */
  struct {                  /* gtrt_plan_strided: the open phase's only instance so far, items kept as strides */
    int on;
    gtrt_strides s;
  } strided;
  double t_new;             /* GTRT_PROFILE: gtrt_now_ms() at gtrt_plan_new (the host walk's start) */
};

/* What the plan becomes: the graph of all tasks and the phase tables of
 * gtrt_phases (the instance tables are the plan's own). */
typedef struct gtrt_plan_graph {
  gtrt_task_graph g;   /* g.npred, g.off, g.succ and roots are NULL when no task has a predecessor */
  unsigned nphases;
  unsigned *phase_end; /* [nphases] */
  unsigned *root_off;  /* [nphases + 1] */
  unsigned *roots;     /* [g.nroots], increasing (NULL: every task is a root) */
  int borrowed;        /* g's arrays belong to the plan memo */
} gtrt_plan_graph;

/* Builds pg from pl, once: it closes the open phase and ends the
 * recording (pl is kept, with its instance tables). A phase that is a
 * single task, or whose tasks all belong to one self_indep instance or
 * pass the slot test, gets no graph work. On failure (misuse recorded by
 * the gtrt_plan_* calls, out of host memory) records an error naming site
 * and leaves pg empty. */
gtrt_status gtrt_plan_build(const gtrt_site *site, gtrt_plan *pl, gtrt_plan_graph *pg);
void gtrt_plan_graph_free(gtrt_plan_graph *pg);
/* Level phases (gtrt_plan_levels.c): when every phase with edges has
 * levels (longest chains of predecessors) that never decrease with the
 * task id, start at stage instances and hold at most max_width tasks on
 * average, each such phase is cut into one phase per level and the graph
 * is dropped (every task a root). 1 when pg changed, 0 when not (also when
 * out of memory: pg is then still valid). */
int gtrt_plan_levels(const gtrt_plan *pl, gtrt_plan_graph *pg, unsigned max_width);
void gtrt_plan_free(gtrt_plan *pl);

#ifdef __cplusplus
}
#endif

#endif
