/* Task-dependency loops -> persistent megakernel (issue 4).
 *
 * Recognises `omp parallel` (or `omp target [teams]`) + `omp single` /
 * `master` around a perfect loop nest of depth 1-3 whose body is one
 * `omp task depend(...)`. Each iteration is a task; tasks are ordered by
 * their depend items with OpenMP semantics. Affine subscripts give distance
 * vectors at compile time (taskdeps.h); anything else is left to a host
 * inspector at run time. With non-negative distances, tasks become tiles of
 * iterations run along hyperplanes (docs/tasks.md explains the choice). */
#include <stdlib.h>
#include <string.h>

#include "lir.h"
#include "strbuf.h"

/* Default tile sizes per nest depth, from the wavefront sweep (docs/tasks.md). */
static const long long default_tile[3][3] = {{256, 1, 1}, {32, 32, 1}, {32, 8, 8}};

static bool is_task_dir(const Directive *d) { return d->kind == DIR_OMP_TASK; }

bool xf_has_task(const Stmt *s) {
  for (int i = 0; i < s->ndirs; i++)
    if (is_task_dir(s->dirs[i])) return true;
  for (int i = 0; i < s->nkids; i++)
    if (xf_has_task(s->kids[i])) return true;
  return false;
}

/* The items of a compound that are not empty statements. */
static int real_items(const Stmt *s, Stmt **first) {
  int n = 0;
  for (int i = 0; i < s->nkids; i++)
    if (s->kids[i]->kind != ST_NULL) {
      if (!n && first) *first = s->kids[i];
      n++;
    }
  return n;
}

/* ---- the construct chain: target? parallel? single|master|masked ---------- */

typedef struct Chain {
  Directive *target, *parallel, *single;
  Stmt *body; /* statement the single applies to */
  int body_di; /* its directives from this index on belong to the body (a task, a taskgroup) */
} Chain;

/* The constructs whose block one thread runs: it creates the tasks. */
static bool one_thread_block(DirKind k) {
  return k == DIR_OMP_SINGLE || k == DIR_OMP_MASTER || k == DIR_OMP_MASKED || k == DIR_OMP_PARALLEL_MASTER ||
         k == DIR_OMP_PARALLEL_MASKED;
}

static bool unsupported_region_clauses(const Directive *d) {
  static const ClauseKind bad[] = {CL_REDUCTION, CL_LASTPRIVATE, CL_DEVICE_NUM, CL_DEFAULTMAP, CL_DEPEND, CL_NOWAIT};
  bool any = false;
  for (int c = 0; c < d->nclauses; c++)
    for (size_t b = 0; b < sizeof bad / sizeof *bad; b++)
      if (d->clauses[c].kind == bad[b] && !(d->kind == DIR_OMP_SINGLE && bad[b] == CL_NOWAIT)) {
        diag_error(d->clauses[c].loc, "clause '%s' on '%s' around tasks is not supported by gtcc",
                   clause_spelling(bad[b]), dir_name(d->kind));
        any = true;
      }
  return any;
}

/* Walks from s->dirs[di] down through the directives on the same statement
 * and through `{ }` with one item. Returns false after reporting an error. */
