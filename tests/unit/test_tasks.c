/* Unit tests of the task-region decision (transform/tasks.c): which
 * constructs become task megakernels, affine distances or the inspector,
 * tiles, worker sizes and queues from the options, and the generated
 * successor code. Each case is a small C file lowered in memory. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codegen.h"
#include "frontend.h"
#include "lir.h"
#include "strbuf.h"
#include "lower.h"
#include "unit.h"

static const char *NW =
    "void f(int n, int m, int (*H)[m + 1]) {\n"
    "#pragma omp target data map(tofrom: H[0:n+1][0:m+1])\n"
    "#pragma omp parallel\n"
    "#pragma omp single\n"
    "  for (int i = 1; i <= n; i++)\n"
    "    for (int j = 1; j <= m; j++) {\n"
    "#pragma omp task depend(in: H[i-1][j-1], H[i-1][j], H[i][j-1]) depend(out: H[i][j])\n"
    "      H[i][j] = H[i-1][j-1] + H[i-1][j] + H[i][j-1];\n"
    "    }\n"
    "}\n";

static bool has_dist(const TdDeps *d, int depth, long long a, long long b) {
  for (int e = 0; e < d->ndist; e++)
    if (d->dist[e][0] == a && (depth < 2 || d->dist[e][1] == b)) return true;
  return false;
}

static void test_wavefront_defaults(void) {
  Lowered r = lower(NW, NULL);
  const Kernel *k = kernel0(&r);
  CHECK(k && k->shape == KS_TASKS && k->collapse == 2);
  if (k && k->tasks) {
    const TaskRegion *tr = k->tasks;
    CHECK(tr->affine && tr->tiled && tr->tile[0] == 32 && tr->tile[1] == 32);
    CHECK(tr->cell.ndist == 3 && has_dist(&tr->cell, 2, 1, 0) && has_dist(&tr->cell, 2, 0, 1) && has_dist(&tr->cell, 2, 1, 1));
    /* (1,1) is implied by (1,0) + (0,1) at tile level: two successors per tile */
    CHECK(tr->tile_deps.ndist == 2 && !has_dist(&tr->tile_deps, 2, 1, 1));
    CHECK(tr->worker == 0 && tr->queue == 0);
  }
  CHECK(r.out.cu && strstr(r.out.cu, "gtrt_task_init_count") && strstr(r.out.cu, "gtrt_task_next<GT_W>"));
  CHECK(r.out.cu && strstr(r.out.cu, "_kernel<0><<<"));
  CHECK(r.out.c && strstr(r.out.c, "gtrt_insp *gt_insp = 0;") && !strstr(r.out.c, "gtrt_insp_new"));
  lowered_free(&r);
}

static void test_options(void) {
  XfOptions o = {.cdp_threshold = -1, .cdp_warp_threshold = -1, .task_queue = 2, .task_worker = TWO_THREAD,
                 .task_tile = {16, 64, 0}};
  Lowered r = lower(NW, &o);
  const Kernel *k = kernel0(&r);
  CHECK(k && k->tasks && k->tasks->tile[0] == 16 && k->tasks->tile[1] == 64 && k->tasks->worker == 1 && k->tasks->queue == 2);
  CHECK(r.out.cu && strstr(r.out.cu, "gtrt_task_setup(gt_site, gt_total, 2, &gt_q)"));
  lowered_free(&r);
  XfOptions off = {.cdp_threshold = -1, .cdp_warp_threshold = -1, .task_tile_off = 1};
  r = lower(NW, &off);
  k = kernel0(&r);
  CHECK(k && k->tasks && !k->tasks->tiled && k->tasks->worker == 32);
  /* one task per cell: the cell distances minus the implied (1,1) */
  CHECK(k && k->tasks && k->tasks->cell.ndist == 2);
  lowered_free(&r);
}

