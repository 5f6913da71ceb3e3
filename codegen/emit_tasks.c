/* The .gt.cu side of a task region (KS_TASKS): an init kernel that sets
 * each task's predecessor count (affine dependences), the persistent
 * megakernel whose workers pop ready tasks, run them and release their
 * successors (runtime/gtrt_task.cuh), and the launch stub. Also the host
 * side's inspector walk when dependences are only known at run time.
 *
 * A task is one iteration of the loop nest, or a tile of iterations when
 * the distances allow it: then the worker's threads run the tile's cells
 * along hyperplanes (cells with the same sum of local coordinates are
 * independent when every distance is non-negative), one barrier per step. */
#include <stdlib.h>

#include "cg_util.h"

static const char *const kvars[3] = {"gt_k0", "gt_k1", "gt_k2"};
static const char *const nvars[3] = {"gt_N0", "gt_N1", "gt_N2"};

static const TdDeps *task_deps(const TaskRegion *tr) { return tr->tiled ? &tr->tile_deps : &tr->cell; }

/* Threads per worker as a number (a worker of 0 means the whole block). */
static int worker_threads(const Kernel *k) { return k->tasks->worker ? k->tasks->worker : k->block; }

static void emit_note(StrBuf *sb, const Program *p, const Kernel *k) {
  const TaskRegion *tr = k->tasks;
  static const char *const queues[] = {"one shared queue", "a queue per block (ORNL block -> queue)",
                                       "queues chosen by task (ORNL task -> queue)"};
  sb_printf(sb, "/* ---- omp task region at %s:%d: a task loop nest of depth %d */\n", p->tu->file->path,
            k->loc.line, k->collapse);
  if (tr->affine) {
    sb_puts(sb, "/* gtcc: note: dependences are affine; distances");
    for (int e = 0; e < tr->cell.ndist; e++) {
      sb_puts(sb, e ? ", (" : " (");
      for (int l = 0; l < k->collapse; l++) sb_printf(sb, "%s%lld", l ? "," : "", tr->cell.dist[e][l]);
      sb_putc(sb, ')');
    }
    if (!tr->cell.ndist) sb_puts(sb, ": none");
    sb_puts(sb, " */\n");
  } else
    sb_printf(sb, "/* gtcc: note: dependences are found at run time by the host inspector: %s */\n", tr->why_inspector);
  if (tr->tiled) {
    sb_puts(sb, "/* gtcc: note: one task per tile of");
    for (int l = 0; l < k->collapse; l++) sb_printf(sb, "%s%lld", l ? " x " : " ", tr->tile[l]);
    sb_puts(sb, " iterations, run along hyperplanes */\n");
  } else
    sb_puts(sb, "/* gtcc: note: one task per iteration */\n");
  sb_printf(sb, "/* gtcc: note: workers of %s, %s */\n",
            tr->worker == 1 ? "one thread" : tr->worker == 32 ? "one warp" : "one block", queues[tr->queue]);
}

/* gt_N[l]: tasks along loop l; gt_total: all of them. */
void cg_task_box(StrBuf *sb, const Kernel *k, const char *indent) {
  const TaskRegion *tr = k->tasks;
  for (int l = 0; l < k->collapse; l++)
    if (tr->tile[l] > 1)
      sb_printf(sb, "%sconst long long gt_N%d = (gt_n%d + %lldLL) / %lldLL;\n", indent, l, l, tr->tile[l] - 1,
                tr->tile[l]);
    else
      sb_printf(sb, "%sconst long long gt_N%d = gt_n%d;\n", indent, l, l);
  sb_printf(sb, "%sconst long long gt_total = gt_N0", indent);
  for (int l = 1; l < k->collapse; l++) sb_printf(sb, " * gt_N%d", l);
  sb_puts(sb, ";\n");
}

