/* The .gt.cu is CUDA C++: the names and types it gets from the C file must
 * compile there. It gets the file's type declarations, the kernel bodies,
 * the functions kernels call, and the variables kernels capture (their
 * names and types in kernel parameters). Reported here, each once: C++
 * keywords and CUDA's built-in variables used as names, and types it lacks: defined in a file-scope
 * variable's declaration (codegen does not copy it), or declared in a
 * function outside the copied code where that declaration cannot move to
 * the .gt.cu's file scope (Program.hoisted_types: those that can). */
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
  Program *p;
  unsigned begin, end; /* the source text copied with the kernel or function */
  Reported *done;
  int ndone, done_cap;
  Reported *moved; /* the names the moved type declarations declare */
  int nmoved, moved_cap;
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

/* CUDA's built-in variables: a variable of the same name in device code hides them from gtcc's
 * own index code. */
static bool is_cuda_builtin(const char *name) {
  static const char *const names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(names[i], name)) return true;
  return false;
}

static void check_ref(Checker *c, const NameRef *n, SrcLoc at);

/* The innermost statement of s that holds offset off, or NULL. */
static const Stmt *stmt_at(const Stmt *s, unsigned off) {
  if (!s || off < s->begin || off >= s->end) return NULL;
  for (int i = 0; i < s->nkids; i++) {
    const Stmt *k = stmt_at(s->kids[i], off);
    if (k) return k;
  }
  return s;
}

/* The declaration statement in a function body that declares the type or
 * enumerator at off, or NULL. */
static const Stmt *local_decl_stmt(const TranslationUnit *tu, unsigned off) {
  for (int i = 0; i < tu->nfuncs; i++) {
    const Function *f = tu->funcs[i];
    if (f->body && off >= f->begin && off < f->end) {
      const Stmt *s = stmt_at(f->body, off);
      return s && s->kind == ST_DECL ? s : NULL;
    }
  }
  return NULL;
}

static const char *untagged(const char *name) {
  static const char *const tags[] = {"struct ", "union ", "enum "};
  for (int i = 0; i < 3; i++)
    if (!strncmp(name, tags[i], strlen(tags[i]))) return name + strlen(tags[i]);
  return name;
}

/* Whether the main file declares name at file scope (a type, tag or enumerator). */
static bool file_scope_name(const TranslationUnit *tu, const char *name) {
  const char *bare = untagged(name);
  for (int i = 0; i < tu->ntops; i++)
    if (tu->tops[i].kind == TOP_TYPE && tu->tops[i].name && !strcmp(tu->tops[i].name, bare)) return true;
  for (int i = 0; i < tu->nenumerators; i++)
    if (!strcmp(tu->enumerators[i], bare)) return true;
  return false;
}

/* A type or enumerator declared in a function, used by copied code: its
 * declaration statement moves to the .gt.cu's file scope (the C file keeps
 * it where it is) when the statement declares no variable and reads none
 * (its text means the same there), and no other declaration at file scope or
 * moved from a function has the name. Else why not, for the error. */
static const char *move_local_type(Checker *c, const NameRef *n) {
  const TranslationUnit *tu = c->p->tu;
  const Stmt *s = local_decl_stmt(tu, n->decl_offset);
  if (!s) return "; declare it at file scope";
  if (s->ndecls || s->nuses || s->ncalls)
    return " in a declaration that also declares or reads variables; declare it in a declaration of its own, or at file scope";
  bool unnamed = strstr(n->name, "<unnamed>") != NULL;
  for (int i = 0; i < c->nmoved && !unnamed; i++)
    if (!strcmp(c->moved[i].name, n->name) && c->moved[i].decl_offset != n->decl_offset)
      return ", and another function declares the same name; rename one of them, or declare it once at file scope";
  if (!unnamed && file_scope_name(tu, n->name))
    return ", and the file declares the same name at file scope; rename one of them";
  for (int i = 0; i < c->p->nhoisted_types; i++)
    if (c->p->hoisted_types[i].begin == s->begin) return NULL; /* moved already */
  Reported r = {NR_LOCAL_TYPE, n->name, n->decl_offset};
  VEC_PUSH(c->moved, c->nmoved, c->moved_cap, r);
  OffsetRange range = {s->begin, s->end};
  VEC_PUSH(c->p->hoisted_types, c->p->nhoisted_types, c->p->hoisted_types_cap, range);
  /* what the moved declaration names moves (or is reported) too */
  unsigned begin = c->begin, end = c->end;
  c->begin = s->begin, c->end = s->end;
  for (int i = 0; i < s->nnames; i++) check_ref(c, &s->names[i], s->names[i].loc);
  c->begin = begin, c->end = end;
  return NULL;
}

