/* C code whose meaning C++ changes or that C++ rejects, in the main file:
 * the edits (TranslationUnit.cxx_fixes) that codegen applies where it
 * copies source text into the .gt.cu, which nvcc compiles as C++.
 *
 * - `sizeof expr` becomes the value C gives it: in C a character constant
 *   is an int and `i == 3` an int (4 bytes), in C++ a char and a bool (1);
 *   so does `sizeof(struct empty)` (GNU C: 0, C++: 1).
 * - An implicit conversion from `void *` to another object pointer, or
 *   from an integer to an enumeration, gets its cast: `int *q = vp;` and
 *   `enum mode md = i % 3;` are C, C++ wants `(int *)(vp)`, `(enum mode)(i % 3)`.
 * - An argument of a library function that C converts to the parameter's
 *   type gets that conversion written out: C++ has overloads that take the
 *   argument as it is, so `sqrt(f)` of a float would compute in float and
 *   `abs(-2.7)` give 2.7 (C: sqrt of the double, and 2).
 * - A function of the file named like one that CUDA declares for device
 *   code (`static int max(int, int)`, `rint` without <math.h>) is renamed
 *   gt_c_NAME in the copy: C allows it, nvcc reports a redefinition or
 *   calls its own.
 * - A type of the file named like a CUDA vector type (float2, dim3) is
 *   listed (TranslationUnit.cuda_named_types): the .gt.cu #defines the name
 *   away after CUDA's headers, so the file's type is the one it means.
 * - C11 keywords C++ spells otherwise (_Static_assert, _Alignas, _Alignof,
 *   _Noreturn) and `auto` (a storage class in C) are respelled; __func__
 *   becomes the enclosing function's name (in a kernel it names the kernel).
 * - `static` and qualifiers inside a parameter's brackets (`a[static 4]`,
 *   `b[restrict]`) are dropped: C++ has neither; they only promise things.
 * - A char array exactly as long as its string literal without the NUL
 *   (`char s[3] = "abc"`, C drops the NUL; C++ rejects it) is initialized
 *   element by element: `{"abc"[0], "abc"[1], "abc"[2]}`.
 * Only code written in the main file, outside macro invocations, is edited. */
#include <clang-c/Index.h>
#include <stdlib.h>
#include <string.h>

#include "cx_text.h"
#include "cxx_fixes.h"
#include "frontend.h"
#include "strbuf.h"

typedef struct FixCollector {
  TranslationUnit *tu;
  CXFile file;
  int cap;
  CXCursor *renamed; /* the file's functions with CUDA's names (canonical cursors) */
  int nrenamed, renamed_cap;
  OffsetRange *macros; /* macro invocations in the file: no edit reaches into one */
  int nmacros, macros_cap;
} FixCollector;

/* Names CUDA declares at global scope for device code (crt/math_functions.h
 * and its C++ overloads): C code may define them when it does not include
 * <math.h> (min, max, norm, ... never are there). */
static const char *const cuda_names[] = {
    "abs", "acos", "asin", "atan", "atan2", "cbrt", "ceil", "copysign", "cos", "cospi", "erf", "erfc", "exp",
    "exp10", "exp2", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "frexp", "hypot", "ilogb",
    "isfinite", "isinf", "isnan", "labs", "ldexp", "lgamma", "llabs", "llmax", "llmin", "llrint", "llround", "log",
    "log10", "log1p", "log2", "logb", "lrint", "lround", "max", "min", "modf", "nearbyint", "nextafter", "norm",
    "norm3d", "norm4d", "pow", "rcbrt", "remainder", "rhypot", "rint", "rnorm", "rnorm3d", "rnorm4d", "round",
    "rsqrt", "scalbn", "signbit", "sin", "sinh", "sinpi", "sqrt", "tan", "tanh", "tgamma", "trunc", "ullmax",
    "ullmin", "umax", "umin"};

