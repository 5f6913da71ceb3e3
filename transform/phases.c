/* Phased task regions (KS_PHASED): the block under `omp single` holds host
 * control flow around several task loops and single tasks, with taskwait
 * and taskgroup between them, e.g. a time loop whose body is two task loops
 * separated by a taskwait.
 *
 * Each task loop nest (a perfect, rectangular nest of 1-3 canonical loops
 * around one `omp task`) and each single task is a stage: a task type with
 * its own body, depend items and captures, checked by the same code as a
 * one-loop region (xf_task_stage). Everything else is host code. The
 * generated host code runs it first, in program order, as the CPU build
 * does, and tells the runtime which stage instances, depend addresses and
 * phase boundaries it meets (gtrt_plan); the GPU then runs all of them in
 * one megakernel. Host code therefore may only compute scalars and pointer
 * values: it cannot see what the tasks write. Variables whose value the
 * host code sets and the tasks read travel in a per-instance snapshot. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lir.h"

typedef struct Walk {
  Program *p;
  Kernel *k;
  PhasedRegion *ph;
  CVar **host_writes; /* variables the host code assigns */
  int nhost_writes, host_writes_cap;
  bool ok;
} Walk;

/* ---- host code --------------------------------------------------------------- */

/* `&x[i]...[k]` (subscripts at `at`, the variable at `var`) only computes
 * an address, unless `->` follows the subscripts. */
static bool address_only(const char *text, size_t len, size_t var, size_t at) {
  if (!xf_unary_before(text, var, '&')) return false;
  while (at < len && text[at] == '[') {
    int depth = 0;
    for (; at < len; at++) {
      if (text[at] == '[') depth++;
      else if (text[at] == ']' && --depth == 0) break;
    }
    if (at++ >= len) return false;
    while (at < len && isspace((unsigned char)text[at])) at++;
  }
  return !(at + 1 < len && text[at] == '-' && text[at + 1] == '>');
}

/* The file offset of the first non-space after the use's name. */
static size_t after_name(const Program *p, const VarUse *u) {
  const char *text = p->tu->file->text;
  size_t len = p->tu->file->len, at = u->loc.offset + strlen(u->var->name);
  while (at < len && isspace((unsigned char)text[at])) at++;
  return at;
}

/* Is this use `&x[i]`: an element's address, a pointer value? */
static bool address_of_element(const Program *p, const VarUse *u) {
  size_t len = p->tu->file->len, at = after_name(p, u);
  return at < len && p->tu->file->text[at] == '[' && address_only(p->tu->file->text, len, u->loc.offset, at);
}

/* Does this use of a pointer or array read or write memory: x[...], x->f,
 * or a unary *x? (Copying the pointer's value does not.) */
static bool use_derefs(const Program *p, const VarUse *u) {
  const char *text = p->tu->file->text;
  size_t len = p->tu->file->len, at = after_name(p, u);
  if (at < len && text[at] == '[') return true;
  if (at < len && text[at] == '-' && at + 1 < len && text[at + 1] == '>') return true;
  return xf_unary_before(text, u->loc.offset, '*');
}

static void note_host_write(Walk *w, CVar *v) {
  for (int i = 0; i < w->nhost_writes; i++)
    if (w->host_writes[i] == v) return;
  VEC_PUSH(w->host_writes, w->nhost_writes, w->host_writes_cap, v);
}

static const char *const host_rule =
    "gtcc runs the host code of a task region before its tasks, so it may only compute scalars and pointer values";

/* The statement's own expressions (not its kids) as host code. */
static void check_host_own(Walk *w, const Stmt *s) {
  if (s->kind == ST_RETURN || s->kind == ST_GOTO) {
    diag_error(s->loc, "'%s' out of an 'omp single' region with tasks is not supported",
               s->kind == ST_RETURN ? "return" : "goto");
    w->ok = false;
    return;
  }
  if (s->ncalls) {
    diag_error(s->loc, "call to '%s' between tasks is not supported: %s (move it into a task, or after the region)",
               s->calls[0].name, host_rule);
    w->ok = false;
    return;
  }
  for (int i = 0; i < s->nuses; i++) {
    const VarUse *u = &s->uses[i];
    VarTypeKind t = u->var->tkind;
    bool memory = (t == VT_ARRAY || t == VT_POINTER || t == VT_VLA_POINTER) && !address_of_element(w->p, u) &&
                  (u->elem_write || use_derefs(w->p, u));
    if (memory) {
      diag_error(u->loc, "'%s' is read or written through between tasks: %s; memory belongs to the tasks until the "
                         "region ends (put this in a task)",
                 u->var->name, host_rule);
      w->ok = false;
      return;
    }
    /* `p.k = ...` changes the struct p as much as `p = ...` does */
    if (u->write || u->elem_write) note_host_write(w, u->var);
  }
}

