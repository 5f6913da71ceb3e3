/* Phased task regions (KS_PHASED, transform/phases.c).
 *
 * Host side: the block under the single, copied with each stage (task loop
 * nest or single task) replaced by code that records a stage instance with
 * its snapshot and reports every task's depend addresses, and each taskwait
 * / taskgroup end by a phase boundary (gtrt_plan_*). Everything else in the
 * block runs as written, so loops, ifs and scalar updates happen in program
 * order, as in the CPU build.
 *
 * Device side: one megakernel runs the phases in order; in each, workers
 * pop tasks, find the stage instance of the task id (gtrt_phase_inst), take
 * the instance's loop bounds and host-set values from its snapshot, run the
 * stage's body (the same code as a one-loop region: cg_task_run) and
 * release successors from the uploaded graph. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cg_util.h"
#include "edits.h"

static const PhasedRegion *ph_of(const Kernel *k) { return k->phased; }

static int snap_index(const PhasedRegion *ph, const CVar *v) {
  for (int i = 0; i < ph->nsnap; i++)
    if (ph->snap[i] == v) return i;
  return -1;
}

static bool is_snap(const PhasedRegion *ph, const CVar *v) { return snap_index(ph, v) >= 0; }

/* The snapshot field of v: gt_I_NAME, unique by its index even where two
 * blocks declare variables of the same name (`long c` in each). */
static char *snap_field(const PhasedRegion *ph, const CVar *v) {
  return xasprintf("gt_%d_%s", snap_index(ph, v), v->name);
}

/* Snapshot pointers are device addresses; a pointer to a variable-length
 * array also keeps its inner sizes (the device's gtrt_vla view). */
static bool is_pointer(const CVar *v) { return v->tkind == VT_POINTER || v->tkind == VT_VLA_POINTER; }
static int vla_dims(const CVar *v) { return v->tkind == VT_VLA_POINTER ? v->ndims : 0; }

/* The scalar type without const (snapshot fields are assigned). */
static char *field_type(const CVar *v) {
  char *t = xstrdup(v->type), *c;
  while ((c = strstr(t, "const")) != NULL && (c == t || c[-1] == ' ') && (c[5] == ' ' || !c[5])) memset(c, ' ', 5);
  return t;
}

/* struct gt_snap_NAME: loop bounds of the instance, then the snapshot
 * variables (pointers as device addresses). Same text in C and C++. */
static void emit_snap_struct(StrBuf *sb, const Kernel *k, const char *indent) {
  const PhasedRegion *ph = ph_of(k);
  sb_printf(sb, "%sstruct gt_snap_%s {\n%s  long long gt_n[3], gt_lb[3], gt_st[3];\n", indent, k->name, indent);
  for (int i = 0; i < ph->nsnap; i++) {
    const CVar *v = ph->snap[i];
    char *f = snap_field(ph, v);
    if (is_pointer(v)) {
      sb_printf(sb, "%s  void *%s;\n", indent, f);
      if (vla_dims(v)) sb_printf(sb, "%s  long long %s_dim[%d];\n", indent, f, vla_dims(v));
    } else {
      char *t = field_type(v);
      sb_printf(sb, "%s  %s %s;\n", indent, t, f);
      free(t);
    }
    free(f);
  }
  sb_printf(sb, "%s};\n", indent);
}

/* ---- device side ---------------------------------------------------------------- */

/* A list printed by f with a leading ", " per item, without the first. */
static char *list_text(void (*f)(StrBuf *, const Kernel *), const Kernel *k) {
  StrBuf t;
  sb_init(&t);
  f(&t, k);
  char *s = sb_take(&t);
  if (!strncmp(s, ", ", 2)) memmove(s, s + 2, strlen(s + 2) + 1);
  return s;
}