bool fe_cuda_function_name(const char *n) {
  for (size_t i = 0; i < sizeof cuda_names / sizeof *cuda_names; i++)
    if (!strcmp(cuda_names[i], n)) return true;
  return false;
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

/* Is offset at strictly inside a macro invocation, or does [b, e) overlap one? */
static bool in_macro(const FixCollector *fc, unsigned b, unsigned e) {
  for (int i = 0; i < fc->nmacros; i++) {
    const OffsetRange *m = &fc->macros[i];
    if (b == e ? (b > m->begin && b < m->end) : (b < m->end && e > m->begin)) return true;
  }
  return false;
}

static void add_fix(FixCollector *fc, unsigned begin, unsigned end, char *text) {
  if (in_macro(fc, begin, end)) {
    free(text);
    return;
  }
  TextFix f = {begin, end, text, 0};
  VEC_PUSH(fc->tu->cxx_fixes, fc->tu->ncxx_fixes, fc->cap, f);
}

/* Wraps [b, e) in `(type)(` ... `)`: both edits or neither. */
static void add_cast(FixCollector *fc, unsigned b, unsigned e, const char *type) {
  if (in_macro(fc, b, e)) return; /* b < e: any edge inside a macro overlaps it */
  add_fix(fc, b, b, xasprintf("(%s)(", type));
  add_fix(fc, e, e, xstrdup(")"));
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
  bool type_operand = clang_Cursor_isNull(first_expr_child(c));
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r) return;
  /* a type's size is C++'s too, but for GNU C's empty struct (0; C++: 1) */
  if (clang_EvalResult_getKind(r) == CXEval_Int && (!type_operand || clang_EvalResult_getAsUnsigned(r) == 0)) {
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
  char *ty = cx_to_str(clang_getTypeSpelling(cto));
  add_cast(fc, b, e, ty);
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
  char *ty = cx_to_str(clang_getTypeSpelling(to));
  if (!strstr(ty, "(unnamed") && !strstr(ty, "(anonymous")) {
    add_cast(fc, b, e, ty);
  }
  free(ty);
}

static bool arithmetic_kind(enum CXTypeKind k) { return k >= CXType_Bool && k <= CXType_LongDouble; }

/* A call of a function declared outside the main file (a library
 * function): each argument C converts implicitly to another arithmetic
 * type gets the cast. */
static void fix_library_args(FixCollector *fc, CXCursor call) {
  CXCursor callee = clang_getCursorReferenced(call);
  if (clang_getCursorKind(callee) != CXCursor_FunctionDecl) return;
  CXFile f;
  clang_getExpansionLocation(clang_getCursorLocation(callee), &f, NULL, NULL, NULL);
  if (f && clang_File_isEqual(f, fc->file)) return; /* the file's own functions have no overloads */
  int n = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < n; i++) {
    CXCursor a = clang_Cursor_getArgument(call, (unsigned)i);
    if (clang_getCursorKind(a) != CXCursor_UnexposedExpr) continue;
    CXType to = clang_getCanonicalType(clang_getCursorType(a));
    CXCursor from = first_expr_child(a);
    if (clang_Cursor_isNull(from)) continue;
    CXType ft = clang_getCanonicalType(clang_getCursorType(from));
    if (!arithmetic_kind(to.kind) || !arithmetic_kind(ft.kind) || to.kind == ft.kind) continue;
    unsigned b, e;
    if (!plain_range(fc, from, &b, &e)) continue;
    char *ty = cx_to_str(clang_getTypeSpelling(to));
    add_cast(fc, b, e, ty);
    free(ty);
  }
}

/* CUDA's vector types (vector_types.h) and dim3: C code may name its own types so. */
bool fe_cuda_type_name(const char *n) {
  static const char *const bases[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
                                      "longlong", "ulonglong", "float", "double"};
  if (!strcmp(n, "dim3")) return true;
  for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
    size_t len = strlen(bases[i]);
    if (!strncmp(n, bases[i], len) && n[len] >= '1' && n[len] <= '4' && !n[len + 1]) return true;
  }
  return false;
}

/* Pass 1: the file's function definitions that carry CUDA's names (their
 * canonical cursors) and its types named like CUDA's vector types. */
static enum CXChildVisitResult clash_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  FixCollector *fc = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  OffsetRange m;
  if (k == CXCursor_MacroExpansion && plain_range(fc, c, &m.begin, &m.end)) {
    VEC_PUSH(fc->macros, fc->nmacros, fc->macros_cap, m);
    return CXChildVisit_Continue;
  }
  bool fn = k == CXCursor_FunctionDecl && clang_isCursorDefinition(c);
  bool type = k == CXCursor_TypedefDecl || k == CXCursor_StructDecl || k == CXCursor_UnionDecl || k == CXCursor_EnumDecl;
  CXSourceLocation at = clang_getCursorLocation(c);
  if (fn && !clang_Location_isFromMainFile(at) && !clang_Location_isInSystemHeader(at)) {
    /* defined in a header of the program's own: user_headers.c renames it there */
    char *name = cx_to_str(clang_getCursorSpelling(c));
    if (fe_cuda_function_name(name)) VEC_PUSH(fc->renamed, fc->nrenamed, fc->renamed_cap, clang_getCanonicalCursor(c));
    free(name);
    return CXChildVisit_Continue;
  }
  unsigned off;
  if ((!fn && !type) || !plain_offset(fc, clang_getCursorLocation(c), &off)) return CXChildVisit_Continue;
  char *name = cx_to_str(clang_getCursorSpelling(c));
  if (fn && fe_cuda_function_name(name)) {
    VEC_PUSH(fc->renamed, fc->nrenamed, fc->renamed_cap, clang_getCanonicalCursor(c));
  } else if (type && fe_cuda_type_name(name)) {
    TranslationUnit *tu = fc->tu;
    bool seen = false;
    for (int i = 0; i < tu->ncuda_named_types && !seen; i++) seen = !strcmp(tu->cuda_named_types[i], name);
    if (!seen) {
      int cap = tu->ncuda_named_types;
      VEC_PUSH(tu->cuda_named_types, tu->ncuda_named_types, cap, name);
      name = NULL;
    }
  }
  free(name);
  return CXChildVisit_Continue;
}