/* Task coordinates gt_k[l] from the linear task id (program order). */
void cg_task_decode(StrBuf *sb, const Kernel *k, const char *t, const char *indent) {
  int d = k->collapse;
  sb_printf(sb, "%slong long gt_rest = (long long)%s;\n", indent, t);
  for (int l = d - 1; l > 0; l--)
    sb_printf(sb, "%sconst long long gt_k%d = gt_rest %% gt_N%d; gt_rest /= gt_N%d;\n", indent, l, l, l);
  sb_printf(sb, "%sconst long long gt_k0 = gt_rest;\n%s", indent, indent);
  for (int l = 0; l < d; l++) sb_printf(sb, "(void)gt_k%d; ", l);
  sb_putc(sb, '\n');
}

static void emit_release(StrBuf *sb, const char *const *coords, void *ctx) {
  int depth = *(const int *)ctx;
  sb_puts(sb, "gtrt_task_release(gt_q, (unsigned)(");
  for (int l = 0; l < depth; l++) sb_puts(sb, "(");
  for (int l = 0; l < depth; l++) {
    if (l) sb_printf(sb, " * gt_N%d + ", l);
    sb_printf(sb, "(%s))", coords[l]);
  }
  sb_puts(sb, "));");
}

/* The loop variables of cell gt_c[l]. */
static void emit_ivs(StrBuf *sb, const Kernel *k, const char *indent) {
  for (int l = 0; l < k->collapse; l++) {
    const CVar *iv = k->loops[l]->iv;
    sb_printf(sb, "%s%s %s = (%s)(gt_lb%d + gt_c%d * gt_st%d); (void)%s;\n", indent, iv->type, iv->name, iv->type, l,
              l, l, iv->name);
  }
}

/* The task body; a parallel loop at its top level becomes a loop strided
 * over the worker's threads, followed by a worker barrier. Its reduction
 * variables start from the identity in every thread and are combined
 * over the worker (with the value they had before) after the loop; the
 * statements after the loop run in the worker's first thread. */
static void emit_body(StrBuf *sb, const Program *p, const Kernel *k, const CgOptions *opts, const char *w) {
  const TaskRegion *tr = k->tasks;
  const Stmt *b = k->body, *in = tr->inner;
  if (!opts->no_line_directives) cg_line_directive(sb, p->tu, b->loc.line);
  if (!in) {
    cg_copy_source(sb, p->tu, b->begin, b->end);
    sb_putc(sb, '\n');
    return;
  }
  const ForLoop *L = in->loop;
  cg_copy_source(sb, p->tu, b->begin, in->begin);
  for (int r = 0; r < tr->ninner_reds; r++) {
    const CVar *v = tr->inner_reds[r].var;
    sb_printf(sb, "\n  const %s gt_init_%s = %s; %s = %s::identity<%s>();\n", v->type, v->name, v->name, v->name,
              cg_red_op(tr->inner_reds[r].op), v->type);
  }
  sb_printf(sb, "{ const long long gt_ilb = (long long)(%s), gt_ist = (long long)(%s);\n", L->lb.text, L->step.text);
  sb_printf(sb, "  const long long gt_itrip = gtrt_trip(gt_ilb, (long long)(%s), gt_ist, %s);\n", L->ub.text,
            cg_rel_const(L->relop));
  sb_puts(sb, "  for (long long gt_x = gt_lane; gt_x < gt_itrip; gt_x += gt_width) {\n");
  sb_printf(sb, "  %s %s = (%s)(gt_ilb + gt_x * gt_ist); (void)%s;\n", L->iv->type, L->iv->name, L->iv->type,
            L->iv->name);
  if (!opts->no_line_directives) cg_line_directive(sb, p->tu, in->kids[0]->loc.line);
  cg_copy_source(sb, p->tu, in->kids[0]->begin, in->kids[0]->end);
  sb_printf(sb, "\n  }\n  gtrt_task_sync<%s>();\n", w);
  /* no iteration: the variable keeps its value, as in the sequential loop (x && 1 would make 7 a 1) */
  for (int r = 0; r < tr->ninner_reds; r++) {
    const CVar *v = tr->inner_reds[r].var;
    const char *op = cg_red_op(tr->inner_reds[r].op);
    sb_printf(sb, "  %s = gt_itrip > 0 ? %s::apply(gt_init_%s, gtrt_task_reduce<%s, %s>(%s)) : gt_init_%s;\n", v->name,
              op, v->name, w, op, v->name, v->name);
  }
  sb_puts(sb, "}\n");
  if (!tr->inner_after) {
    cg_copy_source(sb, p->tu, in->end, b->end);
  } else { /* b is a block: its closing brace ends the text */
    sb_puts(sb, "  if (gt_lane == 0) {");
    cg_copy_source(sb, p->tu, in->end, b->end - 1);
    sb_printf(sb, "\n  }\n  gtrt_task_sync<%s>();\n}", w);
  }
  sb_putc(sb, '\n');
}