static void emit_stage_case(StrBuf *sb, const Program *p, const Kernel *k, int si, const CgOptions *opts,
                            const char *w) {
  const PhasedRegion *ph = ph_of(k);
  const Kernel *sk = ph->stages[si].k;
  sb_printf(sb, "      case %d: { /* the task at %s:%d */\n", si, p->tu->file->path, sk->loc.line);
  for (int l = 0; l < sk->collapse; l++)
    sb_printf(sb, "        const long long gt_n%d = gt_s->gt_n[%d], gt_lb%d = gt_s->gt_lb[%d], gt_st%d = gt_s->gt_st[%d];\n"
                  "        (void)gt_lb%d; (void)gt_st%d;\n",
              l, l, l, l, l, l, l, l);
  for (int c = 0; c < sk->ncaps; c++) {
    const CVar *v = sk->caps[c].var;
    if (!is_snap(ph, v)) continue;
    char *f = snap_field(ph, v);
    if (vla_dims(v)) {
      char *decl = cg_pointer_decl(v, v->name);
      sb_printf(sb, "        %s = {(%s *)gt_s->%s", decl, v->elem_type, f);
      for (int d = 0; d < vla_dims(v); d++) sb_printf(sb, ", gt_s->%s_dim[%d]", f, d);
      sb_printf(sb, "}; (void)%s;\n", v->name);
      free(decl);
    } else if (is_pointer(v)) {
      char *decl = cg_pointer_decl(v, v->name), *cast = cg_cast_type(v);
      sb_printf(sb, "        %s = (%s)gt_s->%s; (void)%s;\n", decl, cast, f, v->name);
      free(decl), free(cast);
    } else {
      char *decl = cg_value_decl(v, v->name);
      sb_printf(sb, "        %s = gt_s->%s; (void)%s;\n", decl, f, v->name);
      free(decl);
    }
    free(f);
  }
  if (sk->collapse) {
    cg_task_box(sb, sk, "        ");
    sb_puts(sb, "        (void)gt_total;\n");
    cg_task_decode(sb, sk, "gt_local", "        ");
  }
  cg_task_run(sb, p, sk, opts, w);
  sb_puts(sb, "        break;\n      }\n");
}

/* One worker's task loop of a phase, with workers of width w ("GT_W", or
 * "32": the warps of a block worker); only narrow stages when narrow_only. */
static void emit_task_loop(StrBuf *sb, const Program *p, const Kernel *k, const CgOptions *opts, const char *w,
                           bool narrow_only) {
  const PhasedRegion *ph = ph_of(k);
  sb_printf(sb, "    while (gtrt_task_next<%s, GT_S>(gt_q, gt_t)) {\n", w);
  if (narrow_only) sb_puts(sb, "      const long long gt_lane = gtrt_task_lane<32>(), gt_width = 32;\n      (void)gt_width;\n");
  sb_puts(sb, "      const unsigned gt_i = gtrt_phase_inst(gt_q, gt_ph, gt_t);\n"
              "      const unsigned gt_local = gt_t - gtrt_phase_inst_first(gt_q, gt_ph, gt_i);\n"
              "      (void)gt_local;\n");
  sb_printf(sb, "      const struct gt_snap_%s *gt_s = (const struct gt_snap_%s *)gtrt_phase_snap(gt_q, gt_ph, gt_i, gt_rec[gt_p & 1]);\n"
                "      (void)gt_s;\n      switch (gtrt_phase_stage(gt_q, gt_ph, gt_i)) {\n",
            k->name, k->name);
  for (int s = 0; s < ph->nstages; s++)
    if (!narrow_only || ph->stages[s].narrow) emit_stage_case(sb, p, k, s, opts, w);
  sb_printf(sb, "      default: break;\n      }\n"
                "      gtrt_task_publish<%s, GT_S>(gt_q);\n"
                "      gtrt_task_release_graph<%s, GT_S>(gt_q, gt_t);\n"
                "      gtrt_task_done<%s, GT_S>(gt_q, gt_t);\n"
                "    }\n",
            w, w, w);
}

/* Block workers run phases of narrow stages one task per warp. */
static bool warp_phases(const PhasedRegion *ph) {
  if (ph->worker != 0) return false;
  for (int s = 0; s < ph->nstages; s++)
    if (ph->stages[s].narrow) return true;
  return false;
}

/* Every worker stays resident for the whole region, so registers decide
 * how much of the GPU works: the megakernel is compiled twice, for 8 blocks
 * of 256 threads per SM (at most 32 registers) and for 4 (64); the stub
 * runs the first when a phase has more tasks than the second holds at once
 * and it spills at most a few words. */
