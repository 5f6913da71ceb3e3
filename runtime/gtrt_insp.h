/* Inspector of task regions, the part that needs no GPU: records the
 * depend items the generated host code reports and builds the task graph
 * (predecessor counts, successor lists) with OpenMP semantics.
 * gtrt_insp_finish (gtrt_task.c) uploads the graph. Internal: generated code
 * uses gtrt.h. */
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

#ifdef __cplusplus
}
#endif

#endif