/* What one worker does with task (gt_k...). */
void cg_task_run(StrBuf *sb, const Program *p, const Kernel *k, const CgOptions *opts, const char *w) {
  const TaskRegion *tr = k->tasks;
  int d = k->collapse;
  if (!tr->tiled) {
    for (int l = 0; l < d; l++) sb_printf(sb, "    const long long gt_c%d = gt_k%d;\n", l, l);
    if (!tr->inner) sb_puts(sb, "    if (gt_lane == 0) {\n");
    else sb_puts(sb, "    {\n");
    emit_ivs(sb, k, "    ");
    emit_body(sb, p, k, opts, w);
    sb_puts(sb, "    }\n");
    return;
  }
  for (int l = 0; l < d; l++)
    sb_printf(sb, "    const long long gt_r%d = gt_k%d * %lldLL, gt_h%d = ::min(%lldLL, gt_n%d - gt_r%d);\n", l, l,
              tr->tile[l], l, tr->tile[l], l, l);
  if (d == 1) {
    sb_puts(sb, "    if (gt_lane == 0)\n    for (long long gt_a = 0; gt_a < gt_h0; gt_a++) {\n"
                "    const long long gt_c0 = gt_r0 + gt_a;\n");
    emit_ivs(sb, k, "    ");
    emit_body(sb, p, k, opts, w);
    sb_puts(sb, "    }\n");
    return;
  }
  /* hyperplane gt_s = a + b over the first two loops; the third (if any)
   * runs in order inside each cell */
  sb_puts(sb, "    for (long long gt_s = 0; gt_s < gt_h0 + gt_h1 - 1; gt_s++) {\n"
              "      for (long long gt_a = gt_lane; gt_a < gt_h0; gt_a += gt_width) {\n"
              "        const long long gt_b = gt_s - gt_a;\n"
              "        if (gt_b < 0 || gt_b >= gt_h1) continue;\n"
              "        const long long gt_c0 = gt_r0 + gt_a, gt_c1 = gt_r1 + gt_b;\n");
  if (d == 3) sb_puts(sb, "        for (long long gt_c2 = gt_r2; gt_c2 < gt_r2 + gt_h2; gt_c2++) {\n");
  emit_ivs(sb, k, "        ");
  emit_body(sb, p, k, opts, w);
  if (d == 3) sb_puts(sb, "        }\n");
  sb_printf(sb, "      }\n      gtrt_task_sync<%s>();\n    }\n", w);
}

static void emit_init_kernel(StrBuf *sb, const Kernel *k) {
  const TaskRegion *tr = k->tasks;
  int d = k->collapse;
  sb_printf(sb, "__global__ void __launch_bounds__(256) %s_init(", k->name);
  for (int l = 0; l < d; l++) sb_printf(sb, "long long gt_n%d, ", l);
  sb_puts(sb, "gtrt_taskq gt_q) {\n");
  cg_task_box(sb, k, "  ");
  sb_puts(sb, "  for (long long gt_t = (long long)blockIdx.x * blockDim.x + threadIdx.x; gt_t < gt_total;\n"
              "       gt_t += (long long)gridDim.x * blockDim.x) {\n");
  cg_task_decode(sb, k, "gt_t", "    ");
  sb_puts(sb, "    int gt_np = 0;\n");
  td_emit_npred(sb, task_deps(tr), d, kvars, nvars, "gt_np");
  sb_puts(sb, "    gtrt_task_init_count(gt_q, (unsigned)gt_t, gt_np);\n  }\n}\n\n");
}

