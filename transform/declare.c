/* OpenACC `declare`: data whose device copy lives as long as the variables.
 *
 * At file scope (globals: create, copyin, device_resident, link) the device
 * copy is entered once, when the file's first construct runs, and stays for
 * the rest of the program (codegen: gt_declares). In a function (create,
 * copyin, copyout, copy, present, device_resident) it is a data region from
 * the directive to the end of its block: the exits run at the block's end
 * and before each `return` below the directive. Either way, regions that use
 * the variables find them present (xf_has_mapping) and use the device copy. */
#include <string.h>

#include "frontend.h"
#include "lir.h"

static bool file_scope_clause(ClauseKind k) {
  return k == CL_CREATE || k == CL_COPYIN || k == CL_DEVICE_RESIDENT || k == CL_LINK;
}

/* The innermost compound statement of fn around offset. */
static Stmt *block_at(Stmt *s, unsigned offset) {
  if (s->begin > offset || s->end <= offset) return NULL;
  for (int i = 0; i < s->nkids; i++) {
    Stmt *in = block_at(s->kids[i], offset);
    if (in) return in;
  }
  return s->kind == ST_COMPOUND ? s : NULL;
}

static void collect_returns(Declare *dc, const Stmt *s) {
  if (s->kind == ST_RETURN) VEC_PUSH(dc->returns, dc->nreturns, dc->returns_cap, s);
  for (int i = 0; i < s->nkids; i++) collect_returns(dc, s->kids[i]);
}

/* A jump that leaves the scope other than return (which runs the exits):
 * a goto to a label outside the block, or a break / continue of a loop or
 * switch around it. */
static const Stmt *jump_out(const char *text, const Stmt *block, const Stmt *s, bool in_loop, bool in_switch) {
  if ((s->kind == ST_BREAK && !in_loop && !in_switch) || (s->kind == ST_CONTINUE && !in_loop)) return s;
  if (s->kind == ST_GOTO && !xf_goto_stays_in(text, block, s)) return s;
  bool loop = in_loop || s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO;
  for (int i = 0; i < s->nkids; i++) {
    const Stmt *j = jump_out(text, block, s->kids[i], loop, in_switch || s->kind == ST_SWITCH);
    if (j) return j;
  }
  return NULL;
}

static void function_scope(Program *p, Declare *dc, const Function *fn) {
  const Directive *d = dc->dir;
  for (int c = 0; c < d->nclauses; c++)
    if (d->clauses[c].kind == CL_DEVICEPTR || d->clauses[c].kind == CL_LINK)
      diag_error(d->clauses[c].loc, "'%s' on 'acc declare' is not supported by gtcc", clause_spelling(d->clauses[c].kind));
  dc->block = block_at(fn->body, d->loc.offset);
  if (!dc->block) return; /* cannot happen: the body is a compound statement */
  const char *text = p->tu->file->text;
  for (int i = 0; i < dc->block->nkids; i++) {
    const Stmt *s = dc->block->kids[i];
    if (s->begin < d->end_offset) continue;
    const Stmt *j = jump_out(text, dc->block, s, false, false);
    if (j) {
      static const char *const names[] = {[ST_GOTO] = "goto", [ST_BREAK] = "break", [ST_CONTINUE] = "continue"};
      diag_error(j->loc, "'%s' leaves the scope of the 'acc declare' at line %d without its data exits; restructure "
                         "the code",
                 names[j->kind], d->loc.line);
      return;
    }
    collect_returns(dc, s);
  }
  for (int r = 0; r < dc->nreturns; r++)
    if (!xf_word_at(text, p->tu->file->len, dc->returns[r]->begin, "return"))
      diag_error(dc->returns[r]->loc, "a 'return' written by a macro in the scope of the 'acc declare' at line %d: "
                                      "gtcc puts the data exits before each return; write the return out",
                 d->loc.line);
}

static void file_scope(Declare *dc) {
  const Directive *d = dc->dir;
  for (int c = 0; c < d->nclauses; c++)
    if (!file_scope_clause(d->clauses[c].kind))
      diag_error(d->clauses[c].loc, "'%s' on 'acc declare' at file scope: only create, copyin, device_resident and "
                                    "link are allowed there",
                 clause_spelling(d->clauses[c].kind));
  for (int i = 0; i < dc->maps.n; i++) {
    const DataMap *m = &dc->maps.m[i];
    if (m->member)
      diag_error(m->loc, "'%s%s' is a struct member: a file-scope 'acc declare' maps variables; use 'acc enter "
                         "data' for a member's data",
                 m->var->name, m->member);
    else if (m->var->tkind == VT_POINTER || m->var->tkind == VT_VLA_POINTER)
      diag_error(m->loc, "'%s' is a pointer: a file-scope 'acc declare' maps its data once, before the program "
                         "allocates it; use 'acc enter data' after the allocation",
                 m->var->name);
  }
}

void xf_declares(Program *p) {
  for (int i = 0; i < p->tu->ndirs; i++) {
    Directive *d = p->tu->dirs[i];
    if (d->kind != DIR_ACC_DECLARE) continue;
    Declare *dc = xcalloc(1, sizeof *dc);
    dc->dir = d;
    xf_directive_maps(p, d, &dc->maps);
    if (d->nclauses == 0)
      diag_error(d->loc, "'acc declare' needs at least one data clause");
    const Function *fn = fe_function_at(p->tu, d->loc.offset);
    if (fn) function_scope(p, dc, fn);
    else file_scope(dc);
    VEC_PUSH(p->declares, p->ndeclares, p->declares_cap, dc);
  }
}

/* A declare in offload code would map data from the device. */
void xf_check_declares(const Program *p) {
  for (int i = 0; i < p->ndeclares; i++) {
    const Directive *d = p->declares[i]->dir;
    for (int k = 0; k < p->nkernels; k++) {
      const Stmt *s = p->kernels[k]->stmt;
      if (s && d->loc.offset > s->begin && d->loc.offset < s->end)
        diag_error(d->loc, "'acc declare' inside the '%s' region at line %d: declare the data before the construct",
                   p->kernels[k]->what, p->kernels[k]->loc.line);
    }
    for (int f = 0; f < p->ndevice_funcs; f++) {
      const Function *fn = p->device_funcs[f];
      if (fn->body && d->loc.offset > fn->body->begin && d->loc.offset < fn->body->end)
        diag_error(d->loc, "'acc declare' in function '%s', which offload code calls: the device cannot map data",
                   fn->name);
    }
  }
}

bool xf_declared_at(const Program *p, const CVar *v, unsigned offset) {
  for (int i = 0; i < p->ndeclares; i++) {
    const Declare *dc = p->declares[i];
    if (dc->block && (offset < dc->dir->end_offset || offset >= dc->block->end)) continue;
    for (int m = 0; m < dc->maps.n; m++)
      if (xf_maps_var(&dc->maps.m[m], v)) return true;
  }
  return false;
}

bool xf_has_file_declares(const Program *p) {
  for (int i = 0; i < p->ndeclares; i++)
    if (!p->declares[i]->block) return true;
  return false;
}
