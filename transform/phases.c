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
 * one megakernel. Variables whose value the host code sets and the tasks
 * read travel in a per-instance snapshot.
 *
 * Host code that needs what the tasks wrote (it reads or writes through
 * an array or pointer, or calls a function) splits the region: before
 * that statement the tasks recorded so far run to completion and the data
 * it names comes back to the host (HostSplit). In the header of a loop or
 * if around tasks the split goes into the condition: (split, cond). */
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

static void note_host_write(Walk *w, CVar *v) {
  for (int i = 0; i < w->nhost_writes; i++)
    if (w->host_writes[i] == v) return;
  VEC_PUSH(w->host_writes, w->nhost_writes, w->host_writes_cap, v);
}

/* `p.k = ...` changes the struct p as much as `p = ...` does; `x[i] = ...`
 * does not change the pointer x (a split brings its memory back). */
static void note_writes(Walk *w, const Stmt *s) {
  for (int i = 0; i < s->nuses; i++) {
    const VarUse *u = &s->uses[i];
    if (u->write || (u->elem_write && !xf_pointerish(u->var))) note_host_write(w, u->var);
  }
}

static bool no_jump_out(Walk *w, const Stmt *s) {
  if (s->kind != ST_RETURN && s->kind != ST_GOTO) return true;
  diag_error(s->loc, "'%s' out of an 'omp single' region with tasks is not supported",
             s->kind == ST_RETURN ? "return" : "goto");
  w->ok = false;
  return false;
}

static bool in_block(const Stmt *s) { return s->parent && s->parent->kind == ST_COMPOUND; }

/* A split at s (stage: the stage whose nest s is, or -1); before: the
 * split code goes in front of s, in braces where s is not an item of a
 * block (a branch or loop body). */
static HostSplit split_at(const Stmt *s, int stage, bool before) {
  HostSplit hs = {0};
  hs.stmt = s;
  hs.stage = stage;
  hs.before = before;
  hs.wrap = before && !in_block(s);
  return hs;
}

/* The header of a loop or if around tasks runs on the host between tasks,
 * on every iteration: where it needs the tasks' data, the split goes into
 * it (header_places). */
static void check_header(Walk *w, Stmt *s) {
  HostSplit hs = split_at(s, -1, false);
  xf_host_needs(w->p, w->ph->body, s, &hs);
  xf_split_outer_only(s, &hs);
  if (hs.why_name) {
    if (!xf_header_places(w->p, s, &hs)) {
      diag_error(hs.why_loc, "%s '%s' in this header is not supported: gtcc cannot place a split of the task region "
                             "here (compute the value into a variable in a statement of its own)",
                 hs.why_call ? "call to" : "memory access through", hs.why_name);
      w->ok = false;
      free(hs.vars);
      return;
    }
    hs.wrap = hs.before && !in_block(s); /* a for's init: before it */
    VEC_PUSH(w->ph->splits, w->ph->nsplits, w->ph->splits_cap, hs);
  } else {
    free(hs.vars);
  }
  note_writes(w, s);
}

/* A statement without tasks, kids included, into hs; its directives from
 * di0 on (those before are the walk's: taskgroup). */
static void scan_host(Walk *w, const Stmt *s, int di0, HostSplit *hs) {
  for (int i = di0; i < s->ndirs; i++) {
    diag_error(s->dirs[i]->loc, "'%s' inside an 'omp single' region with tasks is not supported (task loops, "
                                "single tasks, taskwait and taskgroup are)",
               dir_name(s->dirs[i]->kind));
    w->ok = false;
    return;
  }
  if (!no_jump_out(w, s)) return;
  xf_host_needs(w->p, w->ph->body, s, hs);
  note_writes(w, s);
  for (int i = 0; i < s->nkids && w->ok; i++) scan_host(w, s->kids[i], 0, hs);
}

/* A host statement between tasks. When it needs the tasks' data, the
 * region is split before it; an if whose condition needs nothing is split
 * only in the branch that does. */
static void host_statement(Walk *w, Stmt *s, int di0) {
  HostSplit hs = split_at(s, -1, true);
  if (s->kind == ST_IF && s->ndirs <= di0) {
    HostSplit own = {0};
    xf_host_needs(w->p, w->ph->body, s, &own);
    free(own.vars);
    if (!own.why_name) {
      note_writes(w, s);
      for (int i = 0; i < s->nkids && w->ok; i++) host_statement(w, s->kids[i], 0);
      return;
    }
  }
  scan_host(w, s, di0, &hs);
  xf_split_outer_only(s, &hs);
  if (w->ok && hs.why_name) VEC_PUSH(w->ph->splits, w->ph->nsplits, w->ph->splits_cap, hs);
  else free(hs.vars);
}