/* The worker width is the template parameter GT_W, not W: the task body
 * copied into the kernel may use any name outside gtcc's prefixes. */
static void emit_megakernel(StrBuf *sb, const Program *p, const Kernel *k, const CgOptions *opts) {
  const TaskRegion *tr = k->tasks;
  int d = k->collapse;
  sb_printf(sb, "template <int GT_W>\n__global__ void __launch_bounds__(%d) %s_kernel(", k->block, k->name);
  cg_kernel_params(sb, k);
  sb_puts(sb, ", gtrt_taskq gt_q) {\n");
  cg_task_box(sb, k, "  ");
  sb_puts(sb, "  (void)gt_total;\n");
  cg_kernel_locals(sb, k);
  sb_puts(sb, "  const long long gt_lane = gtrt_task_lane<GT_W>(), gt_width = gtrt_task_width<GT_W>();\n"
              "  (void)gt_width;\n  unsigned gt_t;\n  while (gtrt_task_next<GT_W>(gt_q, gt_t)) {\n");
  cg_task_decode(sb, k, "gt_t", "    ");
  cg_task_run(sb, p, k, opts, "GT_W");
  sb_puts(sb, "    gtrt_task_publish<GT_W>(gt_q);\n");
  if (tr->affine) {
    sb_puts(sb, "    if (gt_lane == 0) {\n");
    td_emit_succ(sb, task_deps(tr), d, kvars, nvars, emit_release, &d);
    sb_puts(sb, "    }\n");
  } else {
    sb_puts(sb, "    gtrt_task_release_graph<GT_W>(gt_q, gt_t);\n");
  }
  sb_puts(sb, "    gtrt_task_done<GT_W>(gt_q, gt_t);\n  }\n}\n\n");
}

static void emit_stub(StrBuf *sb, const Kernel *k) {
  const TaskRegion *tr = k->tasks;
  int d = k->collapse, w = tr->worker;
  sb_printf(sb, "extern \"C\" void %s(", k->name);
  cg_stub_params(sb, k, 1);
  sb_puts(sb, ") {\n");
  cg_task_box(sb, k, "  ");
  sb_puts(sb, "  if (gt_total <= 0) return;\n");
  cg_stub_prologue(sb, k, "gt_total");
  sb_puts(sb, "  (void)gt_grid;\n  gtrt_taskq gt_q;\n");
  sb_printf(sb, "  if (gtrt_task_setup(gt_site, gt_total, %d, &gt_q) != GTRT_OK) gtrt_fatal();\n", tr->queue);
  if (tr->affine) {
    sb_printf(sb, "  %s_init<<<gtrt_grid_for(gt_total, 256), 256>>>(", k->name);
    for (int l = 0; l < d; l++) sb_printf(sb, "gt_n%d, ", l);
    sb_puts(sb, "gt_q);\n  GTRT_CUDA(gt_site, cudaGetLastError());\n");
  } else
    sb_puts(sb, "  if (gtrt_insp_finish(gt_site, gt_insp, &gt_q) != GTRT_OK) gtrt_fatal();\n");
  sb_printf(sb, "  const unsigned gt_tgrid = gtrt_task_grid(gt_site, (const void *)%s_kernel<%d>, %d, %d, gt_total);\n",
            k->name, w, k->block, worker_threads(k));
  sb_printf(sb, "  %s_kernel<%d><<<gt_tgrid, %d>>>(", k->name, w, k->block);
  cg_kernel_args(sb, k);
  sb_puts(sb, ", gt_q);\n  GTRT_CUDA(gt_site, cudaGetLastError());\n"
              "  if (gtrt_task_wait(gt_site, &gt_q) != GTRT_OK) gtrt_fatal();\n}\n\n");
}