static bool find_chain(Stmt *s, int di, Chain *ch) {
  memset(ch, 0, sizeof *ch);
  const Directive *first = s->dirs[di];
  for (;;) {
    for (; di < s->ndirs; di++) {
      Directive *d = s->dirs[di];
      bool ok = true;
      switch (d->kind) {
      case DIR_OMP_TARGET: case DIR_OMP_TARGET_TEAMS:
        ok = !ch->target && !ch->parallel;
        ch->target = d;
        break;
      case DIR_OMP_TARGET_PARALLEL:
        ok = !ch->target && !ch->parallel;
        ch->target = ch->parallel = d;
        break;
      case DIR_OMP_PARALLEL:
        ok = !ch->parallel;
        ch->parallel = d;
        break;
      case DIR_OMP_SINGLE: case DIR_OMP_MASTER: case DIR_OMP_MASKED: /* one thread makes the tasks */
        ch->single = d;
        break;
      case DIR_OMP_PARALLEL_MASTER: case DIR_OMP_PARALLEL_MASKED:
        ok = !ch->parallel;
        ch->parallel = ch->single = d;
        break;
      default: ok = false; break;
      }
      if (!ok) {
        diag_error(d->loc, "'%s' is not supported here: gtcc runs tasks from 'omp parallel' (or 'omp target') with "
                           "'omp single' or 'omp master' around one task loop",
                   dir_name(d->kind));
        return false;
      }
      if (unsupported_region_clauses(d)) return false;
      if (ch->single) {
        ch->body_di = di + 1;
        if (di + 1 < s->ndirs && (is_task_dir(s->dirs[di + 1]) || s->dirs[di + 1]->kind == DIR_OMP_TASKGROUP ||
                                 s->dirs[di + 1]->kind == DIR_OMP_TASKLOOP)) {
          ch->body = s; /* a single task or a taskgroup: a phased region */
          return true;
        }
        if (di + 1 < s->ndirs) {
          diag_error(s->dirs[di + 1]->loc, "'%s' after '%s' is not supported around tasks",
                     dir_name(s->dirs[di + 1]->kind), dir_name(d->kind));
          return false;
        }
        ch->body = s;
        return true;
      }
    }
    Stmt *only = NULL;
    if (s->kind != ST_COMPOUND || real_items(s, &only) != 1) break;
    s = only;
    di = 0;
  }
  int singles = 0;
  for (int i = 0; s->kind == ST_COMPOUND && i < s->nkids; i++)
    for (int j = 0; j < s->kids[i]->ndirs; j++)
      singles += one_thread_block(s->kids[i]->dirs[j]->kind);
  if (singles)
    diag_error(first->loc, "'%s' holds %d statements, %d of them 'omp single' or 'omp master' blocks: gtcc runs tasks "
                           "from one such block that is the parallel region's only statement; put the task loops "
                           "into one 'omp single' block (with 'omp taskwait' between them where needed)",
               dir_name(first->kind), real_items(s, NULL), singles);
  else
    diag_error(first->loc, "'%s' creates tasks but they are not inside 'omp single' or 'omp master': gtcc runs "
                           "task loops written as '#pragma omp parallel' + '#pragma omp single' + the loop",
               dir_name(first->kind));
  return false;
}

/* ---- the task loop nest ---------------------------------------------------- */

/* Where a standalone directive sits inside [begin, end). */
const Directive *xf_standalone_in(const Program *p, unsigned begin, unsigned end) {
  for (int i = 0; i < p->tu->ndirs; i++) {
    const Directive *d = p->tu->dirs[i];
    if ((dir_flags(d->kind) & DF_STANDALONE) && d->loc.offset >= begin && d->loc.offset < end) return d;
  }
  return NULL;
}

/* Finds the perfect nest under the single: fills k->loops/loop_stmts/collapse
 * and returns the task statement, or NULL after an error. */
