/* C code whose meaning C++ changes or that C++ rejects, in the main file:
 * the edits (TranslationUnit.cxx_fixes) that codegen applies where it
 * copies source text into the .gt.cu, which nvcc compiles as C++.
 *
 * - `sizeof expr` becomes the value C gives it: in C a character constant
 *   is an int and `i == 3` an int (4 bytes), in C++ a char and a bool (1).
 * - An implicit conversion from `void *` to another object pointer, or
 *   from an integer to an enumeration, gets its cast: `int *q = vp;` and
 *   `enum mode md = i % 3;` are C, C++ wants `(int *)(vp)`, `(enum mode)(i % 3)`.
 * Only code written in the main file, outside macro bodies, is edited. */
#include <clang-c/Index.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_fixes.h"
#include "frontend.h"
#include "strbuf.h"

typedef struct FixCollector {
  TranslationUnit *tu;
  CXFile file;
  int cap;
} FixCollector;

static char *cx_str(CXString s) {
  const char *c = clang_getCString(s);
  char *r = xstrdup(c ? c : "");
  clang_disposeString(s);
  return r;
}

/* l's offset in the main file when it is written there (not in a macro). */
static bool plain_offset(const FixCollector *fc, CXSourceLocation l, unsigned *off) {
  CXFile f, sf;
  unsigned line, col, o, so;
  clang_getExpansionLocation(l, &f, &line, &col, &o);
  clang_getSpellingLocation(l, &sf, &line, &col, &so);
  if (!f || !sf || !clang_File_isEqual(f, fc->file) || !clang_File_isEqual(sf, fc->file) || o != so) return false;
  *off = o;
  return true;
}

static bool plain_range(const FixCollector *fc, CXCursor c, unsigned *b, unsigned *e) {
  CXSourceRange r = clang_getCursorExtent(c);
  return plain_offset(fc, clang_getRangeStart(r), b) && plain_offset(fc, clang_getRangeEnd(r), e) && *b < *e;
}

static void add_fix(FixCollector *fc, unsigned begin, unsigned end, char *text) {
  TextFix f = {begin, end, text};
  VEC_PUSH(fc->tu->cxx_fixes, fc->tu->ncxx_fixes, fc->cap, f);
}

static enum CXChildVisitResult first_expr_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (!clang_isExpression(clang_getCursorKind(c))) return CXChildVisit_Continue;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

static CXCursor first_expr_child(CXCursor c) {
  CXCursor k = clang_getNullCursor();
  clang_visitChildren(c, first_expr_cb, &k);
  return k;
}

/* `sizeof expr` (not `sizeof(type)`): its value in C, with the original as a comment. */
static void fix_sizeof(FixCollector *fc, CXCursor c) {
  unsigned b, e;
  if (!plain_range(fc, c, &b, &e)) return;
  const char *t = fc->tu->file->text;
  if (e - b < 7 || strncmp(t + b, "sizeof", 6) != 0) return;
  if (clang_Cursor_isNull(first_expr_child(c))) return; /* a type operand: the same in C++ */
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r) return;
  if (clang_EvalResult_getKind(r) == CXEval_Int) {
    unsigned long long v = clang_EvalResult_getAsUnsigned(r);
    char *orig = xstrndup(t + b, e - b);
    bool comment_ok = !strstr(orig, "*/") && !strchr(orig, '\n');
    add_fix(fc, b, e, comment_ok ? xasprintf("((size_t)%lluu /* %s */)", v, orig) : xasprintf("((size_t)%lluu)", v));
    free(orig);
  }
  clang_EvalResult_dispose(r);
}

static bool void_pointer(CXType t) {
  t = clang_getCanonicalType(t);
  return t.kind == CXType_Pointer && clang_getCanonicalType(clang_getPointeeType(t)).kind == CXType_Void;
}

/* An implicit cast (libclang: an unexposed expression around its operand)
 * from `void *` to another object pointer type. */
static void fix_void_pointer(FixCollector *fc, CXCursor c) {
  CXType to = clang_getCursorType(c), cto = clang_getCanonicalType(to);
  if (cto.kind != CXType_Pointer || void_pointer(to)) return;
  enum CXTypeKind pk = clang_getCanonicalType(clang_getPointeeType(cto)).kind;
  if (pk == CXType_FunctionProto || pk == CXType_FunctionNoProto || pk == CXType_VariableArray) return;
  CXCursor from = first_expr_child(c);
  if (clang_Cursor_isNull(from) || !void_pointer(clang_getCursorType(from))) return;
  unsigned b, e;
  if (!plain_range(fc, from, &b, &e)) return;
  char *ty = cx_str(clang_getTypeSpelling(cto));
  add_fix(fc, b, b, xasprintf("(%s)(", ty));
  add_fix(fc, e, e, xstrdup(")"));
  free(ty);
}

static bool integer_kind(enum CXTypeKind k) {
  return k >= CXType_Bool && k <= CXType_Int128;
}

/* An implicit cast from an integer to an enumeration type. */
static void fix_int_to_enum(FixCollector *fc, CXCursor c) {
  CXType to = clang_getCursorType(c);
  if (clang_getCanonicalType(to).kind != CXType_Enum) return;
  CXCursor from = first_expr_child(c);
  if (clang_Cursor_isNull(from) || !integer_kind(clang_getCanonicalType(clang_getCursorType(from)).kind)) return;
  unsigned b, e;
  if (!plain_range(fc, from, &b, &e)) return;
  char *ty = cx_str(clang_getTypeSpelling(to));
  if (!strstr(ty, "(unnamed") && !strstr(ty, "(anonymous")) {
    add_fix(fc, b, b, xasprintf("(%s)(", ty));
    add_fix(fc, e, e, xstrdup(")"));
  }
  free(ty);
}

static enum CXChildVisitResult visit_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  FixCollector *fc = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_UnaryExpr) fix_sizeof(fc, c);
  else if (k == CXCursor_UnexposedExpr) fix_void_pointer(fc, c), fix_int_to_enum(fc, c);
  return CXChildVisit_Recurse;
}

static int by_position(const void *a, const void *b) {
  const TextFix *x = a, *y = b;
  if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
  /* at one position: insertions (a cast's opening) before a replacement */
  return (x->end > x->begin) - (y->end > y->begin);
}

void fe_collect_cxx_fixes(TranslationUnit *tu, CXTranslationUnit ctu, void *cxfile) {
  if (!cxfile) return;
  FixCollector fc = {tu, (CXFile)cxfile, 0};
  clang_visitChildren(clang_getTranslationUnitCursor(ctu), visit_cb, &fc);
  if (tu->ncxx_fixes > 1) qsort(tu->cxx_fixes, (size_t)tu->ncxx_fixes, sizeof *tu->cxx_fixes, by_position);
}