enum { PHASED_BLOCKS_HI = 8, PHASED_BLOCKS_LO = 4 };

/* The template parameters are GT_W (worker width), GT_B (blocks per SM) and
 * GT_S (1: every phase is a static share, so no queue code is compiled;
 * the stub picks it when the plan says so): the user's task bodies are
 * copied into the kernel, so any name outside gtcc's gt_/GT_ prefixes could
 * be one of theirs (`long *W`). */

static void emit_megakernel(StrBuf *sb, const Program *p, const Kernel *k, const CgOptions *opts) {
  const PhasedRegion *ph = ph_of(k);
  char *params = list_text(cg_kernel_params, k);
  sb_printf(sb, "template <int GT_W, int GT_B, int GT_S>\n__global__ void __launch_bounds__(%d, GT_B) %s_kernel(%s%sgtrt_taskq gt_q, gtrt_phases gt_ph) {\n",
            k->block, k->name, params, *params ? ", " : "");
  free(params);
  cg_kernel_locals(sb, k);
  sb_printf(sb, "  const long long gt_lane = gtrt_task_lane<GT_W>(), gt_width = gtrt_task_width<GT_W>();\n"
                "  (void)gt_width;\n"
                "  /* phase records (row + first snapshot), double-buffered: the next one's copy starts with each phase */\n"
                "  __shared__ __align__(16) unsigned char gt_rec[2][GTRT_PHASE_REC_MAX(sizeof(struct gt_snap_%s))];\n"
                "  gtrt_phase_load(gt_ph, 0, gt_rec[0]);\n"
                "  __syncthreads();\n"
                "  for (unsigned gt_p = 0; gt_p < gt_ph.nphases; gt_p++) {\n"
                "    gtrt_phase_fetch(gt_ph, gt_p + 1, gt_rec[(gt_p + 1) & 1]);\n"
                "    const int gt_mode = gtrt_phase_begin<GT_W, GT_S>(gt_q, gt_ph, gt_rec[gt_p & 1]);\n"
                "    if (gt_mode == GTRT_PHASE_SKIP) {\n"
                "      gtrt_phase_landed();\n"
                "      __syncthreads();\n"
                "      continue;\n"
                "    }\n"
                "    unsigned gt_t;\n",
            k->name);
  if (warp_phases(ph)) {
    sb_puts(sb, "    if (gt_mode == GTRT_PHASE_WARPS) { /* tasks that need only a warp */\n");
    emit_task_loop(sb, p, k, opts, "32", true);
    sb_puts(sb, "    } else {\n");
    emit_task_loop(sb, p, k, opts, "GT_W", false);
    sb_puts(sb, "    }\n");
  } else {
    emit_task_loop(sb, p, k, opts, "GT_W", false);
  }
  sb_puts(sb, "    if (!gtrt_phase_end(gt_q)) return;\n"
              "  }\n}\n\n");
}

