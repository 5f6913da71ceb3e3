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

/* Library functions that reach no memory but through their arguments
 * (output of values, math): a call to one needs no split by itself; the
 * arrays and pointers its statement names still count as read. */
static bool plain_library_call(const char *name) {
  static const char *const names[] = {
      "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "putc", "fflush", "sqrt", "sqrtf", "fabs", "fabsf",
      "exp", "expf", "log", "logf", "log2", "log10", "pow", "powf", "fmax", "fmin", "fmaxf", "fminf", "floor",
      "ceil", "round", "sin", "cos", "tan", "atan", "atan2", "tanh", "abs", "labs", "llabs", "hypot", "cbrt", NULL};
  for (int i = 0; names[i]; i++)
    if (!strcmp(name, names[i])) return true;
  return false;
}

static bool is_pointerish(const CVar *v);

/* A function of this file that reaches no memory: no arrays or pointers,
 * no globals but const scalars, and calls only such functions. */
static bool pure_function(const Stmt *s, int depth) {
  if (depth > 8) return false;
  for (int i = 0; i < s->nuses; i++) {
    const CVar *v = s->uses[i].var;
    if (is_pointerish(v) || (v->is_global && !(v->is_const && v->tkind == VT_SCALAR))) return false;
  }
  for (int i = 0; i < s->ncalls; i++) {
    const CallUse *c = &s->calls[i];
    if (!plain_library_call(c->name) && !(c->def && c->def->body && pure_function(c->def->body, depth + 1)))
      return false;
  }
  for (int i = 0; i < s->nkids; i++)
    if (!pure_function(s->kids[i], depth)) return false;
  return true;
}

static bool is_std_stream(const CVar *v) {
  return v->is_global && (!strcmp(v->name, "stdout") || !strcmp(v->name, "stderr") || !strcmp(v->name, "stdin"));
}

static bool is_pointerish(const CVar *v) {
  return v->tkind == VT_ARRAY || v->tkind == VT_POINTER || v->tkind == VT_VLA_POINTER;
}

static void split_var(HostSplit *hs, CVar *v, bool write) {
  for (int i = 0; i < hs->nvars; i++)
    if (hs->vars[i].var == v) {
      hs->vars[i].write |= write;
      return;
    }
  struct SplitVar sv = {v, write};
  VEC_PUSH(hs->vars, hs->nvars, hs->vars_cap, sv);
}

static void split_why(HostSplit *hs, const char *name, SrcLoc loc, bool call) {
  if (hs->why_name) return;
  hs->why_name = name;
  hs->why_loc = loc;
  hs->why_call = call;
}

/* What the statement's own expressions (not its kids) need of the memory
 * the tasks use, added to hs: arrays and pointers read or written through;
 * with a call, every array or pointer it names (a callee may write through
 * them, unless it is a plain library function). */
static void host_needs(const Walk *w, const Stmt *s, HostSplit *hs) {
  bool call = false;
  for (int i = 0; i < s->ncalls; i++) {
    const CallUse *c = &s->calls[i];
    call = true;
    if (plain_library_call(c->name) || (c->def && c->def->body && pure_function(c->def->body, 0))) continue;
    hs->opaque_call = true;
    split_why(hs, s->calls[i].name, s->calls[i].loc, true);
  }
  for (int i = 0; i < s->nuses; i++) {
    const VarUse *u = &s->uses[i];
    if (!is_pointerish(u->var) || is_std_stream(u->var)) continue;
    bool through = !address_of_element(w->p, u) && (u->elem_write || use_derefs(w->p, u));
    if (!through && !call) continue;
    split_var(hs, u->var, hs->opaque_call || u->elem_write || xf_unary_before(w->p->tu->file->text, u->loc.offset, '*'));
    split_why(hs, u->var->name, u->loc, false);
  }
}

/* `p.k = ...` changes the struct p as much as `p = ...` does; `x[i] = ...`
 * does not change the pointer x (a split brings its memory back). */
static void note_writes(Walk *w, const Stmt *s) {
  for (int i = 0; i < s->nuses; i++) {
    const VarUse *u = &s->uses[i];
    if (u->write || (u->elem_write && !is_pointerish(u->var))) note_host_write(w, u->var);
  }
}

static bool no_jump_out(Walk *w, const Stmt *s) {
  if (s->kind != ST_RETURN && s->kind != ST_GOTO) return true;
  diag_error(s->loc, "'%s' out of an 'omp single' region with tasks is not supported",
             s->kind == ST_RETURN ? "return" : "goto");
  w->ok = false;
  return false;
}

/* ---- headers of loops and ifs around tasks ---------------------------------------- */

/* Skips spaces and comments from at. */
static size_t skip_blank(const char *t, size_t len, size_t at) {
  for (;;) {
    while (at < len && isspace((unsigned char)t[at])) at++;
    if (at + 1 < len && t[at] == '/' && t[at + 1] == '/') {
      while (at < len && t[at] != '\n') at++;
    } else if (at + 1 < len && t[at] == '/' && t[at + 1] == '*') {
      const char *e = strstr(t + at + 2, "*/");
      at = e ? (size_t)(e - t) + 2 : len;
    } else {
      return at;
    }
  }
}

/* The parenthesized text at `at` (after blanks): open and close are the
 * offsets of its '(' and ')'; semi[0..1] the first two ';' at depth 1. */