/* Pass 2: the name of a renamed function, where it is declared or used,
 * becomes gt_c_NAME. */
static void fix_clashing_name(FixCollector *fc, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_DeclRefExpr && k != CXCursor_FunctionDecl) return;
  CXCursor decl = clang_getCanonicalCursor(k == CXCursor_DeclRefExpr ? clang_getCursorReferenced(c) : c);
  bool hit = false;
  for (int i = 0; i < fc->nrenamed && !hit; i++) hit = clang_equalCursors(decl, fc->renamed[i]);
  unsigned off;
  if (!hit || !plain_offset(fc, clang_getCursorLocation(c), &off)) return;
  char *name = cx_to_str(clang_getCursorSpelling(decl));
  size_t len = strlen(name);
  if (!strncmp(fc->tu->file->text + off, name, len)) add_fix(fc, off, off + (unsigned)len, xasprintf("gt_c_%s", name));
  free(name);
}

/* Words that may follow `[` in a parameter declarator only (C99 6.7.6). */
static bool param_bracket_word(const char *w) {
  static const char *const words[] = {"static", "const", "volatile", "restrict", "__restrict", "__restrict__", "_Atomic"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (!strcmp(w, words[i])) return true;
  return false;
}

/* C11 spellings C++ lacks, `auto` as a storage class, __func__ (in a
 * kernel it would name the kernel) and `static` or qualifiers in a
 * parameter's brackets: token edits. */
static void fix_tokens(FixCollector *fc, CXTranslationUnit ctu) {
  const SrcFile *f = fc->tu->file;
  CXSourceRange all = clang_getRange(clang_getLocationForOffset(ctu, fc->file, 0),
                                     clang_getLocationForOffset(ctu, fc->file, (unsigned)f->len));
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(ctu, all, &toks, &n);
  static const char *const words[][2] = {{"_Static_assert", "static_assert"}, {"_Alignas", "alignas"},
                                         {"_Alignof", "alignof"}, {"_Noreturn", "__attribute__((noreturn))"},
                                         {"auto", ""}};
  bool after_bracket = false; /* the tokens since a `[` are qualifiers or `static` */
  for (unsigned i = 0; i < n; i++) {
    CXTokenKind tk = clang_getTokenKind(toks[i]);
    char *sp = cx_to_str(clang_getTokenSpelling(ctu, toks[i]));
    bool bracket = tk == CXToken_Punctuation && !strcmp(sp, "[");
    bool array_qual = after_bracket && (tk == CXToken_Keyword || tk == CXToken_Identifier) && param_bracket_word(sp);
    after_bracket = bracket || array_qual;
    unsigned off;
    if ((tk != CXToken_Keyword && tk != CXToken_Identifier) ||
        !plain_offset(fc, clang_getTokenLocation(ctu, toks[i]), &off)) {
      free(sp);
      continue;
    }
    if (array_qual) {
      add_fix(fc, off, off + (unsigned)strlen(sp), xstrdup(""));
    } else {
      for (size_t w = 0; w < sizeof words / sizeof *words; w++)
        if (!strcmp(sp, words[w][0])) add_fix(fc, off, off + (unsigned)strlen(sp), xstrdup(words[w][1]));
      if (!strcmp(sp, "__func__") || !strcmp(sp, "__FUNCTION__")) {
        CXCursor fn = clang_getCursor(ctu, clang_getTokenLocation(ctu, toks[i]));
        for (int guard = 0; guard < 64 && !clang_Cursor_isNull(fn) && clang_getCursorKind(fn) != CXCursor_FunctionDecl &&
                            clang_getCursorKind(fn) != CXCursor_TranslationUnit;
             guard++)
          fn = clang_getCursorSemanticParent(fn);
        if (clang_getCursorKind(fn) == CXCursor_FunctionDecl) {
          char *name = cx_to_str(clang_getCursorSpelling(fn));
          add_fix(fc, off, off + (unsigned)strlen(sp), xasprintf("\"%s\"", name));
          free(name);
        }
      }
    }
    free(sp);
  }
  clang_disposeTokens(ctu, toks, n);
}

static bool char_kind(enum CXTypeKind k) {
  return k == CXType_Char_S || k == CXType_Char_U || k == CXType_SChar || k == CXType_UChar;
}

static enum CXChildVisitResult string_literal_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  /* the initializer is the last child (an array size comes before it) */
  *(CXCursor *)d = clang_getCursorKind(c) == CXCursor_StringLiteral ? c : clang_getNullCursor();
  return CXChildVisit_Continue;
}