static void emit_stub(StrBuf *sb, const Kernel *k) {
  const PhasedRegion *ph = ph_of(k);
  int w = ph->worker;
  sb_printf(sb, "extern \"C\" void %s(", k->name);
  cg_stub_params(sb, k, 1);
  sb_puts(sb, ") {\n");
  cg_stub_prologue(sb, k, "1");
  sb_puts(sb, "  (void)gt_grid;\n  gtrt_taskq gt_q;\n  gtrt_phases gt_ph;\n");
  if (warp_phases(ph)) {
    sb_puts(sb, "  static const unsigned char gt_narrow[] = {");
    for (int s = 0; s < ph->nstages; s++) sb_printf(sb, "%s%d", s ? ", " : "", ph->stages[s].narrow ? 1 : 0);
    sb_printf(sb, "}; /* task types that need only a warp */\n"
                  "  if (gtrt_plan_finish(gt_site, gt_plan, %d, gt_narrow, %d, &gt_q, &gt_ph) != GTRT_OK) gtrt_fatal();\n",
              ph->queue, ph->nstages);
  } else {
    sb_printf(sb, "  if (gtrt_plan_finish(gt_site, gt_plan, %d, NULL, 0, &gt_q, &gt_ph) != GTRT_OK) gtrt_fatal();\n",
              ph->queue);
  }
  sb_puts(sb, "  if (gt_q.ntasks == 0) return;\n");
  sb_printf(sb, "  const void *gt_hi = (const void *)%s_kernel<%d, %d, 0>, *gt_lo = (const void *)%s_kernel<%d, %d, 0>;\n"
                "  const void *gt_kfn = gtrt_task_pick_kernel(gt_site, gt_hi, gt_lo, %d, %d, gt_ph.max_phase);\n"
                "  if (!gt_kfn) gtrt_fatal();\n",
            k->name, w, PHASED_BLOCKS_HI, k->name, w, PHASED_BLOCKS_LO, k->block, w ? w : k->block);
  sb_printf(sb, "  const unsigned gt_tgrid = gtrt_task_grid(gt_site, gt_kfn, %d, %d, gt_ph.max_phase);\n", k->block,
            w ? w : k->block);
  sb_puts(sb, "  if (!gt_tgrid) gtrt_fatal();\n");
  /* the build without the queue has the same launch bounds and needs at
   * most the general one's registers and shared memory, so the grid sized
   * for the general one fits it too */
  char *args = list_text(cg_kernel_args, k);
  const char *sep = *args ? ", " : "";
  for (int st = 1; st >= 0; st--) {
    sb_printf(sb, "  %sif (%sgt_kfn == gt_hi) %s_kernel<%d, %d, %d><<<gt_tgrid, %d>>>(%s%sgt_q, gt_ph);\n",
              st ? "" : "else ", st ? "gt_ph.all_static && " : "", k->name, w, PHASED_BLOCKS_HI, st, k->block, args, sep);
    sb_printf(sb, "  else if (%sgt_kfn == gt_lo) %s_kernel<%d, %d, %d><<<gt_tgrid, %d>>>(%s%sgt_q, gt_ph);\n",
              st ? "gt_ph.all_static && " : "", k->name, w, PHASED_BLOCKS_LO, st, k->block, args, sep);
  }
  free(args);
  sb_puts(sb, "  GTRT_CUDA(gt_site, cudaGetLastError());\n"
              "  if (gtrt_task_wait(gt_site, &gt_q) != GTRT_OK) gtrt_fatal();\n}\n\n");
}