static bool paren_at(const char *t, size_t len, size_t at, size_t *open, size_t *close, size_t semi[2]) {
  at = skip_blank(t, len, at);
  if (at >= len || t[at] != '(') return false;
  *open = at;
  int depth = 0, nsemi = 0;
  for (; at < len; at++) {
    char c = t[at];
    if (c == '"' || c == '\'') { /* a literal: skip it */
      for (at++; at < len && t[at] != c; at++)
        if (t[at] == '\\') at++;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') depth++;
    else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
      *close = at;
      return c == ')';
    } else if (c == ';' && depth == 1 && nsemi < 2) semi[nsemi++] = (unsigned)at;
  }
  return false;
}

static bool keyword_at(const char *t, size_t len, size_t at, const char *kw) {
  size_t n = strlen(kw);
  return at + n <= len && !strncmp(t + at, kw, n) && (at + n == len || !(isalnum((unsigned char)t[at + n]) || t[at + n] == '_'));
}

static void split_in(HostSplit *hs, const char *t, size_t begin, size_t end) {
  if (skip_blank(t, end, begin) >= end) return; /* an empty for clause: nothing to evaluate */
  hs->in[hs->nin].begin = (unsigned)begin;
  hs->in[hs->nin].end = (unsigned)end;
  hs->nin++;
}

/* Where the split code goes in the header of s: for `while (c)`, `if (c)`,
 * `switch (c)` and `do ... while (c)` in front of c; for a for loop before
 * the statement (its init) and in front of the condition and increment,
 * so that they see the tasks' data every time they run. */
static bool header_places(const Walk *w, const Stmt *s, HostSplit *hs) {
  const char *t = w->p->tu->file->text;
  size_t len = s->end, open, close, semi[2] = {0, 0};
  static const struct { StmtKind kind; const char *kw; } kws[] = {
      {ST_WHILE, "while"}, {ST_IF, "if"}, {ST_SWITCH, "switch"}, {ST_FOR, "for"}};
  if (s->kind == ST_DO) {
    if (!s->nkids) return false;
    size_t at = skip_blank(t, len, s->kids[0]->end);
    if (!keyword_at(t, len, at, "while") || !paren_at(t, len, at + 5, &open, &close, semi)) return false;
    split_in(hs, t, open + 1, close);
    return hs->nin == 1;
  }
  for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++) {
    if (s->kind != kws[i].kind) continue;
    size_t at = s->begin;
    if (!keyword_at(t, len, at, kws[i].kw) || !paren_at(t, len, at + strlen(kws[i].kw), &open, &close, semi))
      return false;
    if (s->kind != ST_FOR) {
      split_in(hs, t, open + 1, close);
      return hs->nin == 1;
    }
    if (!semi[1]) return false;
    hs->before = true;
    split_in(hs, t, semi[0] + 1, semi[1]);
    split_in(hs, t, semi[1] + 1, close);
    return true;
  }
  return false;
}

/* The header of a loop or if around tasks runs on the host between tasks,
 * on every iteration: where it needs the tasks' data, the split goes into
 * it (header_places). */
static void check_header(Walk *w, Stmt *s) {
  HostSplit hs = {0};
  hs.stmt = s;
  hs.stage = -1;
  host_needs(w, s, &hs);
  if (hs.why_name) {
    if (!header_places(w, s, &hs)) {
      diag_error(hs.why_loc, "%s '%s' in this header is not supported: gtcc cannot place a split of the task region "
                             "here (compute the value into a variable in a statement of its own)",
                 hs.why_call ? "call to" : "memory access through", hs.why_name);
      w->ok = false;
      free(hs.vars);
      return;
    }
    hs.wrap = hs.before && (!s->parent || s->parent->kind != ST_COMPOUND);
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
  host_needs(w, s, hs);
  note_writes(w, s);
  for (int i = 0; i < s->nkids && w->ok; i++) scan_host(w, s->kids[i], 0, hs);
}

/* A host statement between tasks. When it needs the tasks' data, the
 * region is split before it; an if whose condition needs nothing is split
 * only in the branch that does. */
static void host_statement(Walk *w, Stmt *s, int di0) {
  HostSplit hs = {0};
  hs.stmt = s;
  hs.stage = -1;
  hs.before = true;
  hs.wrap = !s->parent || s->parent->kind != ST_COMPOUND;
  if (s->kind == ST_IF && s->ndirs <= di0) {
    HostSplit own = {0};
    host_needs(w, s, &own);
    free(own.vars);
    if (!own.why_name) {
      note_writes(w, s);
      for (int i = 0; i < s->nkids && w->ok; i++) host_statement(w, s->kids[i], 0);
      return;
    }
  }
  scan_host(w, s, di0, &hs);
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
        if (sk->caps[c].var->is_global && is_pointerish(sk->caps[c].var)) split_var(hs, sk->caps[c].var, true);
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
  HostSplit hs = {0}; /* the nest's loop headers are host code */
  hs.stmt = s;
  hs.stage = w->ph->nstages;
  hs.before = hs.wrap = true;
  for (int d = 0; d < depth; d++) host_needs(w, sk->loop_stmts[d], &hs);
  if (hs.why_name) VEC_PUSH(w->ph->splits, w->ph->nsplits, w->ph->splits_cap, hs);
  else free(hs.vars);
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