static void test_inspector_and_negative(void) {
  Lowered r = lower("void f(int n, int w, int *H) {\n"
                    "#pragma omp target data map(tofrom: H[0:n*w])\n"
                    "#pragma omp parallel\n"
                    "#pragma omp single\n"
                    "  for (int i = 1; i < n; i++)\n"
                    "    for (int j = 1; j < w; j++) {\n"
                    "#pragma omp task depend(in: H[(i-1)*w + j]) depend(out: H[i*w + j])\n"
                    "      H[i*w + j] += H[(i-1)*w + j];\n"
                    "    }\n"
                    "}\n",
                    NULL);
  const Kernel *k = kernel0(&r);
  CHECK(k && k->tasks && !k->tasks->affine && k->tasks->why_inspector && !k->tasks->tiled);
  CHECK(r.out.c && strstr(r.out.c, "gtrt_insp_new") && strstr(r.out.c, "gtrt_insp_access(gt_insp, gt_t, (const void *)&(H[(i-1)*w + j]), 0)"));
  CHECK(r.out.cu && strstr(r.out.cu, "gtrt_insp_finish") && strstr(r.out.cu, "gtrt_task_release_graph<GT_W>(gt_q, gt_t)"));
  lowered_free(&r);
  r = lower("void f(int n, int m, int (*A)[m + 2]) {\n"
            "#pragma omp target data map(tofrom: A[0:n][0:m+2])\n"
            "#pragma omp parallel\n"
            "#pragma omp master\n"
            "  for (int i = 1; i < n; i++)\n"
            "    for (int j = 1; j <= m; j++) {\n"
            "#pragma omp task depend(in: A[i-1][j+1]) depend(out: A[i][j])\n"
            "      A[i][j] = A[i-1][j+1];\n"
            "    }\n"
            "}\n",
            NULL);
  k = kernel0(&r);
  CHECK(k && k->tasks && k->tasks->affine && !k->tasks->tiled && has_dist(&k->tasks->cell, 2, 1, -1));
  lowered_free(&r);
}

static void test_other_forms(void) {
  /* omp target with map clauses, a 1-deep chain counting down, inner parallel loop */
  Lowered r = lower("void f(int n, double *x) {\n"
                    "#pragma omp target map(tofrom: x[0:n+1])\n"
                    "#pragma omp parallel\n"
                    "#pragma omp single\n"
                    "  for (int i = n; i >= 1; i--) {\n"
                    "#pragma omp task depend(in: x[i-1]) depend(inout: x[i])\n"
                    "    x[i] += x[i-1];\n"
                    "  }\n"
                    "}\n",
                    NULL);
  const Kernel *k = kernel0(&r);
  /* counting down, task i reads x[i-1] which the next task writes: WAR at distance 1 */
  CHECK(k && k->tasks && k->tasks->affine && k->collapse == 1 && has_dist(&k->tasks->cell, 1, 1, 0));
  CHECK(k && k->maps.n == 1);
  lowered_free(&r);
  r = lower("void f(int n, int B, double *v, char *T) {\n"
            "#pragma omp target data map(tofrom: v[0:n*B], T[0:n+1])\n"
            "#pragma omp parallel\n"
            "#pragma omp single\n"
            "  for (int b = 1; b <= n; b++) {\n"
            "#pragma omp task depend(in: T[b-1]) depend(out: T[b])\n"
            "    {\n"
            "      int base = (b - 1) * B;\n"
            "#pragma omp parallel for\n"
            "      for (int x = 0; x < B; x++) v[base + x] = base > 0 ? v[base - 1] + x : x;\n"
            "    }\n"
            "  }\n"
            "}\n",
            NULL);
  k = kernel0(&r);
  CHECK(k && k->tasks && k->tasks->inner && !k->tasks->tiled && k->tasks->worker == 32);
  CHECK(r.out.cu && strstr(r.out.cu, "gt_x += gt_width"));
  lowered_free(&r);
  /* no tasks: omp parallel stays host OpenMP */
  r = lower("void f(int n, double *x) {\n"
            "#pragma omp parallel\n"
            "  for (int i = 0; i < n; i++) x[i] = i;\n"
            "}\n",
            NULL);
  CHECK(r.p && r.p->nkernels == 0);
  lowered_free(&r);
}