static void emit_note(StrBuf *sb, const Program *p, const Kernel *k) {
  const PhasedRegion *ph = ph_of(k);
  sb_printf(sb, "/* ---- omp task region at %s:%d: %d task type%s, %d taskwait%s, %d taskgroup%s, %s */\n",
            p->tu->file->path, k->loc.line, ph->nstages, ph->nstages == 1 ? "" : "s", ph->nwaits,
            ph->nwaits == 1 ? "" : "s", ph->ngroups, ph->ngroups == 1 ? "" : "s",
            ph->nsplits ? "split by host code (notes below)" : "one megakernel over all phases");
  for (int s = 0; s < ph->nstages; s++) {
    const Kernel *sk = ph->stages[s].k;
    sb_printf(sb, "/* gtcc: note: task type %d: the task at line %d, %s, %s", s, sk->loc.line,
              sk->collapse ? "one task per iteration of its loop nest" : "a single task",
              ph->stages[s].self_indep ? "its tasks never conflict with each other"
                                       : "dependences found by the host walk");
    const Stmt *hl = ph->stages[s].host_loop;
    if (hl) /* a task loop written so that it is no task loop nest: say why it costs more */
      sb_printf(sb, "; the for loop at line %d around it is host code, not a task loop nest (%s), so the host "
                    "walk records its tasks one by one",
                hl->loc.line, hl->loop->why_not ? hl->loop->why_not : "not in canonical form");
    sb_puts(sb, " */\n");
  }
  if (ph->nsnap) {
    sb_puts(sb, "/* gtcc: note: set by the host code and read by tasks (snapshot per task loop):");
    for (int i = 0; i < ph->nsnap; i++) sb_printf(sb, " %s", ph->snap[i]->name);
    sb_puts(sb, " */\n");
  }
  for (int i = 0; i < ph->nsplits; i++) {
    const HostSplit *hs = &ph->splits[i];
    sb_printf(sb, "/* gtcc: note: the region is split %s line %d: ",
              hs->nin ? "in the header of the statement at" : "before the statement at", hs->stmt->loc.line);
    if (hs->why_item) /* the host walk computes the item */
      sb_printf(sb, "the depend item %s[%s] (line %d) reads memory", hs->why_name, hs->why_item, hs->why_loc.line);
    else
      sb_printf(sb, "host code %s '%s' (line %d)", hs->why_call ? "calls" : "reads or writes through", hs->why_name,
                hs->why_loc.line);
    sb_puts(sb, ", so the tasks recorded before it run to completion in a megakernel of their own");
    if (hs->nvars) {
      sb_puts(sb, "; the mapped data of");
      for (int v = 0; v < hs->nvars; v++) sb_printf(sb, " %s%s", hs->vars[v].var->name, hs->vars[v].write ? " (written)" : "");
      sb_puts(sb, " comes back to the host first");
    }
    if (hs->all) sb_puts(sb, "; it reaches memory through pointers it does not name, so every mapped section comes back");
    sb_puts(sb, " */\n");
  }
  sb_printf(sb, "/* gtcc: note: workers of %s; phases end at taskwait / taskgroup, with a grid barrier */\n",
            ph->worker == 1 ? "one thread" : ph->worker == 32 ? "one warp" : "one block");
  if (warp_phases(ph)) {
    sb_puts(sb, "/* gtcc: note: task types");
    for (int s = 0; s < ph->nstages; s++)
      if (ph->stages[s].narrow) sb_printf(sb, " %d", s);
    sb_puts(sb, " need only a warp (no parallel loop, or one of at most 32 iterations): a phase of only such "
                "tasks runs one task per warp */\n");
  }
}

void cg_emit_phases(StrBuf *sb, const Program *p, const Kernel *k, const CgOptions *opts) {
  emit_note(sb, p, k);
  emit_snap_struct(sb, k, "");
  emit_megakernel(sb, p, k, opts);
  emit_stub(sb, k);
}

/* ---- host side ------------------------------------------------------------------- */

static bool stage_uses(const Kernel *sk, const CVar *v) {
  for (int c = 0; c < sk->ncaps; c++)
    if (sk->caps[c].var == v) return true;
  return false;
}

/* GTRT_PLAN_STRIDED_MAX of gtrt.h: items of more clauses are reported one by one. */
enum { STRIDED_MAX = 16 };

/* for (...) { iv = lb + c * st; over loop l of the stage's nest, or
 * over its first `first` iterations at most (0: all). */
static void emit_nest_loop(StrBuf *sb, const Kernel *sk, int l, int first) {
  const CVar *iv = sk->loops[l]->iv;
  if (first)
    sb_printf(sb, "      for (long long gt_c%d = 0; gt_c%d < (gt_n%d < %d ? gt_n%d : %d); gt_c%d++) {\n", l, l, l, first, l,
              first, l);
  else
    sb_printf(sb, "      for (long long gt_c%d = 0; gt_c%d < gt_n%d; gt_c%d++) {\n", l, l, l, l);
  sb_printf(sb, "      %s %s = (%s)(gt_lb%d + gt_c%d * gt_st%d);\n", iv->type, iv->name, iv->type, l, l, l);
}

/* A subscript the shortcut may evaluate twice (its pass, then maybe the
 * item loop): no call (a name before '(' other than sizeof), no
 * increment, decrement or assignment. */
static bool subscript_pure(const char *t) {
  for (const char *c = t; *c; c++) {
    if ((c[0] == '+' && c[1] == '+') || (c[0] == '-' && c[1] == '-')) return false;
    if (c[0] == '=' && c[1] != '=' && (c == t || !strchr("=!<>", c[-1]))) return false;
  }
  return !xf_text_has_call(t);
}

static bool deps_pure(const TaskRegion *tr) {
  for (int i = 0; i < tr->ndeps; i++)
    for (int s = 0; s < tr->deps[i].item->nsubs; s++)
      if (!subscript_pure(tr->deps[i].item->subs[s].lo.text)) return false;
  return true;
}