static Stmt *task_nest(Program *p, Kernel *k, Stmt *body) {
  Stmt *s = body;
  if (s->kind == ST_COMPOUND) {
    Stmt *only = NULL;
    int n = real_items(s, &only);
    if (n != 1) {
      for (int i = 0; i < s->nkids; i++)
        if (s->kids[i]->kind != ST_NULL && (s->kids[i]->kind != ST_FOR || !xf_has_task(s->kids[i]))) {
          diag_error(s->kids[i]->loc, "gtcc runs one task loop per 'omp single' region: this statement is not "
                                      "part of it (several task loops, taskwait phases and other statements "
                                      "around tasks are not supported yet)");
          return NULL;
        }
      diag_error(s->loc, "gtcc runs one task loop per 'omp single' region; this one has %d", n);
      return NULL;
    }
    s = only;
  }
  for (int depth = 0;; depth++) {
    if (s->ndirs && s != body) { /* body's own directives are the chain's */
      if (s->ndirs == 1 && is_task_dir(s->dirs[0]) && depth > 0) return s;
      const Directive *d = s->dirs[0];
      if (is_task_dir(d) && depth == 0)
        diag_error(d->loc, "a single 'omp task' is not lowered by gtcc: put the task in a loop nest of depth 1 to 3");
      else
        diag_error(d->loc, "'%s' in a task loop nest is not supported: the loops around 'omp task' must be plain "
                           "for loops",
                   dir_name(is_task_dir(d) ? s->dirs[1]->kind : d->kind));
      return NULL;
    }
    if (s->kind != ST_FOR) {
      diag_error(s->loc, "task-generating code between loops is not supported: the loops around 'omp task' must "
                         "be perfectly nested, with the task as the innermost body");
      return NULL;
    }
    if (depth == 3) {
      diag_error(s->loc, "task loop nests deeper than 3 are not supported");
      return NULL;
    }
    if (!s->loop->canonical) {
      diag_error(s->loop->why_loc, "task loop is not in canonical form: %s", s->loop->why_not);
      return NULL;
    }
    for (int l = 0; l < depth; l++)
      if (xf_stmt_uses(s, k->loops[l]->iv)) {
        diag_error(s->loc, "task loop bounds must not depend on the outer loop variable '%s' (rectangular nests only)",
                   k->loops[l]->iv->name);
        return NULL;
      }
    k->loops[depth] = s->loop;
    k->loop_stmts[depth] = s;
    k->collapse = depth + 1;
    Stmt *inner = s->kids[0];
    if (inner->kind == ST_COMPOUND) {
      Stmt *only = NULL;
      if (real_items(inner, &only) != 1) {
        for (int i = 0; i < inner->nkids; i++)
          if (inner->kids[i]->kind != ST_NULL && !xf_has_task(inner->kids[i])) {
            diag_error(inner->kids[i]->loc, "task-generating code between loops is not supported: this statement "
                                            "is not a task (make it part of the task body)");
            return NULL;
          }
        diag_error(inner->loc, "one 'omp task' per loop body is supported");
        return NULL;
      }
      inner = only;
    }
    const Directive *sa = xf_standalone_in(p, s->begin, s->end);
    if (sa) {
      diag_error(sa->loc, "'%s' inside a task loop is not supported", dir_name(sa->kind));
      return NULL;
    }
    s = inner;
  }
}

/* ---- the task body --------------------------------------------------------- */

static bool is_parallel_loop(const Directive *d) {
  return (dir_flags(d->kind) & DF_LOOP) && !dir_find_clause(d, CL_SEQ) && !(dir_flags(d->kind) & DF_COMPUTE);
}

static void note_inner(const Program *p, const Stmt *s, TaskRegion *tr, bool top, bool *ok) {
  int first = 0; /* a task on the single's own statement: the chain's directives come first */
  for (int i = 0; i < s->ndirs; i++)
    if (s->dirs[i] == tr->task) first = i;
  for (int i = first; i < s->ndirs && *ok; i++) {
    const Directive *d = s->dirs[i];
    if (d == tr->task) continue;
    if (is_parallel_loop(d) && top && !tr->inner && s->kind == ST_FOR) {
      tr->inner = (Stmt *)s;
      continue;
    }
    if (dir_flags(d->kind) & DF_LOOP) continue; /* seq / simd: runs sequentially in the thread */
    if (xf_is_atomic(d)) continue;              /* rewritten in the copied text (frontend/atomics.c) */
    if (d->kind == DIR_OMP_CRITICAL) {          /* a lock around it (frontend/critical.c) */
      *ok = xf_check_critical(p, s);
      continue;
    }
    diag_error(d->loc, "'%s' inside an 'omp task' body is not supported%s", dir_name(d->kind),
               is_parallel_loop(d) ? " (one parallel loop at the top level of the task body is)" : "");
    *ok = false;
  }
  for (int i = 0; i < s->nkids && *ok; i++) note_inner(p, s->kids[i], tr, false, ok);
}