/* Phased regions (transform/phases.c): stages, phase boundaries, the
 * snapshot of host-set values, and the host walk. */
static const char *HEAT =
    "static void upd(const double *u, double *v, int b) { v[b] = u[b] * 0.5; }\n"
    "void f(int n, int steps, double *u, double *v, double *res) {\n"
    "#pragma omp target data map(tofrom: u[0:n], v[0:n], res[0:1])\n"
    "#pragma omp parallel\n"
    "#pragma omp single\n"
    "  for (int t = 0; t < steps; t++) {\n"
    "    for (int b = 0; b < n; b++) {\n"
    "#pragma omp task depend(in: u[b]) depend(out: v[b])\n"
    "      upd(u, v, b);\n"
    "    }\n"
    "#pragma omp taskwait\n"
    "#pragma omp task depend(inout: res[0])\n"
    "    res[0] += v[0] * t;\n"
    "#pragma omp taskgroup\n"
    "    for (int b = 0; b < n; b++)\n"
    "      for (int c = 0; c < 2; c++) {\n"
    "#pragma omp task depend(in: v[b]) depend(out: u[b])\n"
    "        u[b] = v[b] + c;\n"
    "      }\n"
    "    double *tmp = u; u = v; v = tmp;\n"
    "  }\n"
    "}\n";

static bool snap_has(const PhasedRegion *ph, const char *name) {
  for (int i = 0; i < ph->nsnap; i++)
    if (!strcmp(ph->snap[i]->name, name)) return true;
  return false;
}

static void test_phased(void) {
  Lowered r = lower(HEAT, NULL);
  const Kernel *k = kernel0(&r);
  CHECK(k && k->shape == KS_PHASED && k->phased);
  if (k && k->phased) {
    const PhasedRegion *ph = k->phased;
    CHECK(ph->nstages == 3 && ph->nwaits == 1 && ph->ngroups == 1);
    if (ph->nstages == 3) {
      /* u and v are pointers (they may alias, and are swapped): the host walk's addresses decide */
      CHECK(ph->stages[0].k->collapse == 1 && !ph->stages[0].self_indep);
      CHECK(ph->stages[1].k->collapse == 0 && ph->stages[1].self_indep);
      /* u[b] written in every c: two tasks of the nest conflict */
      CHECK(ph->stages[2].k->collapse == 2 && !ph->stages[2].self_indep);
    }
    /* t and the swapped pointers travel in the snapshot; n, res and the loop variables do not */
    CHECK(snap_has(ph, "t") && snap_has(ph, "u") && snap_has(ph, "v") && !snap_has(ph, "n") && !snap_has(ph, "res"));
    CHECK(!snap_has(ph, "b") && !snap_has(ph, "c") && !snap_has(ph, "tmp"));
    CHECK(ph->worker == 32);
  }
  CHECK(r.out.c && strstr(r.out.c, "gtrt_plan_new") && strstr(r.out.c, "gtrt_plan_barrier(gt_plan);"));
  CHECK(r.out.c && strstr(r.out.c, "double *tmp = u; u = v; v = tmp;"));
  CHECK(r.out.c && strstr(r.out.c, "gtrt_plan_stage(gt_plan, 2, gt_ntasks, &gt_s, 0)"));
  CHECK(r.out.cu && strstr(r.out.cu, "gtrt_phase_begin<GT_W, GT_S>") && strstr(r.out.cu, "case 2:"));
  lowered_free(&r);

  /* exactly one task loop nest: still the compile-time path */
  static const char *one =
      "void f(int n, double *x) {\n"
      "#pragma omp target data map(tofrom: x[0:n])\n"
      "#pragma omp parallel\n"
      "#pragma omp single\n"
      "  for (int i = 1; i < n; i++) {\n"
      "#pragma omp task depend(in: x[i-1]) depend(inout: x[i])\n"
      "    x[i] += x[i-1];\n"
      "  }\n"
      "}\n";
  r = lower(one, NULL);
  k = kernel0(&r);
  CHECK(k && k->shape == KS_TASKS);
  lowered_free(&r);

  /* a taskwait inside what looks like a 2-deep nest makes the outer loop host code */
  static const char *tw =
      "void f(int n, int steps, double *x) {\n"
      "#pragma omp target data map(tofrom: x[0:n])\n"
      "#pragma omp parallel\n"
      "#pragma omp single\n"
      "  for (int t = 0; t < steps; t++) {\n"
      "    for (int i = 0; i < n; i++) {\n"
      "#pragma omp task depend(inout: x[i])\n"
      "      x[i] += t;\n"
      "    }\n"
      "#pragma omp taskwait\n"
      "  }\n"
      "}\n";
  r = lower(tw, NULL);
  k = kernel0(&r);
  CHECK(k && k->shape == KS_PHASED && k->phased && k->phased->nstages == 1 && k->phased->nwaits == 1);
  CHECK(k && k->phased && snap_has(k->phased, "t"));
  lowered_free(&r);
}

