/* What a macro's body can write: read from its tokens, once per macro. */
#include "macro_ops.h"

#include <stdlib.h>
#include <string.h>

#include "cx_text.h"
#include "strbuf.h"

struct MacroDef {
  char *name;
  CXCursor cur;
  int flags;      /* MO_* of its own body; -1 until read */
  int total;      /* with the macros it uses; -1 until known, -2 while being worked out */
  char **idents;  /* identifiers of its body: macros it may expand */
  int nidents;
};

void mo_add_definition(MacroOps *mo, CXCursor def) {
  MacroDef d = {cx_to_str(clang_getCursorSpelling(def)), def, -1, -1, NULL, 0};
  VEC_PUSH(mo->defs, mo->ndefs, mo->cap, d);
}

/* The latest definition of name (a later #define after #undef wins). */
static MacroDef *find(MacroOps *mo, const char *name) {
  for (int i = mo->ndefs - 1; i >= 0; i--)
    if (!strcmp(mo->defs[i].name, name)) return &mo->defs[i];
  return NULL;
}

static int op_flags(const char *t) {
  static const char *const assign[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
  for (size_t i = 0; i < sizeof assign / sizeof *assign; i++)
    if (!strcmp(t, assign[i])) return MO_ASSIGN;
  return !strcmp(t, "++") || !strcmp(t, "--") ? MO_INCDEC : 0;
}

/* Tokens of the definition: the name, the parameter list of a function-like
 * macro, then the body. */
static void read_body(MacroOps *mo, MacroDef *d) {
  CXToken *toks = NULL;
  unsigned n = 0;
  int cap = 0, flags = 0;
  clang_tokenize(mo->ctu, clang_getCursorExtent(d->cur), &toks, &n);
  unsigned i = 1;
  if (clang_Cursor_isMacroFunctionLike(d->cur))
    for (; i < n; i++) {
      char *t = cx_to_str(clang_getTokenSpelling(mo->ctu, toks[i]));
      int close = !strcmp(t, ")");
      free(t);
      if (close) {
        i++;
        break;
      }
    }
  for (; i < n; i++) {
    char *t = cx_to_str(clang_getTokenSpelling(mo->ctu, toks[i]));
    CXTokenKind k = clang_getTokenKind(toks[i]);
    if (k == CXToken_Punctuation) flags |= op_flags(t);
    if (k == CXToken_Identifier) {
      VEC_PUSH(d->idents, d->nidents, cap, t);
      continue;
    }
    free(t);
  }
  clang_disposeTokens(mo->ctu, toks, n);
  d->flags = flags;
}

/* Worked out once per macro; a cycle (macros do not expand inside
 * themselves) counts as writing, to stay on the safe side. */
static int writes(MacroOps *mo, const char *name, int depth) {
  MacroDef *d = find(mo, name);
  if (!d) return depth ? 0 : MO_ASSIGN | MO_INCDEC; /* a body's other names are not macros */
  if (d->total == -2) return MO_ASSIGN | MO_INCDEC;
  if (d->total >= 0) return d->total;
  if (d->flags < 0) read_body(mo, d);
  d->total = -2;
  int f = d->flags;
  for (int i = 0; i < d->nidents && f != (MO_ASSIGN | MO_INCDEC); i++)
    if (strcmp(d->idents[i], name)) f |= writes(mo, d->idents[i], depth + 1);
  d->total = f;
  return f;
}

int mo_macro_writes(MacroOps *mo, const char *name) { return writes(mo, name, 0); }

char *mo_outer_definition(MacroOps *mo, const char *name) {
  for (int i = mo->ndefs - 1; i >= 0; i--) {
    const MacroDef *d = &mo->defs[i];
    if (strcmp(d->name, name) || clang_Location_isFromMainFile(clang_getCursorLocation(d->cur))) continue;
    CXSourceRange r = clang_getCursorExtent(d->cur);
    CXFile f = NULL, fe = NULL;
    unsigned b, e;
    clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &e);
    size_t len = 0;
    const char *text = f && fe && clang_File_isEqual(f, fe) ? clang_getFileContents(mo->ctu, f, &len) : NULL;
    if (!text || e < b || e > len) return NULL;
    return xstrndup(text + b, e - b);
  }
  return NULL;
}

void mo_free(MacroOps *mo) {
  for (int i = 0; i < mo->ndefs; i++) {
    for (int j = 0; j < mo->defs[i].nidents; j++) free(mo->defs[i].idents[j]);
    free(mo->defs[i].idents);
    free(mo->defs[i].name);
  }
  free(mo->defs);
  mo->defs = NULL, mo->ndefs = mo->cap = 0;
}
