/* Operators that come from a macro's body (internal to the frontend).
 *
 * libclang 14 reports a token of a macro's body at the macro's invocation:
 * `ACC(x)` with `#define ACC(v) (total += (v))` shows `+=` and `total` where
 * ACC is written, and has no API that names an operator. So whether such a
 * node assigns is read from the macro's definition: a body (or a macro it
 * uses) without `=`, `++` or `--` cannot write anything; one with them is
 * taken to (the analysis stays on the safe side). */
#ifndef GTCC_MACRO_OPS_H
#define GTCC_MACRO_OPS_H

#include <clang-c/Index.h>

typedef struct MacroDef MacroDef;

typedef struct MacroOps {
  CXTranslationUnit ctu;
  MacroDef *defs; /* every macro definition seen so far, any file, in order */
  int ndefs, cap;
} MacroOps;

/* Records a CXCursor_MacroDefinition (definitions come before their uses). */
void mo_add_definition(MacroOps *mo, CXCursor def);
/* Whether the expansion of macro `name` holds a token that assigns: MO_ASSIGN
 * `=`, MO_INCDEC `++` or `--`, directly or through the macros it names; an
 * unknown name counts as holding both. */
enum { MO_ASSIGN = 1, MO_INCDEC = 2 };
int mo_macro_writes(MacroOps *mo, const char *name);
/* The text after `#define ` of the latest definition of name outside the
 * main file (a header's), or NULL (malloc'ed). */
char *mo_outer_definition(MacroOps *mo, const char *name);
void mo_free(MacroOps *mo);

#endif
