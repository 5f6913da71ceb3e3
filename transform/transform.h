/* Transform entry: TranslationUnit -> Program (lowered IR). */
#ifndef GTCC_TRANSFORM_H
#define GTCC_TRANSFORM_H

#include <stdio.h>

#include "../frontend/ast.h"

typedef struct Program Program;

/* How nested parallel loops run (--cdp=MODE, or gtcc_cdp(MODE) on the
 * outer directive). docs/collectivedp.md describes each. */
typedef enum CdpMode {
  CDP_DEFAULT, /* not given: the documented default */
  CDP_OFF,     /* inner parallel loop runs sequentially in each outer thread */
  CDP_HOST,    /* one next-level kernel launched from the host after the parent */
  CDP_TAIL,    /* one next-level kernel tail-launched by the last parent block */
  CDP_CTA,     /* the paper's CTA master: each parent block launches its own */
  CDP_WARP,    /* the paper's warp master: each parent warp launches its own */
} CdpMode;

/* Task regions: --task-queue, --task-worker, --task-tile (docs/tasks.md). */
typedef enum TaskWorkerOpt { TWO_AUTO, TWO_THREAD, TWO_WARP, TWO_CTA } TaskWorkerOpt;

typedef struct XfOptions {
  CdpMode cdp_mode;
  long long cdp_threshold;      /* inner trip count above which a context goes to the NLK; <0: default */
  long long cdp_warp_threshold; /* inner trip count above which a warp runs the loop; <0: default */
  int task_queue;               /* gtrt_task_policy: 0 shared, 1 block, 2 task */
  TaskWorkerOpt task_worker;
  int task_tile_off;            /* --task-tile=off: one task per iteration */
  long long task_tile[3];       /* --task-tile=AxB[xC]; 0: the default */
  long long device_stack;       /* --device-stack: bytes per thread where regions call recursive functions; <0: default */
} XfOptions;

/* Parses a --cdp / gtcc_cdp spelling; returns -1 if unknown. */
int xf_parse_cdp_mode(const char *s);
const char *xf_cdp_mode_name(CdpMode m);

/* Forms regions, captures variables, checks clauses and decides how each
 * region is lowered. Reports errors through diag; returns NULL if any. */
Program *xf_lower(TranslationUnit *tu, const XfOptions *opts);
/* Number of device kernels the program needs (0: the file passes through). */
int xf_nkernels(const Program *p);
void xf_dump(const Program *p, FILE *out);
void xf_free(Program *p);

#endif