/* The reduction clause of the task's parallel loop: each variable a
 * scalar declared in the body before the loop. */
static bool inner_reductions(Program *p, TaskRegion *tr, const Stmt *b, const Directive *ld) {
  for (int c = 0; c < ld->nclauses; c++) {
    const Clause *cl = &ld->clauses[c];
    if (cl->kind != CL_REDUCTION) continue;
    for (int j = 0; j < cl->nitems; j++) {
      CVar *v = xf_lookup_var(p, cl->items[j].name, ld->loc.offset);
      bool local = v && v->tkind == VT_SCALAR && b->kind == ST_COMPOUND && v->decl_offset >= b->begin &&
                   v->decl_offset < tr->inner->begin;
      if (!local) {
        diag_error(cl->items[j].loc, "the reduction variable '%s' of a parallel loop inside a task must be a scalar "
                                     "declared in the task body before the loop",
                   cl->items[j].name);
        return false;
      }
      InnerReduction r = {v, cl->u.red_op};
      VEC_PUSH(tr->inner_reds, tr->ninner_reds, tr->inner_reds_cap, r);
    }
  }
  return true;
}

/* The task body may hold one parallel loop at its top level. Declarations
 * before it run in every thread of the worker; statements after it run in
 * the worker's first thread, once the loop (and its reduction) is done. */
static bool check_body(Program *p, Kernel *k, TaskRegion *tr) {
  Stmt *b = k->body;
  if (!xf_check_jumps(p, b, "an 'omp task' body", false)) return false; /* OpenMP forbids leaving a task */
  const Directive *sa = xf_standalone_in(p, b->begin, b->end);
  if (sa) {
    diag_error(sa->loc, "'%s' inside an 'omp task' body is not supported", dir_name(sa->kind));
    return false;
  }
  bool ok = true;
  if (b->kind == ST_COMPOUND)
    for (int i = 0; i < b->nkids && ok; i++) note_inner(p, b->kids[i], tr, true, &ok);
  else
    note_inner(p, b, tr, true, &ok);
  if (!ok || !tr->inner) return ok;
  if (!tr->inner->loop->canonical) {
    diag_error(tr->inner->loop->why_loc, "parallel loop in a task is not in canonical form: %s",
               tr->inner->loop->why_not);
    return false;
  }
  if (b->kind == ST_COMPOUND) {
    bool after = false;
    for (int i = 0; i < b->nkids; i++) {
      const Stmt *it = b->kids[i];
      if (it == tr->inner) {
        after = true;
        continue;
      }
      if (after) {
        tr->inner_after |= it->kind != ST_NULL;
        continue;
      }
      if (it->kind != ST_DECL && it->kind != ST_NULL) {
        diag_error(it->loc, "with a parallel loop inside the task, the statements before it must be declarations "
                            "(each thread of the worker runs them); statements after it are allowed");
        return false;
      }
    }
  }
  const Directive *ld = tr->inner->dirs[0];
  if (dir_find_clause(ld, CL_COLLAPSE) || dir_find_clause(ld, CL_LASTPRIVATE)) {
    diag_error(ld->loc, "collapse and lastprivate on a parallel loop inside a task are not supported");
    return false;
  }
  return inner_reductions(p, tr, b, ld);
}

/* ---- depend items ---------------------------------------------------------- */

static int subscripts_needed(const CVar *v) {
  switch (v->tkind) {
  case VT_SCALAR: case VT_RECORD: return 0;
  case VT_POINTER: return 1;
  case VT_ARRAY: return v->ndims;
  case VT_VLA_POINTER: return v->ndims + 1;
  default: return -1;
  }
}

/* The task directive that frontend/taskloop.c gave an `omp taskloop`'s body. */
static bool from_taskloop(const Program *p, const Directive *task) {
  for (int i = 0; i < p->tu->ndirs; i++)
    if (p->tu->dirs[i]->kind == DIR_OMP_TASKLOOP && p->tu->dirs[i]->loc.offset == task->loc.offset) return true;
  return false;
}

