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
  long long last_task; /* tasks must come in increasing order */
  char bad[256];       /* first misuse (order, range, kind), reported by finish */
  size_t oom_bytes;    /* a host allocation of this size failed while recording */
};

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

/* The graph of in's items (checked already) for in->ntasks tasks cut into
 * nphases phases: phase p is tasks [p ? end[p-1] : 0, end[p]) (end
 * non-decreasing, end[nphases-1] = in->ntasks); no edge joins two phases.
 * no_graph (may be NULL): phase p's tasks get no edges and their items are
 * not even hashed. end == NULL: one phase. 0 when out of host memory (g
 * left empty). */
/* The recording's first misuse (GTRT_ERR_ARG) or failed allocation
 * (GTRT_ERR_NOMEM), recorded naming site and noun ("task plan"); GTRT_OK
 * if none. */
gtrt_status gtrt_insp_check(const gtrt_site *site, const gtrt_insp *in, const char *noun);

int gtrt_graph_build(const gtrt_insp *in, const unsigned *end, const unsigned char *no_graph, unsigned nphases,
                     gtrt_task_graph *g);

/* ---- plans of phased regions (gtrt_plan_*) ---------------------------------- */

struct gtrt_plan {
  const gtrt_site *site;
  unsigned snap_bytes;
  gtrt_insp acc;            /* depend items; acc.ntasks: tasks recorded so far; misuse */
  unsigned *inst_begin;     /* [ninst + 1]: first task of each instance, then acc.ntasks */
  int *inst_stage;          /* [ninst] */
  unsigned char *inst_indep; /* [ninst] self_indep flags */
  unsigned char *snaps;     /* [ninst * snap_bytes] */
  size_t ninst, capinst;
  unsigned *cut;            /* acc.ntasks at each barrier (non-decreasing) */
  size_t ncut, capcut;
};

/* What the plan becomes: the graph of all tasks and the phase tables of
 * gtrt_phases (the instance tables are the plan's own). */
typedef struct gtrt_plan_graph {
  gtrt_task_graph g;
  unsigned nphases;
  unsigned *phase_end; /* [nphases] */
  unsigned *root_off;  /* [nphases + 1] */
  unsigned *roots;     /* [g.nroots], increasing */
} gtrt_plan_graph;

/* Builds pg from pl (pl is kept). A phase that is a single task, or whose
 * tasks all belong to one self_indep instance, gets no graph work. On
 * failure (misuse recorded by the gtrt_plan_* calls, out of host memory)
 * records an error naming site and leaves pg empty. */
gtrt_status gtrt_plan_build(const gtrt_site *site, const gtrt_plan *pl, gtrt_plan_graph *pg);
void gtrt_plan_graph_free(gtrt_plan_graph *pg);
void gtrt_plan_free(gtrt_plan *pl);

#ifdef __cplusplus
}
#endif

#endif
