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
#include <clang-c/Index.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
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

/* One argument to fold: where its enumerator went in the edited text. */
typedef struct Fold {
  Expr *expr;
  unsigned insert_at;  /* offset in the original file (a line start) */
  unsigned line_begin; /* the inserted line in the edited text: [line_begin, line_end) */
  unsigned line_end;
  unsigned name_at;    /* offset of the enumerator's name in the edited text */
} Fold;

/* The start of the logical line holding offset (a `\` continuation joins lines). */
static unsigned line_start(const SrcFile *f, unsigned off) {
  while (off > 0) {
    if (f->text[off - 1] == '\n' && !(off >= 2 && f->text[off - 2] == '\\')) break;
    off--;
  }
  return off;
}

static char *edited_text(const SrcFile *f, Fold *folds, int n, size_t *len) {
  StrBuf sb;
  sb_init(&sb);
  unsigned copied = 0;
  for (int i = 0; i < n; i++) {
    sb_putn(&sb, f->text + copied, folds[i].insert_at - copied);
    copied = folds[i].insert_at;
    folds[i].line_begin = (unsigned)sb.len;
    sb_puts(&sb, ";enum { ");
    folds[i].name_at = (unsigned)sb.len;
    /* the text has no newline: the scanner joined continuations with a space */
    sb_printf(&sb, "gt_clause_value_%d = (%s) };\n", i, folds[i].expr->text);
    folds[i].line_end = (unsigned)sb.len;
  }
  sb_putn(&sb, f->text + copied, f->len - copied);
  *len = sb.len;
  return sb_take(&sb);
}

/* Marks the folds with an error inside their inserted line (not a constant). */
static void find_errors(CXTranslationUnit ctu, Fold *folds, int n, bool *bad) {
  unsigned nd = clang_getNumDiagnostics(ctu);
  for (unsigned i = 0; i < nd; i++) {
    CXDiagnostic dg = clang_getDiagnostic(ctu, i);
    if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error) {
      CXSourceLocation loc = clang_getDiagnosticLocation(dg);
      unsigned off;
      clang_getExpansionLocation(loc, NULL, NULL, NULL, &off);
      if (clang_Location_isFromMainFile(loc))
        for (int k = 0; k < n; k++)
          if (off >= folds[k].line_begin && off < folds[k].line_end) bad[k] = true;
    }
    clang_disposeDiagnostic(dg);
  }
}

static void fold_all(TranslationUnit *tu, const FeOptions *opts, Fold *folds, int n) {
  size_t len;
  char *text = edited_text(tu->file, folds, n, &len);
  const char *args[256];
  int nargs = fe_clang_args(opts, args, 256);
  CXIndex idx = clang_createIndex(0, 0);
  struct CXUnsavedFile unsaved = {tu->file->path, text, (unsigned long)len};
  CXTranslationUnit ctu = NULL;
  enum CXErrorCode ec = clang_parseTranslationUnit2(idx, tu->file->path, args, nargs, &unsaved, 1,
                                                    CXTranslationUnit_KeepGoing, &ctu);
  if (ec == CXError_Success && ctu) {
    bool *bad = xcalloc((size_t)n, sizeof *bad);
    find_errors(ctu, folds, n, bad);
    CXFile file = clang_getFile(ctu, tu->file->path);
    for (int i = 0; i < n && file; i++) {
      CXCursor c = clang_getCursor(ctu, clang_getLocationForOffset(ctu, file, folds[i].name_at));
      /* a directive in a block the preprocessor skips has no enumerator */
      if (bad[i] || clang_getCursorKind(c) != CXCursor_EnumConstantDecl) continue;
      folds[i].expr->folded = true;
      folds[i].expr->value = clang_getEnumConstantDeclValue(c);
    }
    free(bad);
    clang_disposeTranslationUnit(ctu);
  }
  clang_disposeIndex(idx);
  free(text);
}

void fe_fold_clause_constants(TranslationUnit *tu, const FeOptions *opts) {
  Fold *folds = NULL;
  int n = 0, cap = 0;
  long long v;
  for (int d = 0; d < tu->ndirs; d++) /* file order, so the insertions are too */
    for (int c = 0; c < tu->dirs[d]->nclauses; c++) {
      Clause *cl = &tu->dirs[d]->clauses[c];
      if (!needs_constant(cl->kind) || !cl->expr.text || literal_value(cl->expr.text, &v)) continue;
      Fold f = {&cl->expr, line_start(tu->file, tu->dirs[d]->loc.offset), 0, 0, 0};
      VEC_PUSH(folds, n, cap, f);
    }
  if (n > 0) fold_all(tu, opts, folds, n);
  free(folds);
}