/* Narrow stages: a parallel loop in a task with constant bounds of at most
 * 32 iterations (enum constant, macro, literal; clang folds them) lets block
 * workers run the stage one task per warp; a run-time bound or 33
 * iterations does not. Stage 3 has no parallel loop (lane 0 runs it). */
static void test_narrow(void) {
  static const char *src =
      "enum { NSL = 32 };\n"
      "#define WIDE 33\n"
      "void f(int n, int steps, double *x, double *y) {\n"
      "#pragma omp target data map(tofrom: x[0:64*n], y[0:64*n])\n"
      "#pragma omp parallel\n"
      "#pragma omp single\n"
      "  for (int t = 0; t < steps; t++) {\n"
      "    for (int b = 0; b < n; b++) {\n"
      "#pragma omp task depend(out: x[64*b])\n"
      "      {\n"
      "#pragma omp parallel for\n"
      "        for (int s = 0; s < NSL; s++) x[64*b + s] += s;\n"
      "      }\n"
      "    }\n"
      "#pragma omp taskwait\n"
      "    for (int b = 0; b < n; b++) {\n"
      "#pragma omp task depend(out: y[64*b])\n"
      "      {\n"
      "#pragma omp parallel for\n"
      "        for (int s = 0; s < WIDE; s++) y[64*b + s] += x[64*b + s];\n"
      "      }\n"
      "    }\n"
      "#pragma omp taskwait\n"
      "    for (int b = 0; b < n; b++) {\n"
      "#pragma omp task depend(out: y[64*b])\n"
      "      {\n"
      "#pragma omp parallel for\n"
      "        for (int s = 0; s < n % 64; s++) y[64*b + s] *= 0.5;\n"
      "      }\n"
      "    }\n"
      "#pragma omp taskwait\n"
      "    for (int b = 0; b < n; b++) {\n"
      "#pragma omp task depend(out: x[64*b])\n"
      "      x[64*b] += 1.0;\n"
      "    }\n"
      "#pragma omp taskwait\n"
      "    for (int b = 0; b < n; b++) {\n"
      "#pragma omp task depend(out: x[64*b])\n"
      "      {\n"
      "#pragma omp parallel for\n"
      "        for (int s = 64; s >= 2; s -= 2) x[64*b + s - 1] += 1.0;\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "}\n";
  Lowered r = lower(src, NULL);
  const Kernel *k = kernel0(&r);
  CHECK(k && k->shape == KS_PHASED && k->phased && k->phased->nstages == 5);
  if (k && k->phased && k->phased->nstages == 5) {
    const PhasedRegion *ph = k->phased;
    CHECK(ph->worker == 0);
    CHECK(ph->stages[0].narrow && !ph->stages[1].narrow && !ph->stages[2].narrow && ph->stages[3].narrow);
    CHECK(ph->stages[4].narrow); /* 64, 62, ..., 2: 32 iterations */
    const ForLoop *L = ph->stages[1].k->tasks->inner->loop;
    CHECK(L->trip_is_const && L->trip_value == 33);
    CHECK(!ph->stages[2].k->tasks->inner->loop->trip_is_const);
  }
  CHECK(r.out.cu && strstr(r.out.cu, "gt_mode == GTRT_PHASE_WARPS") && strstr(r.out.cu, "gtrt_task_sync<32>()"));
  CHECK(r.out.cu && strstr(r.out.cu, "gt_narrow[] = {1, 0, 0, 1, 1}"));
  lowered_free(&r);

  /* no narrow stage: no warp loop */
  r = lower(HEAT, NULL);
  CHECK(r.out.cu && !strstr(r.out.cu, "GTRT_PHASE_WARPS") && strstr(r.out.cu, "NULL, 0, &gt_q, &gt_ph"));
  lowered_free(&r);
}