static bool collect_deps(Program *p, const Kernel *k, TaskRegion *tr) {
  const Directive *d = tr->task;
  bool ok = true;
  for (int c = 0; c < d->nclauses; c++) {
    const Clause *cl = &d->clauses[c];
    if (cl->kind != CL_DEPEND) continue;
    for (int j = 0; j < cl->nitems; j++) {
      const VarItem *it = &cl->items[j];
      if (!strcmp(it->name, "omp_all_memory")) {
        diag_error(it->loc, "depend on 'omp_all_memory' is not supported by gtcc: name the elements the task uses");
        ok = false;
        continue;
      }
      CVar *v = xf_lookup_var(p, it->name, d->loc.offset);
      if (!v) {
        diag_error(it->loc, "'%s' in depend is not a variable declared before the task%s", it->name,
                   xf_macro_hint(p, it->name));
        ok = false;
        continue;
      }
      int need = subscripts_needed(v);
      bool section = false;
      for (int s = 0; s < it->nsubs; s++) section |= it->subs[s].is_section;
      if (section) {
        diag_error(it->loc, "array sections in depend clauses are not supported by gtcc: name one element, e.g. %s[i]",
                   it->name);
        ok = false;
        continue;
      }
      if (need < 0 || it->nsubs != need) {
        diag_error(it->loc, "depend item '%s' must name one element of '%s' (%d subscript%s)", it->name, v->type,
                   need < 0 ? 0 : need, need == 1 ? "" : "s");
        ok = false;
        continue;
      }
      TaskDep td = {v, it, cl->u.dep_kind};
      VEC_PUSH(tr->deps, tr->ndeps, tr->deps_cap, td);
    }
  }
  /* a single task has no iterations to order; a taskloop's are unordered by definition */
  if (ok && tr->ndeps == 0 && k->collapse > 0 && !from_taskloop(p, d))
    diag_warning(d->loc, "this task has no depend clause: its iterations run in any order on the GPU");
  return ok;
}

/* Affine distances when every subscript is affine in the loop variables
 * with constant steps; otherwise the reason the inspector is needed. */
static void analyze(Kernel *k, TaskRegion *tr) {
  int depth = k->collapse;
  const char *ivs[3];
  for (int l = 0; l < depth; l++) {
    ivs[l] = k->loops[l]->iv->name;
    if (!k->loops[l]->step_is_const) {
      tr->why_inspector = "a loop step is not a constant";
      return;
    }
  }
  TdItem *items = xcalloc((size_t)tr->ndeps + 1, sizeof *items);
  CVar *arrays[64];
  int narrays = 0;
  const char *why = NULL;
  for (int i = 0; i < tr->ndeps && !why; i++) {
    const TaskDep *dp = &tr->deps[i];
    int a = 0;
    while (a < narrays && arrays[a] != dp->var) a++;
    if (a == narrays) {
      if (narrays == 64) { why = "too many arrays in depend clauses"; break; }
      arrays[narrays++] = dp->var;
    }
    items[i].array = a;
    items[i].kind = dp->kind == DEP_IN ? TD_IN : dp->kind == DEP_OUT ? TD_OUT : TD_INOUT;
    items[i].ndims = dp->item->nsubs;
    for (int s = 0; s < dp->item->nsubs && !why; s++) {
      const char *w = NULL;
      if (!td_parse_affine(dp->item->subs[s].lo.text, ivs, depth, &items[i].sub[s], &w))
        why = w ? w : "a subscript is not affine in the loop variables";
      else
        for (int l = 0; l < depth; l++) items[i].sub[s].coef[l] *= k->loops[l]->step_value;
    }
  }
  if (!why) {
    td_analyze(depth, items, tr->ndeps, &tr->cell);
    if (!tr->cell.affine) why = tr->cell.why_not;
  }
  for (int i = 0; i < tr->ndeps; i++)
    for (int s = 0; s < items[i].ndims; s++) td_affine_free(&items[i].sub[s]);
  free(items);
  tr->affine = why == NULL;
  tr->why_inspector = why;
}