static void check_ref(Checker *c, const NameRef *n, SrcLoc at) {
  const char *what = n->enumerator ? "enumerator" : "type", *whats = n->enumerator ? "enumerations" : "types";
  const char *why;
  switch (n->kind) {
  case NR_CXX_KEYWORD: report_keyword(c, n->name, n->decl_offset, at); break;
  case NR_LOCAL_TYPE:
    if (n->decl_offset >= c->begin && n->decl_offset < c->end) break; /* copied with the code */
    why = move_local_type(c, n);
    if (why && first_time(c, n->kind, n->name, n->decl_offset))
      diag_error(at, "%s '%s' used in an offload region is declared inside a function%s", what, n->name, why);
    break;
  case NR_C_ONLY:
    if (first_time(c, n->kind, n->name, n->decl_offset))
      diag_error(at, "'%s' is C that CUDA C++ has no form of: gtcc cannot compile it in device code", n->name);
    break;
  case NR_VLA_SIZEOF:
    if (first_time(c, n->kind, n->name, n->decl_offset))
      diag_error(at,
                 "sizeof of a variable-length array in device code: CUDA has no such type there (it would give a "
                 "pointer's size); write the size out (m * sizeof(double))");
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
  if (is_cuda_builtin(v->name) && first_time(c, NR_CXX_KEYWORD, v->name, v->decl_offset))
    diag_error(at, "'%s' is the name of a CUDA built-in variable; offload regions are compiled as CUDA C++: rename it",
               v->name);
  if (v->type_ref) check_ref(c, v->type_ref, at);
}

/* A variable-length array declared in device code: CUDA has none there. */
static void check_vla(const CVar *v) {
  if (v->is_vla)
    diag_error(v->loc, "'%s' is a variable-length array (%s) in device code, which CUDA does not have: give it a "
                       "constant size",
               v->name, v->vla_type ? v->vla_type : v->type);
}

/* `extern double g;` in a block of device code: copied there, it would name
 * the host's variable (nvcc: "identifier is undefined in device code"),
 * where gtcc passes the global's value or its device copy. */
static void check_block_extern(Checker *c, const Stmt *s, const CVar *v) {
  if (v->is_global && first_time(c, NR_C_ONLY, v->name, s->begin))
    diag_error(s->loc, "'%s' is declared extern inside code that runs on the device; declare it at file scope "
                       "only (gtcc gives device code the globals it uses)",
               v->name);
}

static void check_stmt(Checker *c, const Stmt *s) {
  for (int i = 0; i < s->nnames; i++) check_ref(c, &s->names[i], s->names[i].loc); /* at the type's spelling */
  for (int i = 0; i < s->nuses; i++) check_var(c, s->uses[i].var, s->uses[i].loc);
  for (int i = 0; i < s->ndecls; i++)
    check_var(c, s->decls[i], s->decls[i]->loc), check_vla(s->decls[i]), check_block_extern(c, s, s->decls[i]);
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
  for (int l = 0; l < k->collapse && l < 3 && !k->serial; l++) /* a serial kernel's is gtcc's own */
    if (k->loops[l] && k->loops[l]->iv) {
      check_var(c, k->loops[l]->iv, k->loops[l]->iv->loc);
      check_reserved(c, k->loops[l]->iv, k->loops[l]->iv->loc);
    }
  for (int i = 0; i < k->ncaps; i++) {
    const CVar *v = k->caps[i].var;
    check_var(c, v, k->caps[i].loc);
    if (strstr(v->type, ")(") && first_time(c, NR_C_ONLY, v->name, v->decl_offset)) /* `double (*f)(double)` */
      diag_error(k->caps[i].loc,
                 "'%s' holds function pointers from outside the region: host function addresses mean nothing on "
                 "the device; declare the table inside the region, or switch on an index",
                 v->name);
  }
  check_stmt(c, k->body);
  if (k->nested) {
    /* The context struct and the executor (inner loop, After) lie outside the parent kernel: a type that
     * Before declares must move to file scope too. Those of the inner loop and After are copied with them. */
    c->begin = k->nested->inner->begin, c->end = k->body->end;
    check_stmt(c, k->body);
    for (const Nested *n = k->nested; n; n = n->next) { /* every stage's context */
      for (int i = 0; i < n->nctx; i++) check_var(c, n->ctx[i], n->ctx[i]->loc);
      for (int i = 0; i < n->nreds; i++) check_var(c, n->reds[i].var, n->reds[i].var->loc);
      for (int i = 0; i < n->nprivs; i++) check_var(c, n->privs[i], n->privs[i]->loc);
    }
  }
}

static void check_function(Checker *c, const Function *f) {
  c->begin = f->begin, c->end = f->end;
  for (int i = 0; i < f->nparams; i++) check_var(c, f->params[i], f->params[i]->loc);
  if (f->body) check_stmt(c, f->body);
}

static int by_begin(const void *a, const void *b) {
  const OffsetRange *x = a, *y = b;
  return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* The generated host code calls the runtime (gtrt_*, GTRT_*) in the user's functions: a variable of
 * the file with such a name would hide it there. */
static void check_runtime_names(const TranslationUnit *tu) {
  for (int i = 0; i < tu->nvars; i++) {
    const CVar *v = tu->vars[i];
    if ((!strncmp(v->name, "gtrt_", 5) || !strncmp(v->name, "GTRT_", 5)) && v->loc.line > 0)
      diag_error(v->loc, "'%s': names starting with 'gtrt_' or 'GTRT_' are reserved for gtcc's runtime, which the "
                         "generated code calls; rename it",
                 v->name);
  }
}

void xf_check_names(Program *p) {
  Checker c = {p, 0, 0, NULL, 0, 0, NULL, 0, 0};
  const TranslationUnit *tu = p->tu;
  check_runtime_names(tu);
  for (int i = 0; i < tu->ntop_names; i++) check_ref(&c, &tu->top_names[i], tu->top_names[i].loc);
  for (int i = 0; i < p->nkernels; i++) check_kernel(&c, p->kernels[i]);
  for (int i = 0; i < p->ndevice_funcs; i++) check_function(&c, p->device_funcs[i]);
  if (p->nhoisted_types > 1) qsort(p->hoisted_types, (size_t)p->nhoisted_types, sizeof *p->hoisted_types, by_begin);
  free(c.done);
  free(c.moved);
}