/* Regressions of phased and one-loop task regions: snapshot variables of
 * the same name in sibling blocks get their own fields; loop variables
 * declared before the region get what the source loop leaves (also without
 * depend items, where the host walk has no loop of its own); the template
 * parameters are gtcc's names, not W and B (user code is copied into the
 * kernel). */
static void test_phased_regressions(void) {
  static const char *src =
      "void f(int nb, int steps, long *W, long *B) {\n"
      "  int b, t, last = -1;\n"
      "#pragma omp target data map(tofrom: W[0:nb], B[0:nb])\n"
      "#pragma omp parallel\n"
      "#pragma omp single\n"
      "  for (t = 0; t < steps; t++) {\n"
      "    { long c = 3 * t;\n"
      "      for (int k = 0; k < nb; k++) {\n"
      "#pragma omp task depend(inout: W[k])\n"
      "        W[k] += c;\n"
      "      } }\n"
      "#pragma omp taskwait\n"
      "    { long c = 5 * t;\n"
      "      for (int k = 0; k < nb; k++) {\n"
      "#pragma omp task depend(inout: B[k])\n"
      "        B[k] += c;\n"
      "      } }\n"
      "    for (b = 0; b < nb - t % 3; b++) {\n"
      "#pragma omp task\n"
      "      W[b] += 1;\n"
      "    }\n"
      "    last = b;\n"
      "#pragma omp task depend(inout: B[0])\n"
      "    B[0] += b;\n"
      "  }\n"
      "}\n";
  Lowered r = lower(src, NULL);
  const Kernel *k = kernel0(&r);
  CHECK(k && k->shape == KS_PHASED && k->phased && k->phased->nstages == 4);
  /* b is set by the host walk and read by the last task: it travels in the snapshot */
  CHECK(k && k->phased && snap_has(k->phased, "c") && snap_has(k->phased, "b"));
  CHECK(r.out.cu && strstr(r.out.cu, "long gt_0_c;") && strstr(r.out.cu, "long gt_1_c;"));
  CHECK(r.out.cu && strstr(r.out.cu, "long c = gt_s->gt_0_c;") && strstr(r.out.cu, "long c = gt_s->gt_1_c;"));
  CHECK(r.out.c && strstr(r.out.c, "gt_s.gt_0_c = c;") && strstr(r.out.c, "gt_s.gt_1_c = c;"));
  /* no depend items: no loop in the host walk, b still assigned before `last = b` */
  const char *asg = r.out.c ? strstr(r.out.c, "b = (int)(gt_lb0 + gt_n0 * gt_st0);") : NULL;
  CHECK(asg && strstr(asg, "last = b;"));
  CHECK(r.out.cu && strstr(r.out.cu, "template <int GT_W, int GT_B, int GT_S>"));
  /* the stub runs the build without the queue only for a plan of static shares */
  CHECK(r.out.cu && strstr(r.out.cu, "if (gt_ph.all_static && gt_kfn == gt_hi)") && strstr(r.out.cu, "else if (gt_kfn == gt_lo)"));
  CHECK(r.out.cu && strstr(r.out.cu, "__launch_bounds__(256, GT_B)"));
  /* the next phase's record is requested as each phase starts, and waited for in its end or skip */
  const char *fetch = r.out.cu ? strstr(r.out.cu, "gtrt_phase_fetch(gt_ph, gt_p + 1, gt_rec[(gt_p + 1) & 1]);") : NULL;
  CHECK(fetch && strstr(fetch, "gtrt_phase_begin<GT_W, GT_S>") && strstr(fetch, "gtrt_phase_landed();") &&
        strstr(fetch, "if (!gtrt_phase_end(gt_q)) return;"));
  CHECK(r.out.cu && !strstr(r.out.cu, "<W>") && !strstr(r.out.cu, "<B>"));
  /* task loops try the strided shortcut of the host walk (the single task has one item: no loop) */
  CHECK(r.out.c && strstr(r.out.c, "gtrt_plan_stridable(gt_plan, gt_t)") &&
        strstr(r.out.c, "(uintptr_t)(const void *)&(W[k])") &&
        strstr(r.out.c, "gtrt_plan_strided(gt_plan, gt_t, gt_ntasks"));
  lowered_free(&r);

  /* a call in a subscript is evaluated once per task, as in the CPU build: no shortcut */
  static const char *call =
      "int idx(int k);\n"
      "void f(int nb, long *W) {\n"
      "#pragma omp target data map(tofrom: W[0:nb])\n"
      "#pragma omp parallel\n"
      "#pragma omp single\n"
      "  {\n"
      "    for (int k = 0; k < nb; k++) {\n"
      "#pragma omp task depend(inout: W[idx(k)])\n"
      "      W[k] += 1;\n"
      "    }\n"
      "#pragma omp taskwait\n"
      "    for (int k = 0; k < nb; k++) {\n"
      "#pragma omp task depend(inout: W[sizeof(long) * k])\n"
      "      W[k] += 2;\n"
      "    }\n"
      "  }\n"
      "}\n";
  r = lower(call, NULL);
  k = kernel0(&r);
  CHECK(k && k->shape == KS_PHASED);
  const char *first = r.out.c ? strstr(r.out.c, "gtrt_plan_stridable(") : NULL;
  CHECK(first && strstr(r.out.c, "task type 1") && first > strstr(r.out.c, "task type 1"));
  CHECK(first && !strstr(first + 1, "gtrt_plan_stridable("));
  lowered_free(&r);

  /* one task loop nest: both loop variables after the stub call, j only when the i loop ran */
  static const char *one =
      "void f(int n, int m, long *W) {\n"
      "  int i, j;\n"
      "#pragma omp target data map(tofrom: W[0:n*m+1])\n"
      "#pragma omp parallel\n"
      "#pragma omp single\n"
      "  for (i = 1; i < n; i++)\n"
      "    for (j = 0; j < m; j += 2) {\n"
      "#pragma omp task depend(in: W[(i-1)*m+j]) depend(out: W[i*m+j])\n"
      "      W[i*m+j] += W[(i-1)*m+j];\n"
      "    }\n"
      "}\n";
  r = lower(one, NULL);
  k = kernel0(&r);
  CHECK(k && k->shape == KS_TASKS);
  CHECK(r.out.c && strstr(r.out.c, "    i = (int)(gt_lb0 + gt_n0 * gt_st0);\n"
                                   "    if (gt_n0 > 0) j = (int)(gt_lb1 + gt_n1 * gt_st1);\n"));
  CHECK(r.out.cu && strstr(r.out.cu, "template <int GT_W>") && strstr(r.out.cu, "gtrt_task_done<GT_W>(gt_q, gt_t)"));
  CHECK(r.out.cu && !strstr(r.out.cu, "<W>"));
  lowered_free(&r);
}