/* Tiles, worker size and queue from the analysis and the options. */
static void decide(const Program *p, Kernel *k, TaskRegion *tr) {
  int depth = k->collapse;
  const XfOptions *o = &p->opts;
  for (int l = 0; l < 3; l++) tr->tile[l] = 1;
  tr->queue = o->task_queue;
  tr->tiled = tr->affine && !tr->inner && !o->task_tile_off && td_nonnegative(&tr->cell, depth);
  if (tr->tiled) {
    for (int l = 0; l < depth; l++) tr->tile[l] = o->task_tile[l] > 0 ? o->task_tile[l] : default_tile[depth - 1][l];
    td_tile_deps(&tr->cell, depth, tr->tile, &tr->tile_deps);
    td_prune_implied(&tr->tile_deps, depth);
  } else if (tr->affine)
    td_prune_implied(&tr->cell, depth);
  /* 2D+ tiles ran fastest with one block per tile (Needleman-Wunsch
   * 10000^2: 15.8 ms against 22.3 with a warp), other tasks with a warp
   * (no-op cells: 1.13 G tasks/s against 0.22 with threads); docs/tasks.md */
  tr->worker = xf_task_worker(o, tr->tiled && depth >= 2 && !tr->inner ? 0 : 32);
}

int xf_task_worker(const XfOptions *o, int dflt) {
  switch (o->task_worker) {
  case TWO_THREAD: return 1;
  case TWO_WARP: return 32;
  case TWO_CTA: return 0;
  default: return dflt;
  }
}

/* Scalars a task writes are shared in OpenMP; gtcc passes scalars by value,
 * so such a write would be lost: an error, not a wrong answer. */
static bool is_loop_var(const Stmt *s, const CVar *v) {
  if (s->kind == ST_FOR && s->loop && s->loop->iv == v) return true;
  for (int i = 0; i < s->nkids; i++)
    if (is_loop_var(s->kids[i], v)) return true;
  return false;
}

static void check_scalar_writes(Kernel *k, const Stmt *s) {
  for (int i = 0; i < s->nuses; i++) {
    const VarUse *u = &s->uses[i];
    if (!u->write || is_loop_var(k->body, u->var)) continue;
    for (int c = 0; c < k->ncaps; c++)
      if (k->caps[c].var == u->var && k->caps[c].kind == CAP_VALUE && (u->var->tkind == VT_SCALAR || u->var->tkind == VT_RECORD)) {
        diag_error(u->loc, "'%s' is shared by the tasks and written by them; gtcc passes scalars to the GPU by value: "
                           "keep the value in an array element that is mapped (e.g. %s_arr[0])",
                   u->var->name, u->var->name);
        k->caps[c].kind = CAP_PRIVATE; /* one error per variable */
      }
  }
  for (int i = 0; i < s->nkids; i++) check_scalar_writes(k, s->kids[i]);
}

/* The statement under a single (or a statement of a phased region) as a
 * perfect nest of 1-3 canonical, rectangular, undirected for loops around
 * one statement that carries only `omp task`: its depth, else 0. */
int xf_task_nest_depth(const Program *p, Stmt *s, int di0, Stmt **task) {
  const ForLoop *loops[3];
  const Stmt *outer = s;
  for (int depth = 0;; depth++) {
    if (s->kind == ST_COMPOUND && s->ndirs <= di0) {
      Stmt *only = NULL;
      if (real_items(s, &only) != 1) return 0;
      s = only;
      di0 = 0;
    }
    if (s->ndirs > di0) {
      if (depth == 0 || s->ndirs != 1 || !is_task_dir(s->dirs[0])) return 0;
      /* a taskwait (or another standalone directive) between the loops makes it host code around tasks */
      if (xf_standalone_in(p, outer->begin, s->dirs[0]->loc.offset) || xf_standalone_in(p, s->end, outer->end)) return 0;
      if (task) *task = s;
      return depth;
    }
    if (s->kind != ST_FOR || depth == 3 || !s->loop->canonical) return 0;
    for (int l = 0; l < depth; l++)
      if (xf_stmt_uses(s, loops[l]->iv)) return 0;
    loops[depth] = s->loop;
    s = s->kids[0];
    di0 = 0;
  }
}