/* The host walk's shortcut: when each clause's address steps by a
 * constant over the tasks (block loops: u[(b+1)*bs]), gtrt_plan_strided
 * takes the strides and the items need not be recorded: an instance alone
 * in its phase is checked from them, one in a phase with a graph is
 * compared with the plan memo as one descriptor. With linear items
 * (TaskStage.linear_items: proven at compile time) the first two tasks
 * give the strides; otherwise one pass computes every task's addresses
 * without recording them and checks that they step by the strides, and
 * when they do not, the loop that follows reports every item. Opens a
 * block that the caller closes after that loop. */
static void emit_strided_items(StrBuf *sb, const Kernel *sk, bool linear) {
  const TaskRegion *tr = sk->tasks;
  int d = sk->collapse, m = tr->ndeps;
  sb_printf(sb, "      int gt_kept = 0;\n"
                "      if (gt_ntasks > 0 && gtrt_plan_stridable(gt_plan, gt_t)) { /* constant strides: no item recorded */\n"
                "        uintptr_t gt_ab[%d], gt_as[%d] = {0}, gt_nx[%d];\n        int gt_ok = 1;\n        long long gt_k = 0;\n",
            m, m, m);
  if (linear) { /* d == 1 */
    sb_puts(sb, "        /* linear: two tasks */\n");
    emit_nest_loop(sb, sk, 0, 2);
  } else {
    for (int l = 0; l < d; l++) emit_nest_loop(sb, sk, l, 0);
  }
  sb_puts(sb, "        const uintptr_t gt_ax[] = {");
  for (int i = 0; i < m; i++) {
    sb_puts(sb, i ? ", (uintptr_t)" : "(uintptr_t)");
    cg_task_dep_addr(sb, &tr->deps[i]);
  }
  sb_printf(sb, "};\n"
                "        if (gt_k >= 2) {\n"
                "          for (int gt_j = 0; gt_j < %d; gt_j++) { gt_ok &= gt_ax[gt_j] == gt_nx[gt_j]; gt_nx[gt_j] += gt_as[gt_j]; }\n"
                "        } else if (gt_k == 0) {\n"
                "          for (int gt_j = 0; gt_j < %d; gt_j++) gt_ab[gt_j] = gt_ax[gt_j];\n"
                "        } else {\n"
                "          for (int gt_j = 0; gt_j < %d; gt_j++) { gt_as[gt_j] = gt_ax[gt_j] - gt_ab[gt_j]; gt_nx[gt_j] = gt_ax[gt_j] + gt_as[gt_j]; }\n"
                "        }\n"
                "        gt_k++;\n",
            m, m, m);
  for (int l = 0; l < (linear ? 1 : d); l++) sb_puts(sb, "      }\n");
  sb_puts(sb, "        static const int gt_ak[] = {");
  for (int i = 0; i < m; i++) sb_printf(sb, "%s%s", i ? ", " : "", cg_task_dep_kind(tr->deps[i].kind));
  sb_puts(sb, "};\n"
              "        gt_kept = gt_ok && gtrt_plan_strided(gt_plan, gt_t, gt_ntasks, (int)(sizeof gt_ak / sizeof gt_ak[0]), gt_ab, gt_as, gt_ak);\n"
              "      }\n"
              "      if (!gt_kept) {\n");
}