/* A statement without tasks: host code all the way down. */
static void check_host(Walk *w, const Stmt *s) {
  for (int i = 0; i < s->ndirs; i++) {
    diag_error(s->dirs[i]->loc, "'%s' inside an 'omp single' region with tasks is not supported (task loops, "
                                "single tasks, taskwait and taskgroup are)",
               dir_name(s->dirs[i]->kind));
    w->ok = false;
    return;
  }
  check_host_own(w, s);
  for (int i = 0; i < s->nkids && w->ok; i++) check_host(w, s->kids[i]);
}

/* ---- stages ------------------------------------------------------------------------ */

/* The affine analysis takes items on different variables as different
 * memory. That holds for arrays, not for two pointers (y = x + 1): then
 * the host walk's addresses must decide whether the tasks conflict. */
static bool deps_may_alias(const TaskRegion *tr) {
  for (int i = 0; i < tr->ndeps; i++)
    for (int j = 0; j < i; j++)
      if (tr->deps[i].var != tr->deps[j].var &&
          (tr->deps[i].var->tkind != VT_ARRAY || tr->deps[j].var->tkind != VT_ARRAY))
        return true;
  return false;
}

/* s is a task statement (task directive at s->dirs[di]) or a task loop nest
 * of depth `depth` whose task statement is task. */
static void add_stage(Walk *w, Stmt *s, int depth, Stmt *task, int task_di) {
  Kernel *k = w->k;
  Kernel *sk = xcalloc(1, sizeof *sk);
  TaskRegion *tr = xcalloc(1, sizeof *tr);
  sk->tasks = tr;
  sk->shape = KS_TASKS;
  sk->id = k->id;
  sk->name = k->name;
  sk->outer = k->outer;
  sk->what = k->what;
  sk->stmt = sk->replace = s;
  sk->block = k->block;
  sk->phase_body = w->ph->body;
  tr->task = task->dirs[task_di];
  sk->dir = tr->task;
  sk->loc = tr->task->loc;
  sk->body = task;
  Stmt *l = s;
  for (int d = 0; d < depth; d++) {
    if (l->kind == ST_COMPOUND)
      for (int i = 0; i < l->nkids; i++)
        if (l->kids[i]->kind != ST_NULL) l = l->kids[i];
    sk->loops[d] = l->loop;
    sk->loop_stmts[d] = l;
    l = l->kids[0];
  }
  sk->collapse = depth;
  for (int d = 0; d < depth; d++) /* the host walk assigns these after the nest: later tasks read that */
    if (!sk->loops[d]->iv_declared) note_host_write(w, sk->loops[d]->iv);
  if (k->maps.n) { /* omp target map(...) of the region: the stage's data */
    sk->maps.m = xmalloc(sizeof *sk->maps.m * (size_t)k->maps.n);
    memcpy(sk->maps.m, k->maps.m, sizeof *sk->maps.m * (size_t)k->maps.n);
    sk->maps.n = sk->maps.cap = k->maps.n;
  }
  TaskStage st = {sk, s, depth ? s->begin : tr->task->loc.offset, false, false};
  VEC_PUSH(w->ph->stages, w->ph->nstages, w->ph->stages_cap, st); /* owned by the region from here on */
  if (depth) {
    const Directive *sa = xf_standalone_in(w->p, s->begin, task->begin);
    if (sa) {
      diag_error(sa->loc, "'%s' inside a task loop nest is not supported", dir_name(sa->kind));
      w->ok = false;
      return;
    }
  }
  if (!xf_task_stage(w->p, sk)) {
    w->ok = false;
    return;
  }
  w->ph->stages[w->ph->nstages - 1].self_indep = depth == 0 || (tr->affine && tr->cell.ndist == 0 && !deps_may_alias(tr));
  for (int i = 0; i < sk->maps.n; i++) { /* implicit maps of fixed-size arrays */
    bool dup = false;
    for (int j = 0; j < k->maps.n && !dup; j++) dup = k->maps.m[j].var == sk->maps.m[i].var;
    if (!dup) VEC_PUSH(k->maps.m, k->maps.n, k->maps.cap, sk->maps.m[i]);
  }
}

/* ---- the walk ---------------------------------------------------------------------- */