/* A call the tasks cannot see may also reach the globals they use. */
static void add_globals_to_calls(PhasedRegion *ph) {
  for (int i = 0; i < ph->nsplits; i++) {
    HostSplit *hs = &ph->splits[i];
    if (!hs->opaque_call) continue;
    for (int s = 0; s < ph->nstages; s++) {
      const Kernel *sk = ph->stages[s].k;
      for (int c = 0; c < sk->ncaps; c++)
        if (sk->caps[c].var->is_global && xf_pointerish(sk->caps[c].var)) xf_split_var(hs, sk->caps[c].var, true);
    }
  }
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

/* The nest's loop headers and its depend items are host code: when they
 * read memory (a bound cnt[0], an item u[perm[k]]), the region is split
 * before the stage. */
static void stage_split(Walk *w, const Stmt *s, const Kernel *sk, int si) {
  const TaskRegion *tr = sk->tasks;
  HostSplit hs = split_at(s, si, true); /* in the stage's record (emit_phases.c) */
  for (int d = 0; d < sk->collapse; d++) xf_host_needs(w->p, w->ph->body, sk->loop_stmts[d], &hs);
  xf_split_outer_only(s, &hs);
  for (int i = 0; i < tr->ndeps && !hs.all; i++) /* the walk computes the items: u[perm[k]] reads perm */
    for (int j = 0; j < tr->deps[i].item->nsubs; j++)
      if (xf_text_reads_memory(w->p, tr->deps[i].item->subs[j].lo.text)) {
        hs.all = true;
        if (!hs.why_name)
          hs.why_name = tr->deps[i].var->name, hs.why_loc = tr->deps[i].item->loc,
          hs.why_item = tr->deps[i].item->subs[j].lo.text;
        break;
      }
  if (hs.why_name) VEC_PUSH(w->ph->splits, w->ph->nsplits, w->ph->splits_cap, hs);
  else free(hs.vars);
}

/* A type whose arithmetic is that of the integers until it overflows
 * (signed int, short, long, long long; const allowed): no unsigned wrap
 * breaks the linear form. */
static bool signed_int_type(const char *type) {
  static const char *const ok[] = {"const", "signed", "int", "long", "short"};
  for (const char *c = type; *c;) {
    while (*c == ' ') c++;
    const char *e = c;
    while (*e && *e != ' ') e++;
    if (e == c) break;
    bool known = false;
    for (size_t i = 0; i < sizeof ok / sizeof *ok && !known; i++)
      known = strlen(ok[i]) == (size_t)(e - c) && !strncmp(ok[i], c, (size_t)(e - c));
    if (!known) return false;
    c = e;
  }
  return true;
}

typedef struct SymCheck {
  const Program *p;
  unsigned offset;
} SymCheck;

static bool name_in(char *const *names, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(names[i], name)) return true;
  return false;
}

/* A symbol of a linear subscript: a signed integer variable, which nothing
 * in a perfect nest's walk assigns, or an enumeration constant of the file
 * (Jacobi's `part[b*NSL]`); not a macro, whose text may hide the loop
 * variable (a macro of an enumerator's name, in any file, replaces it). */
static bool sym_is_int_var(const char *name, void *arg) {
  const SymCheck *sc = arg;
  const CVar *v = xf_lookup_var(sc->p, name, sc->offset);
  if (v) return v->tkind == VT_SCALAR && !v->is_float && signed_int_type(v->type);
  const TranslationUnit *tu = sc->p->tu;
  return name_in(tu->enumerators, tu->nenumerators, name) && !name_in(tu->macros, tu->nmacros, name);
}

/* The stage is one loop with a signed loop variable and each depend
 * address &x[s0]...[sk] is affine in it: x a pointer indexed once, or an
 * array (constant or variable dimensions) indexed at most its rank, each
 * subscript linear (td_linear_in_ivs). Then the addresses step by a
 * constant and two tasks give the strides. */