/* What replaces one stage in the host walk. */
static char *stage_record(const Kernel *k, int si) {
  const PhasedRegion *ph = ph_of(k);
  const TaskStage *st = &ph->stages[si];
  const Kernel *sk = st->k;
  int d = sk->collapse;
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "{ /* gtcc: task type %d */\n      struct gt_snap_%s gt_s = {{0}};\n", si, k->name);
  cg_loop_bounds(&sb, sk, "      ");
  for (int l = 0; l < d; l++)
    sb_printf(&sb, "      gt_s.gt_n[%d] = gt_n%d; gt_s.gt_lb[%d] = gt_lb%d; gt_s.gt_st[%d] = gt_st%d;\n", l, l, l, l, l, l);
  for (int i = 0; i < ph->nsnap; i++) {
    const CVar *v = ph->snap[i];
    if (!stage_uses(sk, v)) continue; /* another stage's: may not be set yet */
    char *f = snap_field(ph, v);
    if (is_pointer(v))
      sb_printf(&sb, "      gt_s.%s = %s ? gtrt_dev_base(&gt_site, \"%s\", %s, %s) : 0;\n      if (%s && !gt_s.%s) gtrt_fatal();\n",
                f, v->name, v->name, v->name, v->name, v->name, f);
    for (int j = 0; j < vla_dims(v); j++)
      sb_printf(&sb, "      gt_s.%s_dim[%d] = (long long)(%s);\n", f, j, v->dim_text[j]);
    if (!is_pointer(v) && v->const_member) /* C assigns no struct with a const member */
      sb_printf(&sb, "      __builtin_memcpy(&gt_s.%s, &%s, sizeof gt_s.%s);\n", f, v->name, f);
    else if (!is_pointer(v))
      sb_printf(&sb, "      gt_s.%s = %s;\n", f, v->name);
    free(f);
  }
  sb_puts(&sb, "      const long long gt_ntasks = 1");
  for (int l = 0; l < d; l++) sb_printf(&sb, " * gt_n%d", l);
  sb_printf(&sb, ";\n      long long gt_t = gtrt_plan_stage(gt_plan, %d, gt_ntasks, &gt_s, %d);\n"
                 "      if (gt_t < 0) gtrt_fatal();\n",
            si, st->self_indep ? 1 : 0);
  if (sk->tasks->ndeps) {
    bool strided = d > 0 && sk->tasks->ndeps <= STRIDED_MAX && deps_pure(sk->tasks);
    if (strided) emit_strided_items(&sb, sk, st->linear_items);
    for (int l = 0; l < d; l++) emit_nest_loop(&sb, sk, l, 0);
    cg_task_report_deps(&sb, sk->tasks, "gtrt_plan_access(gt_plan", "        ");
    if (d) sb_puts(&sb, "        gt_t++;\n");
    for (int l = 0; l < d; l++) sb_puts(&sb, "      }\n");
    if (strided) sb_puts(&sb, "      }\n");
  }
  cg_task_final_ivs(&sb, sk, "      ");
  sb_puts(&sb, "      (void)gt_t;\n    }\n");
  return sb_take(&sb);
}

/* gt_plan = a new plan of this region, checked: as statements, or as
 * comma-expression items (expr). */
static void emit_new_plan(StrBuf *sb, const Kernel *k, bool expr) {
  sb_printf(sb, "gt_plan = gtrt_plan_new(&gt_site, (unsigned)sizeof(struct gt_snap_%s))%s", k->name,
            expr ? ", gt_plan ? (void)0 : gtrt_fatal(), " : ";\n    if (!gt_plan) gtrt_fatal();\n    ");
}

/* A runtime call that must return GTRT_OK, in the same two forms. */
static void emit_checked(StrBuf *sb, bool expr, const char *call) {
  if (expr) sb_printf(sb, "%s == GTRT_OK ? (void)0 : gtrt_fatal(), ", call);
  else sb_printf(sb, "if (%s != GTRT_OK) gtrt_fatal();\n    ", call);
}

/* Before host code that needs the tasks' data: the tasks recorded so far
 * run (the stub call ends the plan), a new plan starts, and the mapped
 * sections the code names come back to the host. As a block, or (expr)
 * as one comma expression for a loop or if header. */
static char *split_text(const Kernel *k, const HostSplit *hs, const char *stub_call, bool expr) {
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "%s /* gtcc: region split: host code needs the tasks' data */\n    %s%s", expr ? "(" : "{", stub_call,
            expr ? ", " : ";\n    ");
  emit_new_plan(&sb, k, expr);
  for (int i = 0; i < hs->nvars; i++) {
    const char *v = hs->vars[i].var->name;
    char *call = xasprintf("gtrt_sync_from(&gt_site, \"%s\", (const void *)(%s), %d)", v, v, hs->vars[i].write ? 1 : 0);
    emit_checked(&sb, expr, call);
    free(call);
  }
  if (hs->all) emit_checked(&sb, expr, hs->all_write ? "gtrt_sync_all_from(&gt_site, 1)" : "gtrt_sync_all_from(&gt_site, 0)");
  sb_puts(&sb, expr ? "(" : "}\n    ");
  return sb_take(&sb);
}