static void walk(Walk *w, Stmt *s, int di0) {
  for (int i = di0; i < s->ndirs; i++) {
    Directive *d = s->dirs[i];
    if (d->kind == DIR_OMP_TASK) {
      add_stage(w, s, 0, s, i);
      return;
    }
    if (d->kind == DIR_OMP_TASKGROUP) {
      TaskGroupMark g = {s, d};
      VEC_PUSH(w->ph->groups, w->ph->ngroups, w->ph->groups_cap, g);
      continue;
    }
    diag_error(d->loc, "'%s' inside an 'omp single' region with tasks is not supported (task loops, single tasks, "
                       "taskwait and taskgroup are)",
               dir_name(d->kind));
    w->ok = false;
    return;
  }
  Stmt *task = NULL; /* only taskgroups were left on s */
  int depth = xf_task_nest_depth(w->p, s, s->ndirs, &task);
  if (depth) {
    add_stage(w, s, depth, task, 0);
    return;
  }
  if (!xf_has_task(s)) {
    check_host_own(w, s);
    for (int i = 0; i < s->nkids && w->ok; i++) check_host(w, s->kids[i]);
    return;
  }
  check_host_own(w, s); /* a loop or if around tasks: its header is host code */
  for (int i = 0; i < s->nkids && w->ok; i++) walk(w, s->kids[i], 0);
}

static bool in_stage(const PhasedRegion *ph, unsigned off) {
  for (int i = 0; i < ph->nstages; i++)
    if (off >= ph->stages[i].begin && off < ph->stages[i].stmt->end) return true;
  return false;
}

static bool host_written(const Walk *w, const CVar *v) {
  for (int i = 0; i < w->nhost_writes; i++)
    if (w->host_writes[i] == v) return true;
  return false;
}

static void add_unique(CVar ***v, int *n, int *cap, CVar *x) {
  for (int i = 0; i < *n; i++)
    if ((*v)[i] == x) return;
  VEC_PUSH(*v, *n, *cap, x);
}

/* Captures of the stages: values set by the host code go to the snapshot,
 * the rest become the megakernel's parameters. */
static void split_captures(Walk *w, Stmt *body) {
  Kernel *k = w->k;
  PhasedRegion *ph = w->ph;
  for (int s = 0; s < ph->nstages; s++) {
    const Kernel *sk = ph->stages[s].k;
    for (int c = 0; c < sk->ncaps; c++) {
      const Capture *cap = &sk->caps[c];
      CVar *v = cap->var;
      bool local = !v->is_global && v->decl_offset >= body->begin && v->decl_offset < body->end;
      if (!local && !host_written(w, v)) {
        bool dup = false;
        for (int i = 0; i < k->ncaps && !dup; i++) dup = k->caps[i].var == v;
        if (!dup) VEC_PUSH(k->caps, k->ncaps, k->caps_cap, *cap);
        continue;
      }
      if (v->tkind == VT_ARRAY || v->tkind == VT_VLA_POINTER || cap->kind == CAP_DEVICEPTR) {
        diag_error(cap->loc, "'%s' is used by tasks but %s inside the task region; gtcc passes only scalars and plain "
                             "pointers from the region's host code to its tasks",
                   v->name, local ? "declared" : "assigned");
        w->ok = false;
        continue;
      }
      add_unique(&ph->snap, &ph->nsnap, &ph->snap_cap, v);
    }
  }
}

void xf_phased_region(Program *p, Kernel *k, Stmt *body, int body_di) {
  PhasedRegion *ph = k->phased;
  Walk w = {p, k, ph, NULL, 0, 0, true};
  ph->body = body;
  k->what = "omp task region";
  walk(&w, body, body_di);
  /* taskwaits of the block (those inside a task are the stage's error) */
  for (int i = 0; i < p->tu->ndirs && w.ok; i++) {
    Directive *d = p->tu->dirs[i];
    if (!(dir_flags(d->kind) & DF_STANDALONE) || d->loc.offset < body->begin || d->loc.offset >= body->end) continue;
    if (in_stage(ph, d->loc.offset)) continue;
    if (d->kind != DIR_OMP_TASKWAIT) {
      diag_error(d->loc, "'%s' inside an 'omp single' region with tasks is not supported", dir_name(d->kind));
      w.ok = false;
      break;
    }
    if (d->nclauses) {
      diag_error(d->loc, "clauses on 'omp taskwait' are not supported by gtcc");
      w.ok = false;
      break;
    }
    VEC_PUSH(ph->waits, ph->nwaits, ph->waits_cap, d);
  }
  if (w.ok && ph->nstages == 0) {
    diag_error(body->loc, "no task loop or task found under this 'omp single'");
    w.ok = false;
  }
  if (w.ok) split_captures(&w, body);
  free(w.host_writes);
  if (!w.ok) return;
  const XfOptions *o = &p->opts;
  bool inner = false;
  for (int s = 0; s < ph->nstages; s++) {
    const TaskRegion *tr = ph->stages[s].k->tasks;
    const ForLoop *L = tr->inner ? tr->inner->loop : NULL;
    inner |= L != NULL;
    ph->stages[s].narrow = !tr->tiled && (!L || (L->trip_is_const && L->trip_value <= 32));
  }
  ph->queue = o->task_queue;
  ph->worker = xf_task_worker(o, inner ? 0 : 32); /* a parallel loop in a task: the block runs it */
  k->body = body;
}