void cg_emit_tasks(StrBuf *sb, const Program *p, const Kernel *k, const CgOptions *opts) {
  emit_note(sb, p, k);
  if (k->tasks->affine) emit_init_kernel(sb, k);
  emit_megakernel(sb, p, k, opts);
  emit_stub(sb, k);
}

/* ---- host side ------------------------------------------------------------- */

const char *cg_task_dep_kind(DependKind kd) { return kd == DEP_IN ? "0" : kd == DEP_OUT ? "1" : "2"; }

/* One `REPORT, gt_t, &item, kind);` line per depend item of task gt_t. */
void cg_task_dep_addr(StrBuf *sb, const TaskDep *dp) {
  sb_printf(sb, "(const void *)&(%s", dp->item->name);
  for (int s = 0; s < dp->item->nsubs; s++) sb_printf(sb, "[%s]", dp->item->subs[s].lo.text);
  sb_putc(sb, ')');
}

void cg_task_report_deps(StrBuf *sb, const TaskRegion *tr, const char *report, const char *indent) {
  for (int i = 0; i < tr->ndeps; i++) {
    const TaskDep *dp = &tr->deps[i];
    sb_printf(sb, "%s%s, gt_t, ", indent, report);
    cg_task_dep_addr(sb, dp);
    sb_printf(sb, ", %s);\n", cg_task_dep_kind(dp->kind));
  }
}

/* Without compile-time distances, the host walks the loop nest in program
 * order and reports each depend item's address (runtime/gtrt_task.c builds
 * the counters and successor lists from them). */
void cg_task_host_prelude(StrBuf *sb, const Kernel *k) {
  const TaskRegion *tr = k->tasks;
  int d = k->collapse;
  sb_puts(sb, "    gtrt_insp *gt_insp = 0;\n");
  if (tr->affine) return;
  sb_puts(sb, "    if (gt_n0 > 0");
  for (int l = 1; l < d; l++) sb_printf(sb, " && gt_n%d > 0", l);
  sb_puts(sb, ") {\n      gt_insp = gtrt_insp_new(&gt_site, gt_n0");
  for (int l = 1; l < d; l++) sb_printf(sb, " * gt_n%d", l);
  sb_puts(sb, ");\n      if (!gt_insp) gtrt_fatal();\n      long long gt_t = 0;\n");
  for (int l = 0; l < d; l++) {
    const CVar *iv = k->loops[l]->iv;
    sb_printf(sb, "      for (long long gt_c%d = 0; gt_c%d < gt_n%d; gt_c%d++) {\n", l, l, l, l);
    sb_printf(sb, "      %s %s = (%s)(gt_lb%d + gt_c%d * gt_st%d);\n", iv->type, iv->name, iv->type, l, l, l);
  }
  cg_task_report_deps(sb, tr, "gtrt_insp_access(gt_insp", "        ");
  sb_puts(sb, "        gt_t++;\n");
  for (int l = 0; l < d; l++) sb_puts(sb, "      }\n");
  sb_puts(sb, "    }\n");
}

/* `int b; for (b = 0; b < n; b++) task` leaves b == n on the host, as the
 * CPU build does, and host code after the nest may read it: each such
 * variable gets lb + trip * step; an inner one only when every outer loop
 * ran (else the source never assigns it). */
void cg_task_final_ivs(StrBuf *sb, const Kernel *k, const char *indent) {
  for (int l = 0; l < k->collapse; l++) {
    const ForLoop *L = k->loops[l];
    if (L->iv_declared) continue;
    sb_puts(sb, indent);
    for (int o = 0; o < l; o++) sb_printf(sb, "%sgt_n%d > 0%s", o ? " && " : "if (", o, o == l - 1 ? ") " : "");
    sb_printf(sb, "%s = (%s)(gt_lb%d + gt_n%d * gt_st%d);\n", L->iv->name, L->iv->type, l, l, l);
  }
}