static bool items_linear(const Program *p, const Kernel *sk) {
  const TaskRegion *tr = sk->tasks;
  if (sk->collapse != 1 || !signed_int_type(sk->loops[0]->iv->type)) return false;
  const char *iv = sk->loops[0]->iv->name;
  for (int i = 0; i < tr->ndeps; i++) {
    const CVar *v = tr->deps[i].var;
    const VarItem *it = tr->deps[i].item;
    int rank = v->tkind == VT_POINTER ? 1 : v->tkind == VT_ARRAY ? v->ndims : v->tkind == VT_VLA_POINTER ? v->ndims + 1 : 0;
    if (it->nsubs < 1 || it->nsubs > rank) return false;
    SymCheck sc = {p, it->loc.offset};
    for (int s = 0; s < it->nsubs; s++)
      if (!td_linear_in_ivs(it->subs[s].lo.text, &iv, 1, sym_is_int_var, &sc)) return false;
  }
  return true;
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
  TaskStage st = {sk, s, depth ? s->begin : tr->task->loc.offset, false, false, false, NULL};
  for (const Stmt *up = s->parent; !depth && up && up != w->ph->body->parent; up = up->parent)
    if (up->kind == ST_FOR) { /* the loop the task is in */
      if (up->loop && !up->loop->canonical) st.host_loop = up;
      break;
    }
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
  stage_split(w, s, sk, w->ph->nstages - 1);
  w->ph->stages[w->ph->nstages - 1].self_indep = depth == 0 || (tr->affine && tr->cell.ndist == 0 && !deps_may_alias(tr));
  w->ph->stages[w->ph->nstages - 1].linear_items = items_linear(w->p, sk);
  for (int i = 0; i < sk->maps.n; i++) { /* implicit maps of fixed-size arrays */
    bool dup = false;
    for (int j = 0; j < k->maps.n && !dup; j++) dup = xf_same_map_item(&k->maps.m[j], &sk->maps.m[i]);
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
    if (d->kind == DIR_OMP_TASKGROUP || d->kind == DIR_OMP_TASKLOOP) {
      static const ClauseKind unsupported[] = {CL_REDUCTION, CL_LASTPRIVATE};
      for (size_t u = 0; u < sizeof unsupported / sizeof *unsupported; u++) {
        const Clause *c = dir_find_clause(d, unsupported[u]);
        if (c) {
          diag_error(c->loc, "clause '%s' on 'omp taskloop' is not supported by gtcc", clause_spelling(c->kind));
          w->ok = false;
          return;
        }
      }
      TaskGroupMark g = {s, d, !dir_find_clause(d, CL_NOGROUP)};
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
    host_statement(w, s, s->ndirs);
    return;
  }
  check_header(w, s); /* a loop or if around tasks: its header is host code */
  for (int i = 0; i < s->nkids && w->ok; i++) walk(w, s->kids[i], 0);
}

static bool in_stage(const PhasedRegion *ph, unsigned off) {
  for (int i = 0; i < ph->nstages; i++)
    if (off >= ph->stages[i].begin && off < ph->stages[i].stmt->end) return true;
  return false;
}

/* The first use of v by the region's host code (outside every task), or NULL. */
static const VarUse *host_use(const PhasedRegion *ph, const Stmt *s, const CVar *v) {
  for (int i = 0; i < s->nuses; i++)
    if (s->uses[i].var == v && !in_stage(ph, s->uses[i].loc.offset)) return &s->uses[i];
  for (int i = 0; i < s->nkids; i++) {
    const VarUse *u = host_use(ph, s->kids[i], v);
    if (u) return u;
  }
  return NULL;
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
      bool local = xf_is_local(body, v);
      const VarUse *hu = cap->kind == CAP_SHARED ? host_use(ph, body, v) : NULL;
      if (hu && cap->via_fn) { /* the functions use the one device copy, made when the region starts */
        if (hu->write || hu->elem_write || cap->fn_writes) {
          diag_error(hu->loc, "'%s' is a global that '%s', which the tasks call, uses (line %d), and the region's host "
                              "code %s it here: device functions use one device copy of a global for the whole "
                              "region; pass the value to '%s' as a parameter",
                     v->name, cap->via_fn->name, cap->loc.line, hu->write || hu->elem_write ? "writes" : "reads",
                     cap->via_fn->name);
          w->ok = false;
          continue;
        }
      } else if (hu) { /* tasks get a copy of what the host code sets, and the host code would read a stale copy */
        diag_error(hu->loc, "'%s' is updated atomically by the tasks (first used at line %d) and %s by the region's "
                            "host code here: gtcc keeps such a scalar on the device until the region ends; keep the "
                            "value in an element of a mapped array (%s_arr[0]) instead",
                   v->name, cap->loc.line, hu->write ? "assigned" : "used", v->name);
        w->ok = false;
        continue;
      }
      if (!local && !host_written(w, v)) {
        bool dup = false;
        for (int i = 0; i < k->ncaps && !dup; i++) dup = k->caps[i].var == v;
        if (!dup) VEC_PUSH(k->caps, k->ncaps, k->caps_cap, *cap);
        continue;
      }
      if (v->tkind == VT_ARRAY || cap->kind == CAP_DEVICEPTR) {
        diag_error(cap->loc, "'%s' is used by tasks but %s inside the task region; gtcc passes only scalars and "
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
  if (w.ok) add_globals_to_calls(ph);
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
