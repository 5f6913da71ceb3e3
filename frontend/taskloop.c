/* `omp taskloop`: each iteration of the loop (of the collapsed nest) is a
 * task, and the construct waits for them at its end (an implicit taskgroup,
 * unless `nogroup`). gtcc states it as the task loops it already runs: the
 * loop body gets an `omp task` directive with the taskloop's data-sharing
 * clauses, and the taskloop directive stays on the loop as the taskgroup
 * (transform/phases.c). `grainsize` and `num_tasks` only size the tasks, which
 * gtcc makes one per iteration. */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "strbuf.h"

static Stmt *holder(Stmt *s, const Directive *d) {
  if (!s) return NULL;
  for (int i = 0; i < s->ndirs; i++)
    if (s->dirs[i] == d) return s;
  for (int i = 0; i < s->nkids; i++) {
    Stmt *h = holder(s->kids[i], d);
    if (h) return h;
  }
  return NULL;
}

/* The clauses a task takes from the taskloop. */
static bool task_clause(ClauseKind k) {
  return k == CL_IF || k == CL_FINAL || k == CL_UNTIED || k == CL_DEFAULT || k == CL_MERGEABLE ||
         k == CL_PRIVATE || k == CL_FIRSTPRIVATE || k == CL_SHARED || k == CL_PRIORITY;
}

/* The loop nest's body, after n perfectly nested canonical loops; NULL
 * (reported) otherwise. */
static Stmt *nest_body(Stmt *s, long long n, const Directive *d) {
  for (long long l = 0;; l++) {
    if (s->kind == ST_COMPOUND && l > 0) {
      int items = 0;
      Stmt *only = NULL;
      for (int i = 0; i < s->nkids; i++)
        if (s->kids[i]->kind != ST_NULL) only = s->kids[i], items++;
      if (items == 1) s = only;
    }
    if (s->kind != ST_FOR) {
      if (l) diag_error(s->loc, "'omp taskloop collapse(%lld)' needs %lld perfectly nested for loops", n, n);
      else diag_error(d->loc, "'omp taskloop' must be followed by a for loop");
      return NULL;
    }
    if (!s->loop || !s->loop->canonical) {
      diag_error(s->loop ? s->loop->why_loc : s->loc, "loop after 'omp taskloop' is not in canonical form: %s",
                 s->loop ? s->loop->why_not : "?");
      return NULL;
    }
    if (l + 1 == n) return s->kids[0];
    s = s->kids[0];
  }
}

static void lower_one(TranslationUnit *tu, int at) {
  Directive *d = tu->dirs[at];
  Stmt *s = NULL;
  for (int f = 0; f < tu->nfuncs && !s; f++) s = holder(tu->funcs[f]->body, d);
  if (!s) return; /* not attached: reported there */
  long long n = 1;
  const Clause *c = dir_find_clause(d, CL_COLLAPSE);
  if (c && (!fe_expr_int(&c->expr, &n) || n < 1 || n > 3)) {
    diag_error(c->loc, "'collapse' on 'omp taskloop' must be a constant from 1 to 3");
    return;
  }
  Stmt *body = nest_body(s, n, d);
  if (!body) return;
  Directive *task = xcalloc(1, sizeof *task);
  task->kind = DIR_OMP_TASK;
  task->loc = d->loc;
  task->end_offset = d->end_offset;
  int kept = 0, cap = 0;
  for (int i = 0; i < d->nclauses; i++) /* moved, not copied: each clause has one owner */
    if (task_clause(d->clauses[i].kind)) VEC_PUSH(task->clauses, task->nclauses, cap, d->clauses[i]);
    else d->clauses[kept++] = d->clauses[i];
  d->nclauses = kept;
  int bcap = body->ndirs;
  VEC_PUSH(body->dirs, body->ndirs, bcap, task);
  memmove(body->dirs + 1, body->dirs, sizeof *body->dirs * (size_t)(body->ndirs - 1)); /* the task comes first */
  body->dirs[0] = task;
  int dcap = tu->ndirs; /* owned by the unit, after the taskloop in file order */
  VEC_PUSH(tu->dirs, tu->ndirs, dcap, task);
  memmove(tu->dirs + at + 2, tu->dirs + at + 1, sizeof *tu->dirs * (size_t)(tu->ndirs - at - 2));
  tu->dirs[at + 1] = task;
}

void fe_lower_taskloops(TranslationUnit *tu) {
  for (int i = 0; i < tu->ndirs; i++)
    if (tu->dirs[i]->kind == DIR_OMP_TASKLOOP) lower_one(tu, i);
}