static const HostSplit *stage_split(const PhasedRegion *ph, int si) {
  for (int i = 0; i < ph->nsplits; i++)
    if (ph->splits[i].stage == si) return &ph->splits[i];
  return NULL;
}

void cg_phases_host_walk(StrBuf *sb, const Program *p, const Kernel *k, const char *stub_call) {
  const PhasedRegion *ph = ph_of(k);
  unsigned wb = ph->body->begin, we = ph->body->end;
  emit_snap_struct(sb, k, "    ");
  sb_puts(sb, "    gtrt_plan *");
  emit_new_plan(sb, k, false);
  sb_puts(sb, "/* the block under the single, tasks recorded in program order */\n    ");
  EditList el;
  edits_init(&el);
  for (int s = 0; s < ph->nstages; s++) {
    const TaskStage *st = &ph->stages[s];
    unsigned b = st->begin < wb ? wb : st->begin;
    char *rec = stage_record(k, s);
    const HostSplit *hs = stage_split(ph, s);
    if (hs) { /* its loop headers need the tasks' data */
      char *split = split_text(k, hs, stub_call, false), *both = xasprintf("{ %s%s }", split, rec);
      free(rec), free(split);
      rec = both;
    }
    StrBuf r; /* the record, then the #else / #endif lines between the task's directive and its statement */
    sb_init(&r);
    sb_puts(&r, rec);
    if (st->stmt->begin > b) cg_gap_directives(&r, p->tu, b, st->stmt->begin);
    edits_add(&el, b - wb, st->stmt->end - b, r.data);
    sb_free(&r);
    free(rec);
  }
  for (int i = 0; i < ph->nwaits; i++) {
    const Directive *d = ph->waits[i];
    edits_add(&el, d->loc.offset - wb, d->end_offset - d->loc.offset, "gtrt_plan_barrier(gt_plan);\n");
  }
  for (int i = 0; i < ph->ngroups; i++) {
    const TaskGroupMark *g = &ph->groups[i];
    if (g->dir->loc.offset < wb) continue; /* the single's own statement: the region's end is the boundary */
    if (!g->barrier) {
      edits_add(&el, g->dir->loc.offset - wb, g->dir->end_offset - g->dir->loc.offset, "/* taskloop nogroup */\n");
      continue;
    }
    edits_add(&el, g->dir->loc.offset - wb, g->dir->end_offset - g->dir->loc.offset,
              g->dir->kind == DIR_OMP_TASKLOOP ? "{ /* taskloop: a taskgroup */\n" : "{ /* taskgroup */\n");
    edits_add(&el, g->stmt->end - wb, 0, "\n    gtrt_plan_barrier(gt_plan); }\n");
  }
  for (int i = 0; i < ph->nsplits; i++) { /* host statements; a stage's own split is in its record */
    const HostSplit *hs = &ph->splits[i];
    if (hs->stage >= 0) continue;
    if (hs->before) {
      char *split = split_text(k, hs, stub_call, false);
      char *text = xasprintf("%s%s", hs->wrap ? "{ " : "", split);
      edits_add(&el, hs->stmt->begin - wb, 0, text);
      if (hs->wrap) edits_add(&el, hs->stmt->end - wb, 0, " }");
      free(text), free(split);
    }
    for (int j = 0; j < hs->nin; j++) { /* (split, (expr)) */
      char *split = split_text(k, hs, stub_call, true);
      edits_add(&el, hs->in[j].begin - wb, 0, split);
      edits_add(&el, hs->in[j].end - wb, 0, "))");
      free(split);
    }
  }
  size_t bad = 0;
  char *walk = edits_apply(&el, p->tu->file->text + wb, we - wb, &bad);
  edits_free(&el);
  if (!walk) unreachable("overlapping edits in a phased region's host walk");
  sb_puts(sb, walk);
  sb_putc(sb, '\n');
  free(walk);
}
