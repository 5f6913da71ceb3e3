/* Clause arguments gtcc needs as numbers, folded by clang.
 *
 * `collapse(NC)`, `vector_length(VL)`, `thread_limit(TL)` and
 * `gtcc_threshold(TH)` are read by the transform as constants, but the
 * directive's text is not preprocessed (clang does not parse OpenACC, and
 * gtcc parses without -fopenmp). So clang is asked: the file is parsed a
 * second time with `;enum { gt_clause_value_N = (ARG) };` written on a line
 * of its own before each such directive. There the macros in force are the
 * directive's own (an #undef before it counts), and enumerators, sizeof and
 * arithmetic fold as C says. An argument that is not a constant (a variable)
 * is an error in that parse, at the inserted line: it stays unfolded, and the
 * transform's message about it stands. The second parse runs only when some
 * such argument is not a plain number. */
#include <stdlib.h>
#include <string.h>

#include "reparse.h"
#include "strbuf.h"

static bool needs_constant(ClauseKind k) {
  return k == CL_COLLAPSE || k == CL_VECTOR_LENGTH || k == CL_THREAD_LIMIT || k == CL_GTCC_THRESHOLD;
}

/* An integer literal with optional u/l suffixes. */
static bool literal_value(const char *text, long long *value) {
  if (!text) return false;
  while (*text == ' ') text++;
  char *end;
  long long v = strtoll(text, &end, 0);
  if (end == text) return false;
  while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L') end++;
  while (*end == ' ') end++;
  if (*end) return false;
  *value = v;
  return true;
}

bool fe_expr_int(const Expr *e, long long *value) {
  if (e->folded) {
    *value = e->value;
    return true;
  }
  return literal_value(e->text, value);
}

/* The inserted line up to the enumerator's name, whose value clang folds. */
#define ENUM_OPEN ";enum { "

/* Folds each argument through an enumerator in a line inserted before its
 * directive: `;enum { gt_clause_value_N = (ARG) };`. An error inside the
 * line leaves the argument unfolded. */
static void fold_all(TranslationUnit *tu, const FeOptions *opts, Expr **exprs, Insert *ins, int n) {
  Reparse r;
  if (fe_reparse(tu, opts, ins, n, &r)) {
    bool *bad = xcalloc((size_t)n, sizeof *bad);
    unsigned nd = clang_getNumDiagnostics(r.ctu), at;
    int line;
    for (unsigned i = 0; i < nd; i++) {
      CXDiagnostic dg = clang_getDiagnostic(r.ctu, i);
      if (fe_reparse_error_in(dg, ins, n, &line, &at)) bad[line] = true;
      clang_disposeDiagnostic(dg);
    }
    for (int i = 0; i < n && r.file; i++) {
      unsigned name_at = ins[i].begin + (unsigned)strlen(ENUM_OPEN);
      CXCursor c = clang_getCursor(r.ctu, clang_getLocationForOffset(r.ctu, r.file, name_at));
      /* a directive in a block the preprocessor skips has no enumerator */
      if (bad[i] || clang_getCursorKind(c) != CXCursor_EnumConstantDecl) continue;
      exprs[i]->folded = true;
      exprs[i]->value = clang_getEnumConstantDeclValue(c);
    }
    free(bad);
  }
  fe_reparse_free(&r, ins, n);
}

void fe_fold_clause_constants(TranslationUnit *tu, const FeOptions *opts) {
  Expr **exprs = NULL;
  Insert *ins = NULL;
  int n = 0, ni = 0, cap = 0, icap = 0;
  long long v;
  for (int d = 0; d < tu->ndirs; d++) /* file order, so the insertions are too */
    for (int c = 0; c < tu->dirs[d]->nclauses; c++) {
      Clause *cl = &tu->dirs[d]->clauses[c];
      if (!needs_constant(cl->kind) || !cl->expr.text || literal_value(cl->expr.text, &v)) continue;
      /* the text has no newline: the scanner joined continuations with a space */
      Insert in = {fe_line_start(tu->file, tu->dirs[d]->loc.offset),
                   xasprintf(ENUM_OPEN "gt_clause_value_%d = (%s) };\n", n, cl->expr.text), 0, 0};
      VEC_PUSH(ins, ni, icap, in);
      VEC_PUSH(exprs, n, cap, &cl->expr);
    }
  if (n > 0) fold_all(tu, opts, exprs, ins, n);
  free(exprs);
  free(ins);
}
