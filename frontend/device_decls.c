/* Declarative directives: `acc routine` and `omp declare target`.
 *
 * gtcc compiles every function that device code calls for the device
 * whether or not it is marked (transform/devfuncs.c), so these directives
 * change one thing: a function they mark may hold loop directives of its
 * own (`acc loop vector` in an `acc routine vector`), which then run
 * sequentially in the thread that calls the function. This pass checks
 * where the directives stand, pairs the `declare target` blocks and sets
 * Function.device_marked. */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "strbuf.h"

/* Marks every declaration and definition of name. */
static void mark_named(TranslationUnit *tu, const char *name) {
  for (int i = 0; i < tu->nfuncs; i++)
    if (!strcmp(tu->funcs[i]->name, name)) tu->funcs[i]->device_marked = true;
}

static void mark_items(TranslationUnit *tu, const VarItem *items, int n) {
  for (int i = 0; i < n; i++) mark_named(tu, items[i].name);
}

/* `acc routine` without a name applies to the function declared or
 * defined next at file scope. */
static void routine_here(TranslationUnit *tu, const Directive *d) {
  if (fe_function_at(tu, d->loc.offset)) return; /* a block-scope prototype: nothing to check */
  const TopDecl *next = NULL;
  for (int i = 0; i < tu->ntops && !next; i++)
    if (tu->tops[i].begin >= d->end_offset && tu->tops[i].kind != TOP_INCLUDE && tu->tops[i].kind != TOP_MACRO &&
        tu->tops[i].kind != TOP_LAYOUT)
      next = &tu->tops[i];
  if (!next || next->kind != TOP_FUNC) {
    diag_error(d->loc, "'acc routine' must be followed by a function declaration or definition (or name one: "
                       "'acc routine(f) seq')");
    return;
  }
  mark_named(tu, next->name);
}

void fe_mark_device_functions(TranslationUnit *tu) {
  const Directive **open = NULL; /* the declare target blocks open at this point */
  int nopen = 0, capopen = 0;
  for (int i = 0; i < tu->ndirs; i++) {
    Directive *d = tu->dirs[i];
    if (d->kind == DIR_ACC_ROUTINE) {
      if (d->nnames) mark_items(tu, d->names, d->nnames);
      else routine_here(tu, d);
      const Clause *bind = dir_find_clause(d, CL_BIND);
      if (bind)
        diag_warning(bind->loc, "'bind' is ignored by gtcc: device code calls the function itself");
    } else if (d->kind == DIR_OMP_DECLARE_TARGET &&
               (d->nnames || dir_find_clause(d, CL_TO) || dir_find_clause(d, CL_ENTER) ||
                dir_find_clause(d, CL_LINK))) {
      mark_items(tu, d->names, d->nnames);
      for (int c = 0; c < d->nclauses; c++)
        if (d->clauses[c].kind == CL_TO || d->clauses[c].kind == CL_ENTER)
          mark_items(tu, d->clauses[c].items, d->clauses[c].nitems);
    } else if (d->kind == DIR_OMP_DECLARE_TARGET || d->kind == DIR_OMP_BEGIN_DECLARE_TARGET) {
      VEC_PUSH(open, nopen, capopen, d);
    } else if (d->kind == DIR_OMP_END_DECLARE_TARGET) {
      if (!nopen) {
        diag_error(d->loc, "'omp end declare target' without an 'omp declare target' before it");
        continue;
      }
      const Directive *begin = open[--nopen];
      for (int f = 0; f < tu->nfuncs; f++)
        if (tu->funcs[f]->begin > begin->loc.offset && tu->funcs[f]->end <= d->loc.offset)
          tu->funcs[f]->device_marked = true;
    }
  }
  for (int i = 0; i < nopen; i++)
    diag_error(open[i]->loc, "'%s' is not closed: end the block with 'omp end declare target'",
               dir_name(open[i]->kind));
  free(open);
}
