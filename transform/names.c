/* The .gt.cu is CUDA C++: the names and types it gets from the C file must
 * compile there. It gets the file's type declarations, the kernel bodies,
 * the functions kernels call, and the variables kernels capture (their
 * names and types in kernel parameters). Reported here, each once: C++
 * keywords used as names, and types it lacks: declared in a function
 * outside the copied code, or defined in a file-scope variable's
 * declaration (codegen copies neither). */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "lir.h"
#include "strbuf.h"

typedef struct Reported {
  NameRefKind kind;
  const char *name;
  unsigned decl_offset;
} Reported;

typedef struct Checker {
  unsigned begin, end; /* the source text copied with the kernel or function */
  Reported *done;
  int ndone, done_cap;
} Checker;

/* True the first time a declaration is seen, so that it is reported once. */
static bool first_time(Checker *c, NameRefKind kind, const char *name, unsigned decl_offset) {
  for (int i = 0; i < c->ndone; i++)
    if (c->done[i].kind == kind && c->done[i].decl_offset == decl_offset && !strcmp(c->done[i].name, name))
      return false;
  Reported r = {kind, name, decl_offset};
  VEC_PUSH(c->done, c->ndone, c->done_cap, r);
  return true;
}

static void report_keyword(Checker *c, const char *name, unsigned decl_offset, SrcLoc at) {
  if (first_time(c, NR_CXX_KEYWORD, name, decl_offset))
    diag_error(at, "'%s' is a C++ keyword; offload regions are compiled as CUDA C++: rename it", name);
}

static void check_ref(Checker *c, const NameRef *n, SrcLoc at) {
  const char *what = n->enumerator ? "enumerator" : "type", *whats = n->enumerator ? "enumerations" : "types";
  switch (n->kind) {
  case NR_CXX_KEYWORD: report_keyword(c, n->name, n->decl_offset, at); break;
  case NR_LOCAL_TYPE:
    if (n->decl_offset >= c->begin && n->decl_offset < c->end) break; /* copied with the code */
    if (first_time(c, n->kind, n->name, n->decl_offset))
      diag_error(at, "%s '%s' is declared inside a function; gtcc needs %s used in offload regions at file scope",
                 what, n->name, whats);
    break;
  case NR_C_ONLY:
    if (first_time(c, n->kind, n->name, n->decl_offset))
      diag_error(at, "'%s' is C that CUDA C++ has no form of: gtcc cannot compile it in device code", n->name);
    break;
  case NR_VLA_TYPE:
    if (first_time(c, n->kind, n->name, n->decl_offset))
      diag_error(at,
                 "the type '%s' has a run-time array size, which CUDA device code does not have: index the "
                 "pointer itself (p[i * m + j])",
                 n->name);
    break;
  case NR_VAR_TYPE:
    if (first_time(c, n->kind, n->name, n->decl_offset))
      diag_error(at,
                 "%s '%s' is defined in the declaration of a variable; gtcc needs %s used in offload regions "
                 "declared on their own at file scope",
                 what, n->name, whats);
    break;
  }
}

/* A variable whose name and type reach the .gt.cu; at: where the code uses it. */
static void check_var(Checker *c, const CVar *v, SrcLoc at) {
  if (fe_is_cxx_keyword(v->name)) report_keyword(c, v->name, v->decl_offset, at);
  if (v->type_ref) check_ref(c, v->type_ref, at);
}

/* A variable-length array declared in device code: CUDA has none there. */
static void check_vla(const CVar *v) {
  if (v->is_vla)
    diag_error(v->loc, "'%s' is a variable-length array (%s) in device code, which CUDA does not have: give it a "
                       "constant size",
               v->name, v->type);
}

static void check_stmt(Checker *c, const Stmt *s) {
  for (int i = 0; i < s->nnames; i++) check_ref(c, &s->names[i], s->names[i].loc); /* at the type's spelling */
  for (int i = 0; i < s->nuses; i++) check_var(c, s->uses[i].var, s->uses[i].loc);
  for (int i = 0; i < s->ndecls; i++) check_var(c, s->decls[i], s->decls[i]->loc), check_vla(s->decls[i]);
  for (int i = 0; i < s->nkids; i++) check_stmt(c, s->kids[i]);
}

/* gtcc's generated code names its own variables gt_* (gt_n0, gt_lo, gt_ctx,
 * ...) in the scopes of the user's: a user's name with that prefix in a
 * region could clash with them (in the .gt.cu or the host code around it). */
static void check_reserved(Checker *c, const CVar *v, SrcLoc at) {
  if (strncmp(v->name, "gt_", 3) || !first_time(c, NR_CXX_KEYWORD, v->name, v->decl_offset)) return;
  diag_error(at, "'%s': names starting with 'gt_' are reserved for the code gtcc generates; rename it", v->name);
}

static void check_reserved_stmt(Checker *c, const Stmt *s) {
  for (int i = 0; i < s->nuses; i++) check_reserved(c, s->uses[i].var, s->uses[i].loc);
  for (int i = 0; i < s->ndecls; i++) check_reserved(c, s->decls[i], s->decls[i]->loc);
  for (int i = 0; i < s->nkids; i++) check_reserved_stmt(c, s->kids[i]);
}

static void check_kernel(Checker *c, const Kernel *k) {
  if (k->body) check_reserved_stmt(c, k->body);
  if (k->phased) { /* the host runs the block under the single; the device its tasks */
    for (int s = 0; s < k->phased->nstages; s++) check_kernel(c, k->phased->stages[s].k);
    return;
  }
  if (!k->body) return; /* not lowered: its error is reported */
  c->begin = k->body->begin, c->end = k->body->end;
  for (int l = 0; l < k->collapse && l < 3; l++)
    if (k->loops[l] && k->loops[l]->iv) {
      check_var(c, k->loops[l]->iv, k->loops[l]->iv->loc);
      check_reserved(c, k->loops[l]->iv, k->loops[l]->iv->loc);
    }
  for (int i = 0; i < k->ncaps; i++) check_var(c, k->caps[i].var, k->caps[i].loc);
  check_stmt(c, k->body);
}

static void check_function(Checker *c, const Function *f) {
  c->begin = f->begin, c->end = f->end;
  for (int i = 0; i < f->nparams; i++) check_var(c, f->params[i], f->params[i]->loc);
  if (f->body) check_stmt(c, f->body);
}

void xf_check_names(Program *p) {
  Checker c = {0, 0, NULL, 0, 0};
  const TranslationUnit *tu = p->tu;
  for (int i = 0; i < tu->ntop_names; i++) check_ref(&c, &tu->top_names[i], tu->top_names[i].loc);
  for (int i = 0; i < p->nkernels; i++) check_kernel(&c, p->kernels[i]);
  for (int i = 0; i < p->ndevice_funcs; i++) check_function(&c, p->device_funcs[i]);
  free(c.done);
}