/* The host walk computes a task loop's trip count once, where C evaluates
 * its condition every iteration: a header that writes a variable (other than
 * the loop's own) would do so once instead of every time. */
static bool check_header_effects(const Kernel *k) {
  bool ok = true;
  for (int d = 0; d < k->collapse; d++) {
    const Stmt *ls = k->loop_stmts[d];
    if (!ls || !ls->loop) continue;
    for (int i = 0; i < ls->nuses; i++)
      if (ls->uses[i].write && ls->uses[i].var != ls->loop->iv) {
        diag_error(ls->uses[i].loc,
                   "the header of a task loop changes '%s': gtcc computes the loop's trip count once, before its "
                   "tasks, so the change would happen once instead of every iteration; compute the bound before "
                   "the loop",
                   ls->uses[i].var->name);
        ok = false;
        break;
      }
  }
  return ok;
}

bool xf_task_stage(Program *p, Kernel *k) {
  TaskRegion *tr = k->tasks;
  if (!check_header_effects(k) || !check_body(p, k, tr) || !collect_deps(p, k, tr)) return false;
  xf_capture(p, k);
  check_scalar_writes(k, k->body);
  if (k->collapse > 0) analyze(k, tr);
  return true;
}

/* private / firstprivate on the constructs around the tasks: one thread runs
 * the region's code, so it may work on the variable itself, provided the
 * value before the region comes back after it (a private copy's changes do
 * not leave the region). Scalars, structs and pointers; not arrays. */
static bool region_privates(Program *p, Kernel *k, const Chain *ch) {
  const Directive *ds[3] = {ch->target, ch->parallel, ch->single};
  bool ok = true;
  for (int i = 0; i < 3; i++)
    for (int c = 0; ds[i] && c < ds[i]->nclauses; c++) {
      const Clause *cl = &ds[i]->clauses[c];
      if (cl->kind != CL_PRIVATE && cl->kind != CL_FIRSTPRIVATE) continue;
      for (int j = 0; j < cl->nitems; j++) {
        const CVar *v = xf_lookup_var(p, cl->items[j].name, ds[i]->loc.offset);
        if (!v) {
          xf_unknown_clause_item(p, cl, &cl->items[j]);
          ok = false;
        } else if (v->tkind != VT_SCALAR && v->tkind != VT_RECORD && v->tkind != VT_POINTER) {
          diag_error(cl->items[j].loc, "'%s' on '%s' around tasks: gtcc takes scalars, structs and pointers there, "
                                       "not '%s' (%s)",
                     clause_spelling(cl->kind), dir_name(ds[i]->kind), v->name, v->type);
          ok = false;
        } else if (!v->is_const) {
          bool dup = false;
          for (int q = 0; q < k->nregion_privates; q++) dup = dup || k->region_privates[q] == v;
          if (!dup) VEC_PUSH(k->region_privates, k->nregion_privates, k->region_privates_cap, v);
        }
      }
    }
  return ok;
}

/* Whether s creates tasks outside any parallel or target region of its own (orphaned tasks). */
static bool has_orphaned_task(const Stmt *s) {
  for (int i = 0; i < s->ndirs; i++) {
    DirKind k = s->dirs[i]->kind;
    if (k == DIR_OMP_PARALLEL || k == DIR_OMP_PARALLEL_MASTER || k == DIR_OMP_PARALLEL_MASKED ||
        (dir_flags(k) & DF_COMPUTE))
      return false;
    if (is_task_dir(s->dirs[i])) return true;
  }
  for (int i = 0; i < s->nkids; i++)
    if (has_orphaned_task(s->kids[i])) return true;
  return false;
}