/* Depend addresses proven affine in the loop variable (TaskStage.linear_items):
 * the host walk takes the strides from two tasks. Anything that could hide
 * a non-linear or wrapping address (a macro, an unsigned variable, i*i, a
 * pointer indexed twice, two loops) keeps the pass over every task. */
static void test_linear_items(void) {
  static const char *src =
      "#define SQ (k * k)\n"
      "enum { NSL = 32, HID = 4 };\n"
      "#define HID k\n"
      "void f(int nb, int bs, unsigned ub, long *W, long **P, double (*A)[8]) {\n"
      "#pragma omp target data map(tofrom: W[0:nb])\n"
      "#pragma omp parallel\n"
      "#pragma omp single\n"
      "  {\n"
      "    for (int k = 0; k < nb; k++) {\n"
      "#pragma omp task depend(in: W[(k - 1) * bs + 2], A[k][3]) depend(out: W[k * bs])\n"
      "      W[k * bs] += 1;\n"
      "    }\n"
      "    for (int k = 0; k < nb; k++) {\n"
      "#pragma omp task depend(inout: W[SQ])\n"
      "      W[k] += 2;\n"
      "    }\n"
      "    for (int k = 0; k < nb; k++) {\n"
      "#pragma omp task depend(inout: W[k * ub])\n"
      "      W[k] += 3;\n"
      "    }\n"
      "    for (int k = 0; k < nb; k++) {\n"
      "#pragma omp task depend(inout: W[k * k])\n"
      "      W[k] += 4;\n"
      "    }\n"
      "    for (unsigned k = 0; k < 9; k++) {\n"
      "#pragma omp task depend(inout: W[k])\n"
      "      W[k] += 5;\n"
      "    }\n"
      "    for (int k = 0; k < 4; k++)\n"
      "      for (int j = 0; j < 4; j++) {\n"
      "#pragma omp task depend(inout: W[k * 4 + j])\n"
      "        W[k] += 6;\n"
      "      }\n"
      "    for (int k = 0; k < nb; k++) {\n"
      "#pragma omp task depend(inout: W[k * NSL + 1])\n" /* an enumerator: linear */
      "      W[k] += 7;\n"
      "    }\n"
      "    for (int k = 0; k < nb; k++) {\n"
      "#pragma omp task depend(inout: W[k * HID])\n" /* a macro of an enumerator's name: k * k */
      "      W[k] += 8;\n"
      "    }\n"
      "  }\n"
      "}\n";
  Lowered r = lower(src, NULL);
  const Kernel *k = kernel0(&r);
  CHECK(k && k->shape == KS_PHASED && k->phased && k->phased->nstages == 8);
  for (int s = 0; k && k->phased && s < k->phased->nstages; s++)
    CHECK(k->phased->stages[s].linear_items == (s == 0 || s == 6));
  const char *two = r.out.c ? strstr(r.out.c, "/* linear: two tasks */") : NULL;
  const char *second = two ? strstr(two + 1, "/* linear: two tasks */") : NULL;
  CHECK(second && !strstr(second + 1, "/* linear: two tasks */"));
  CHECK(two && strstr(r.out.c, "task type 1") && two < strstr(r.out.c, "task type 1"));
  lowered_free(&r);
}

int main(void) {
  test_linear_items();
  test_wavefront_defaults();
  test_options();
  test_inspector_and_negative();
  test_other_forms();
  test_phased();
  test_narrow();
  test_phased_regressions();
  return unit_result();
}