/* The chars of the string literal text t (adjacent literals joined), its
 * NUL not counted; -1 for a form not counted here (wide, \\u). */
static long long literal_length(const char *t) {
  long long n = 0;
  for (const char *c = t; *c;) {
    if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r') {
      c++;
      continue;
    }
    if (!strncmp(c, "u8\"", 3)) c += 2;
    if (*c++ != '"') return -1;
    for (; *c && *c != '"'; n++) {
      if (*c != '\\') {
        c++;
        continue;
      }
      c++;
      if (*c == 'x') {
        for (c++; *c && strchr("0123456789abcdefABCDEF", *c); c++) {}
      } else if (*c >= '0' && *c <= '7') {
        for (int k = 0; k < 3 && *c >= '0' && *c <= '7'; k++) c++;
      } else if (*c == 'u' || *c == 'U' || !*c) {
        return -1;
      } else {
        c++;
      }
    }
    if (*c++ != '"') return -1;
  }
  return n;
}

/* `char s[3] = "abc";`: C leaves out the NUL, C++ rejects the literal. */
static void fix_exact_string_init(FixCollector *fc, CXCursor var) {
  CXType t = clang_getCanonicalType(clang_getCursorType(var));
  if (t.kind != CXType_ConstantArray || !char_kind(clang_getCanonicalType(clang_getArrayElementType(t)).kind)) return;
  CXCursor lit = clang_getNullCursor();
  clang_visitChildren(var, string_literal_cb, &lit);
  if (clang_Cursor_isNull(lit)) return;
  long long n = clang_getNumElements(t);
  unsigned b, e;
  if (n <= 0 || n > 4096 || !plain_range(fc, lit, &b, &e)) return;
  char *text = xstrndup(fc->tu->file->text + b, e - b);
  if (literal_length(text) != n) {
    free(text);
    return;
  }
  StrBuf sb = {0};
  sb_putc(&sb, '{');
  for (long long i = 0; i < n; i++) sb_printf(&sb, "%s(%s)[%lld]", i ? ", " : "", text, i);
  sb_putc(&sb, '}');
  free(text);
  add_fix(fc, b, e, sb_take(&sb));
}

static enum CXChildVisitResult visit_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  FixCollector *fc = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_UnaryExpr) fix_sizeof(fc, c);
  else if (k == CXCursor_UnexposedExpr) fix_void_pointer(fc, c), fix_int_to_enum(fc, c);
  else if (k == CXCursor_CallExpr) fix_library_args(fc, c);
  else if (k == CXCursor_VarDecl) fix_exact_string_init(fc, c);
  if (fc->nrenamed) fix_clashing_name(fc, c);
  return CXChildVisit_Recurse;
}

int fe_fix_order(const void *a, const void *b) {
  const TextFix *x = a, *y = b;
  if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
  /* at one position: insertions (a cast's opening) before a replacement */
  int r = (x->end > x->begin) - (y->end > y->begin);
  return r ? r : (x->order > y->order) - (x->order < y->order);
}

void fe_collect_cxx_fixes(TranslationUnit *tu, CXTranslationUnit ctu, void *cxfile) {
  if (!cxfile) return;
  FixCollector fc = {tu, (CXFile)cxfile, 0, NULL, 0, 0, NULL, 0, 0};
  CXCursor top = clang_getTranslationUnitCursor(ctu);
  clang_visitChildren(top, clash_cb, &fc);
  clang_visitChildren(top, visit_cb, &fc);
  fix_tokens(&fc, ctu);
  free(fc.renamed);
  free(fc.macros);
  if (tu->ncxx_fixes > 1) qsort(tu->cxx_fixes, (size_t)tu->ncxx_fixes, sizeof *tu->cxx_fixes, fe_fix_order);
}