/* A function of the file that s calls, directly or through other functions of the file,
 * whose body creates tasks; *call: the call in s that leads there. */
static const Function *task_creating_callee(const Stmt *s, const Function ***seen, int *nseen, int *cap,
                                            const CallUse **call) {
  for (int i = 0; i < s->ncalls; i++) {
    const Function *f = s->calls[i].def;
    bool visited = false;
    for (int j = 0; j < *nseen && !visited; j++) visited = (*seen)[j] == f;
    if (!f || !f->body || visited) continue;
    VEC_PUSH(*seen, *nseen, *cap, f);
    const CallUse *inner = NULL;
    if (has_orphaned_task(f->body) || task_creating_callee(f->body, seen, nseen, cap, &inner)) {
      *call = &s->calls[i];
      return f;
    }
  }
  for (int i = 0; i < s->nkids; i++) {
    const Function *f = task_creating_callee(s->kids[i], seen, nseen, cap, call);
    if (f) return f;
  }
  return NULL;
}

/* Tasks a function creates when a parallel region calls it would run on the host, on the
 * host's copies of the data, while the tasks written in a region run on the GPU: an error. */
static bool orphaned_tasks_called(const Stmt *s, const Directive *d) {
  const Function **seen = NULL;
  int nseen = 0, cap = 0;
  const CallUse *call = NULL;
  const Function *f = task_creating_callee(s, &seen, &nseen, &cap, &call);
  free(seen);
  if (!f) return false;
  diag_error(call->loc,
             "'%s' creates tasks (directly or through the functions it calls) and is called in the '%s' "
             "region at line %d: gtcc lowers only the tasks written in the region itself; write the task "
             "loop inside its 'omp single' / 'omp master' block",
             call->name, dir_name(d->kind), d->loc.line);
  return true;
}

bool xf_task_region(Program *p, Stmt *s, int di) {
  if (orphaned_tasks_called(s, s->dirs[di])) return true;
  if (!xf_has_task(s)) return false;
  Chain ch;
  if (!find_chain(s, di, &ch)) return true;
  Kernel *k = xcalloc(1, sizeof *k);
  TaskRegion *tr = xcalloc(1, sizeof *tr);
  k->tasks = tr;
  k->shape = KS_TASKS;
  k->id = p->nkernels;
  tr->target = ch.target;
  tr->parallel = ch.parallel;
  tr->single = ch.single;
  Directive *outer = ch.target ? ch.target : ch.parallel;
  k->outer = outer;
  k->loc = outer->loc;
  k->what = "omp task region";
  k->stmt = k->replace = s;
  k->replace_begin = s->dirs[di]->loc.offset;
  k->name = xf_kernel_name(p, outer, k->id);
  k->block = 256;
  VEC_PUSH(p->kernels, p->nkernels, p->kernels_cap, k);
  if (!region_privates(p, k, &ch)) return true;
  if (ch.target) {
    xf_check_gtcc_clauses(ch.target); /* allowed on every compute construct, meaningless here, still checked */
    const Clause *c = dir_find_clause(ch.target, CL_IF);
    if (c) k->if_cond = c->expr;
    xf_directive_maps(p, ch.target, &k->maps);
  }
  if (ch.body_di < ch.body->ndirs || !xf_task_nest_depth(p, ch.body, ch.body_di, NULL)) {
    PhasedRegion *ph = xcalloc(1, sizeof *ph);
    ph->target = ch.target;
    ph->parallel = ch.parallel;
    ph->single = ch.single;
    k->phased = ph;
    k->shape = KS_PHASED;
    k->tasks = NULL;
    free(tr);
    xf_phased_region(p, k, ch.body, ch.body_di);
    return true;
  }
  Stmt *task = task_nest(p, k, ch.body);
  if (!task) return true;
  tr->task = task->dirs[0];
  k->dir = tr->task;
  k->body = task;
  if (!xf_task_stage(p, k)) {
    k->body = NULL;
    return true;
  }
  decide(p, k, tr);
  return true;
}
