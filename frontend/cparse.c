/* C parsing through libclang: builds the light statement tree of ast.h.
 *
 * The file is parsed WITHOUT -fopenmp (BRIEF §3): OpenMP bodies would
 * otherwise become opaque CapturedStmts. OpenACC/OpenMP pragmas are then
 * invisible to clang; the directive scanner finds them and attach.c links
 * them to the statements built here. This is the only file (with
 * frontend.c) that includes clang-c. */
#include <clang-c/Index.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "frontend.h"
#include "cx_text.h"
#include "cxx_fixes.h"
#include "macro_ops.h"
#include "strbuf.h"
#include "tokens.h"
#include "user_headers.h"

/* Parse state for one translation unit. */
typedef struct Parser {
  TranslationUnit *tu;
  CXTranslationUnit ctu;
  CXFile file;
  TokenArray toks;
  CXCursor *var_cursors; /* parallel to tu->vars: the declaring cursor */
  int var_cap;           /* capacity of both */
  int funcs_cap, tops_cap, top_names_cap, enumerators_cap, macros_cap;
  /* Offsets of DeclRefExprs found to be assigned (direct) or element-assigned. */
  unsigned *writes, *elem_writes;
  int nwrites, writes_cap, nelem_writes, elem_writes_cap;
  /* Offsets of DeclRefExprs under a member access of pointer type (s.p). */
  unsigned *ptr_members;
  int nptr_members, ptr_members_cap;
  /* Start offsets of `&x` arguments passed to a pointer-to-const parameter. */
  unsigned *const_addrs;
  int nconst_addrs, const_addrs_cap;
  /* Keys of DeclRefExprs under a unary & (ref_offsets). */
  unsigned *addrs;
  int naddrs, addrs_cap;
  /* Keys of DeclRefExprs whose array (or array member) decays to a pointer value. */
  unsigned *decays;
  int ndecays, decays_cap;
  MacroOps macros; /* what each macro's body can write */
  /* First tokens after `acc|omp atomic` lines: the statements whose expressions get an ExprShape. */
  unsigned *atomic_starts;
  int natomic_starts, atomic_starts_cap;
} Parser;

char *cx_to_str(CXString s) {
  const char *c = clang_getCString(s);
  char *r = xstrdup(c ? c : "");
  clang_disposeString(s);
  return r;
}

/* How generated code writes type t. `typeof (n)` names a variable that is
 * not in scope in a kernel's parameters or a context struct, so such a type
 * is written as what it stands for; other types keep their spelling
 * (typedef names are copied into the .gt.cu). */
static char *type_text(CXType t) {
  char *sp = cx_to_str(clang_getTypeSpelling(t));
  if (strstr(sp, "typeof")) { /* typeof, __typeof__ (an identifier holding it too: harmless) */
    free(sp);
    return cx_to_str(clang_getTypeSpelling(clang_getCanonicalType(t)));
  }
  return sp;
}

/* Offset in the main file of l's expansion: a token from a macro counts
 * where the macro is invoked; code of other files has none (-1). */
static long loc_offset(const Parser *p, CXSourceLocation l) {
  CXFile f;
  unsigned line, col, off;
  clang_getExpansionLocation(l, &f, &line, &col, &off);
  if (!f || !clang_File_isEqual(f, p->file)) return -1;
  return (long)off;
}

/* A variable reference in the main file, directly or through a macro
 * invoked there: *use is where it counts (the macro's invocation), *key
 * where libclang 14 says it is written (an argument: its own place in the
 * invocation; a token of the macro's body: the invocation), for matching
 * writes to uses. */
static int ref_offsets(const Parser *p, CXSourceLocation l, unsigned *use, unsigned *key) {
  CXFile f, sf;
  unsigned line, col, off, soff;
  clang_getExpansionLocation(l, &f, &line, &col, &off);
  clang_getSpellingLocation(l, &sf, &line, &col, &soff);
  if (!f || !sf || !clang_File_isEqual(f, p->file) || !clang_File_isEqual(sf, p->file)) return 0;
  *use = off, *key = soff;
  return 1;
}

static int cursor_range(const Parser *p, CXCursor c, unsigned *begin, unsigned *end) {
  CXSourceRange r = clang_getCursorExtent(c);
  long b = loc_offset(p, clang_getRangeStart(r)), e = loc_offset(p, clang_getRangeEnd(r));
  if (b < 0 || e < 0 || e < b) return 0;
  *begin = (unsigned)b, *end = (unsigned)e;
  return 1;
}

static SrcLoc cursor_loc(Parser *p, CXCursor c) {
  long off = loc_offset(p, clang_getCursorLocation(c));
  if (off < 0) {
    unsigned b, e;
    off = cursor_range(p, c, &b, &e) ? (long)b : 0;
  }
  return srcfile_loc(p->tu->file, (unsigned)off);
}

/* ---- names the .gt.cu may not compile (transform/names.c reports them) --- */

/* Words C++ reserves that C code may use as names: the keywords of nvcc's
 * default dialect (C++17) that C lacks, and the alternative tokens. */
static const char *const cxx_keywords[] = {
    "alignas", "alignof", "and", "and_eq", "bitand", "bitor", "bool", "catch", "char16_t", "char32_t", "class",
    "compl", "const_cast", "constexpr", "decltype", "delete", "dynamic_cast", "explicit", "export", "false",
    "friend", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq",
    "private", "protected", "public", "reinterpret_cast", "static_assert", "static_cast", "template", "this",
    "thread_local", "throw", "true", "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq"};

bool fe_is_cxx_keyword(const char *name) {
  for (size_t i = 0; i < sizeof cxx_keywords / sizeof *cxx_keywords; i++)
    if (!strcmp(cxx_keywords[i], name)) return true;
  return false;
}

/* The top containing offset off, or NULL (tops are in file order). */
static const TopDecl *top_at(const TranslationUnit *tu, unsigned off) {
  int lo = 0, hi = tu->ntops - 1, at = -1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (tu->tops[mid].begin <= off) at = mid, lo = mid + 1;
    else hi = mid - 1;
  }
  return at >= 0 && off < tu->tops[at].end ? &tu->tops[at] : NULL;
}

/* Whether the .gt.cu lacks type or enumerator declaration d: NR_LOCAL_TYPE
 * (declared in a function: only code copied with it has it), NR_VAR_TYPE
 * (part of a file-scope variable's declaration, which is not copied), or -1.
 * Declarations in other files come with their #include. */
static int hidden_kind(Parser *p, CXCursor d, unsigned *off) {
  long o = loc_offset(p, clang_getCursorLocation(d));
  if (o < 0) return -1;
  *off = (unsigned)o;
  CXCursor s = clang_getCursorSemanticParent(d);
  for (int guard = 0; guard < 64 && !clang_Cursor_isNull(s); guard++, s = clang_getCursorSemanticParent(s)) {
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_FunctionDecl) return NR_LOCAL_TYPE;
    if (k == CXCursor_TranslationUnit || clang_isInvalid(k)) break;
  }
  const TopDecl *t = top_at(p->tu, *off);
  return t && t->kind == TOP_VAR ? NR_VAR_TYPE : -1;
}

/* How messages name type declaration d: "word", "struct acc", "N". */
static char *type_decl_name(CXCursor d) {
  char *n = cx_to_str(clang_getCursorSpelling(d));
  enum CXCursorKind k = clang_getCursorKind(d);
  if (k != CXCursor_StructDecl && k != CXCursor_UnionDecl && k != CXCursor_EnumDecl) return n;
  const char *tag = k == CXCursor_StructDecl ? "struct" : k == CXCursor_UnionDecl ? "union" : "enum";
  bool unnamed = !*n || strchr(n, ' ') || strchr(n, '('); /* clang says "struct (unnamed at ...)" */
  char *r = unnamed ? xasprintf("%s <unnamed>", tag) : xasprintf("%s %s", tag, n);
  free(n);
  return r;
}

/* Whether the .gt.cu lacks type or enumerator d, written at loc; if so,
 * *r says so. A struct's definition counts, not a forward declaration. */
static bool hidden_ref(Parser *p, CXCursor d, SrcLoc loc, NameRef *r) {
  CXCursor def = clang_getCursorDefinition(d);
  if (!clang_Cursor_isNull(def)) d = def;
  unsigned off = 0;
  int why = hidden_kind(p, d, &off);
  if (why < 0) return false;
  *r = (NameRef){(NameRefKind)why, type_decl_name(d), loc, off, clang_getCursorKind(d) == CXCursor_EnumConstantDecl};
  return true;
}

/* The first type declaration in t (through pointers, arrays, typedefs) that
 * the .gt.cu lacks: a variable of type t declared there would not compile. */
static NameRef *hidden_type_ref(Parser *p, CXType t, SrcLoc loc) {
  NameRef r;
  for (int guard = 0; guard < 64; guard++) {
    switch (t.kind) {
    case CXType_Pointer: t = clang_getPointeeType(t); break;
    case CXType_ConstantArray:
    case CXType_IncompleteArray:
    case CXType_VariableArray: t = clang_getArrayElementType(t); break;
    case CXType_Elaborated: t = clang_Type_getNamedType(t); break;
    case CXType_Typedef:
    case CXType_Record:
    case CXType_Enum: {
      CXCursor d = clang_getTypeDeclaration(t);
      if (hidden_ref(p, d, loc, &r)) {
        NameRef *heap = xmalloc(sizeof *heap);
        *heap = r;
        return heap;
      }
      if (t.kind != CXType_Typedef) return NULL;
      t = clang_getTypedefDeclUnderlyingType(d);
      break;
    }
    default: return NULL;
    }
  }
  return NULL;
}

/* Records cursor c if it declares or names something called by a C++
 * keyword: a field, type, tag, enumerator, function or prototype parameter
 * (variables are checked through their CVar). Names from system headers
 * are C++-ready there (wchar_t is a typedef in C, a keyword in C++). */
static void note_cxx_keyword(Parser *p, CXCursor c, NameRef **v, int *n, int *cap) {
  enum CXCursorKind k = clang_getCursorKind(c);
  CXCursor d = c;
  if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr || k == CXCursor_TypeRef)
    d = clang_getCursorReferenced(c);
  else if (!clang_isDeclaration(k))
    return;
  if (clang_Cursor_isNull(d)) return;
  enum CXCursorKind dk = clang_getCursorKind(d);
  if (dk == CXCursor_VarDecl || (dk == CXCursor_ParmDecl && k == CXCursor_DeclRefExpr)) return;
  char *name = cx_to_str(clang_getCursorSpelling(d));
  if (!fe_is_cxx_keyword(name) || clang_Location_isInSystemHeader(clang_getCursorLocation(d))) {
    free(name);
    return;
  }
  unsigned off = 0;
  clang_getExpansionLocation(clang_getCursorLocation(d), NULL, NULL, NULL, &off);
  NameRef r = {NR_CXX_KEYWORD, name, cursor_loc(p, c), off, false};
  VEC_PUSH(*v, *n, *cap, r);
}

/* ---- variables ---------------------------------------------------------- */

static bool is_float_kind(enum CXTypeKind k) {
  return k == CXType_Float || k == CXType_Double || k == CXType_LongDouble || k == CXType_Half ||
         k == CXType_Float16 || k == CXType_Float128;
}

static bool is_scalar_kind(enum CXTypeKind k) {
  return (k >= CXType_FirstBuiltin && k <= CXType_LastBuiltin && k != CXType_Void) || k == CXType_Enum;
}

/* Text of the bracketed sizes in a declarator like `double (*A)[m][k]`. */
static void vla_dim_texts(Parser *p, CXCursor decl, CVar *v, int param_form) {
  unsigned b, e;
  if (!cursor_range(p, decl, &b, &e)) return;
  /* from the name on: `double v[n], m[n][k];` gives m an extent from `double` */
  long name = loc_offset(p, clang_getCursorLocation(decl));
  if (name > (long)b && name < (long)e) b = (unsigned)name;
  int i = tok_first_at(&p->toks, b), depth = 0, close_paren_seen = 0;
  int dim = 0;
  for (; i < p->toks.n && p->toks.t[i].begin < e && dim < MAX_DIMS; i++) {
    const Token *t = &p->toks.t[i];
    if (tok_is(t, ")")) close_paren_seen = 1;
    if (param_form && !close_paren_seen && tok_is(t, "[")) { /* A[n][m]: the first size is not the view's */
      for (int d = 0; i < p->toks.n && !(tok_is(&p->toks.t[i], "]") && --d == 0); i++)
        if (tok_is(&p->toks.t[i], "[")) d++;
      close_paren_seen = 1;
      continue;
    }
    if (!close_paren_seen) continue;
    if (tok_is(t, "[") && depth++ == 0) {
      int j = i + 1, d = 1;
      while (j < p->toks.n && d > 0) {
        if (tok_is(&p->toks.t[j], "[")) d++;
        if (tok_is(&p->toks.t[j], "]")) d--;
        if (d > 0) j++;
      }
      if (j < p->toks.n && j > i + 1)
        v->dim_text[dim++] = fe_text(p->tu, p->toks.t[i + 1].begin, p->toks.t[j - 1].end);
      depth = 0;
      i = j;
    }
  }
}

static int is_array_kind(enum CXTypeKind k) {
  return k == CXType_ConstantArray || k == CXType_VariableArray || k == CXType_IncompleteArray;
}

/* v points to arrays of type at (`double (*A)[m]`, or the parameter
 * `double A[n][m]`): a view with at's sizes as its inner dimensions. */
static void vla_view(Parser *p, CXCursor decl, CVar *v, CXType at, int param_form) {
  v->tkind = VT_VLA_POINTER;
  CXType et = clang_getCanonicalType(at);
  /* `const double (*q)[4]`: clang keeps the const on the array type, and its element type drops it */
  bool rows_const = false;
  while (is_array_kind(et.kind)) {
    rows_const |= clang_isConstQualifiedType(et) != 0;
    if (v->ndims < MAX_DIMS) v->dims[v->ndims++] = et.kind == CXType_ConstantArray ? clang_getArraySize(et) : -1;
    et = clang_getCanonicalType(clang_getArrayElementType(et));
  }
  rows_const |= clang_isConstQualifiedType(et) != 0;
  char *elem = type_text(et);
  v->elem_type = rows_const && strncmp(elem, "const ", 6) ? xasprintf("const %s", elem) : xstrdup(elem);
  free(elem);
  v->elem_size = clang_Type_getSizeOf(et);
  vla_dim_texts(p, decl, v, param_form);
}

static int vla_sizes_fold(CXCursor decl);

/* A parameter declared as an array (`double a[n]`, `double A[n][m]`,
 * `double A[][m]`) is a pointer to its element, as C adjusts it. */
static int classify_array_param(Parser *p, CXCursor decl, CVar *v, CXType ct) {
  /* A local of run-time size (`double t[n]`, `double m[n][k]`) is reached the same way: offload
   * code gets its address, as that of a parameter. */
  bool local_vla = clang_getCursorKind(decl) == CXCursor_VarDecl && ct.kind == CXType_VariableArray &&
                   !vla_sizes_fold(decl);
  if (local_vla) v->is_vla = true, v->vla_type = xstrdup(v->type);
  else if (clang_getCursorKind(decl) != CXCursor_ParmDecl || !is_array_kind(ct.kind)) return 0;
  CXType et = clang_getCanonicalType(clang_getArrayElementType(ct));
  v->is_const = 0;
  if (!is_array_kind(et.kind)) {
    v->tkind = VT_POINTER;
    v->elem_type = type_text(et);
    long long sz = clang_Type_getSizeOf(et);
    v->elem_size = sz > 0 ? sz : -1;
    free(v->type);
    v->type = xasprintf("%s *", v->elem_type);
    return 1;
  }
  vla_view(p, decl, v, et, 1);
  return 1;
}

/* clang's value of an integer constant expression (enum constants, macros,
 * const locals fold; other variables do not). */
static bool eval_int(CXCursor c, long long *v) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  bool ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok) *v = clang_EvalResult_getAsLongLong(r);
  if (r) clang_EvalResult_dispose(r);
  return ok;
}

static enum CXChildVisitResult size_fold_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  long long v;
  if (clang_isExpression(clang_getCursorKind(c)) && !eval_int(c, &v)) *(int *)d = 0;
  return CXChildVisit_Continue;
}

/* `const int K = 4; double t[K];` is a VLA in C but an array of constant
 * size in C++ (the .gt.cu): do its sizes (the declaration's expressions; a
 * VLA has no initializer) fold to constants? */
static int vla_sizes_fold(CXCursor decl) {
  int all = 1;
  clang_visitChildren(decl, size_fold_cb, &all);
  return all;
}

/* A test of one part of a type: is it a pointer, is it const, ... */
typedef bool (*TypeLeaf)(CXType t);

static bool type_holds(CXType t, TypeLeaf leaf, int depth);

typedef struct HoldsWalk {
  TypeLeaf leaf;
  int depth;
  bool found;
} HoldsWalk;

static enum CXVisitorResult field_holds_cb(CXCursor c, CXClientData d) {
  HoldsWalk *w = d;
  if (type_holds(clang_getCursorType(c), w->leaf, w->depth + 1)) {
    w->found = true;
    return CXVisit_Break;
  }
  return CXVisit_Continue;
}

/* Does a member of record type t, or a part of one, pass leaf? */
static bool fields_hold(CXType t, TypeLeaf leaf, int depth) {
  HoldsWalk w = {leaf, depth, false};
  clang_Type_visitFields(t, field_holds_cb, &w);
  return w.found;
}

/* Does t, an element of it, a member or a member's member pass leaf? Too deep to tell counts as
 * yes. */
static bool type_holds(CXType t, TypeLeaf leaf, int depth) {
  t = clang_getCanonicalType(t);
  while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray || t.kind == CXType_VariableArray) {
    if (leaf(t)) return true;
    t = clang_getCanonicalType(clang_getArrayElementType(t));
  }
  if (leaf(t)) return true;
  if (t.kind != CXType_Record) return false;
  return depth > 8 || fields_hold(t, leaf, depth);
}

static bool is_pointer_part(CXType t) { return t.kind == CXType_Pointer || t.kind == CXType_BlockPointer; }

static bool is_const_part(CXType t) { return clang_isConstQualifiedType(t) != 0; }

static void classify_type(Parser *p, CXCursor decl, CVar *v) {
  CXType t = clang_getCursorType(decl);
  CXType ct = clang_getCanonicalType(t);
  v->holds_pointer = type_holds(ct, is_pointer_part, 0);
  /* C++ assigns no struct with a const member (the CollectiveDP context copies structs) */
  v->const_member = ct.kind == CXType_Record && fields_hold(ct, is_const_part, 0);
  if (ct.kind == CXType_IncompleteArray && clang_getCursorKind(decl) == CXCursor_VarDecl) {
    /* `extern double a[];`: a definition in this file, before or after,
     * gives the size */
    CXCursor def = clang_getCursorDefinition(decl);
    if (!clang_Cursor_isNull(def)) t = clang_getCursorType(def), ct = clang_getCanonicalType(t);
  }
  v->type = type_text(t);
  v->is_const = clang_isConstQualifiedType(ct) != 0;
  v->elem_size = -1;
  if (ct.kind == CXType_IncompleteArray && clang_getCursorKind(decl) == CXCursor_VarDecl) {
    /* without one, the array is reached through its address, as a pointer is */
    CXType et = clang_getArrayElementType(ct);
    v->tkind = VT_POINTER;
    v->elem_type = type_text(et);
    free(v->type);
    v->type = xasprintf("%s *", v->elem_type);
    long long sz = clang_Type_getSizeOf(et);
    v->elem_size = sz > 0 ? sz : -1;
    return;
  }
  if (classify_array_param(p, decl, v, ct)) return;
  if (ct.kind == CXType_Pointer) {
    CXType pt = clang_getPointeeType(t), cpt = clang_getCanonicalType(pt);
    if (cpt.kind == CXType_VariableArray || cpt.kind == CXType_ConstantArray) {
      vla_view(p, decl, v, cpt, 0);
      return;
    }
    v->is_fn_pointer = cpt.kind == CXType_FunctionProto || cpt.kind == CXType_FunctionNoProto;
    v->tkind = v->is_fn_pointer ? VT_OTHER : VT_POINTER;
    v->elem_type = type_text(pt);
    long long sz = clang_Type_getSizeOf(pt);
    v->elem_size = sz > 0 ? sz : -1;
    return;
  }
  v->is_vla = ct.kind == CXType_VariableArray && !vla_sizes_fold(decl);
  if (ct.kind == CXType_ConstantArray) {
    v->tkind = VT_ARRAY;
    CXType et = ct;
    while (et.kind == CXType_ConstantArray) {
      if (v->ndims < MAX_DIMS) v->dims[v->ndims++] = clang_getArraySize(et);
      et = clang_getArrayElementType(et);
    }
    if (et.kind == CXType_VariableArray || et.kind == CXType_IncompleteArray) v->tkind = VT_OTHER;
    v->elem_type = type_text(et);
    v->elem_size = clang_Type_getSizeOf(et);
    return;
  }
  if (is_scalar_kind(ct.kind)) {
    v->tkind = VT_SCALAR;
    v->is_float = is_float_kind(ct.kind);
    if (v->is_const && !v->is_float && clang_getCursorKind(decl) == CXCursor_VarDecl) {
      /* `const int K = 4;`: C++ takes K as a constant (`double t[K]`) only if
       * a copy of it keeps the initializer */
      CXEvalResult r = clang_Cursor_Evaluate(decl);
      if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
        unsigned long long u = clang_EvalResult_getAsUnsigned(r);
        if (!clang_EvalResult_isUnsignedInt(r)) v->has_value = true, v->value = clang_EvalResult_getAsLongLong(r);
        else if (u <= (unsigned long long)LLONG_MAX) v->has_value = true, v->value = (long long)u;
      }
      if (r) clang_EvalResult_dispose(r);
    }
    v->elem_type = xstrdup(v->type);
    v->elem_size = clang_Type_getSizeOf(t);
    return;
  }
  v->tkind = ct.kind == CXType_Record ? VT_RECORD : VT_OTHER;
  v->elem_type = xstrdup(v->type);
  v->elem_size = clang_Type_getSizeOf(t);
}

/* The CVar for a VarDecl/ParmVarDecl cursor, created on first sight. */
static CVar *var_for(Parser *p, CXCursor decl) {
  decl = clang_getCanonicalCursor(decl);
  for (int i = 0; i < p->tu->nvars; i++)
    if (clang_equalCursors(p->var_cursors[i], decl)) return p->tu->vars[i];
  CVar *v = xcalloc(1, sizeof *v);
  v->name = cx_to_str(clang_getCursorSpelling(decl));
  v->loc = cursor_loc(p, decl);
  v->decl_offset = v->loc.offset;
  v->is_param = clang_getCursorKind(decl) == CXCursor_ParmDecl;
  if (v->is_param && !cursor_range(p, decl, &v->decl_begin, &v->decl_end)) v->decl_begin = v->decl_end = 0;
  CXCursor parent = clang_getCursorSemanticParent(decl);
  v->is_global = clang_getCursorKind(parent) == CXCursor_TranslationUnit;
  enum CX_StorageClass sc = clang_Cursor_getStorageClass(decl);
  v->is_static = sc == CX_SC_Static;
  if (sc == CX_SC_Extern) v->is_global = true;
  classify_type(p, decl, v);
  v->type_ref = hidden_type_ref(p, clang_getCursorType(decl), v->loc);
  if (p->tu->nvars == p->var_cap) { /* var_cursors grows with tu->vars */
    int cap = p->var_cap ? 2 * p->var_cap : 16;
    p->var_cursors = xrealloc(p->var_cursors, (size_t)cap * sizeof *p->var_cursors);
    p->tu->vars = xrealloc(p->tu->vars, (size_t)cap * sizeof *p->tu->vars);
    p->var_cap = cap;
  }
  p->var_cursors[p->tu->nvars] = decl;
  p->tu->vars[p->tu->nvars++] = v;
  return v;
}

/* ---- expressions: uses, writes, calls ------------------------------------ */

static int has_offset(const unsigned *a, int n, unsigned off) {
  for (int i = n - 1; i >= 0; i--)
    if (a[i] == off) return 1;
  return 0;
}

/* Follows parens and implicit wrappers down to the expression that names
 * storage: returns the DeclRefExpr's offset, and whether an element or
 * member access (a[i], s.x, *p) was passed through. */
typedef struct LvalueInfo {
  int found;
  unsigned offset;
  int through_elem;
} LvalueInfo;

static enum CXChildVisitResult first_child_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

static CXCursor first_child(CXCursor c) {
  CXCursor r = clang_getNullCursor();
  clang_visitChildren(c, first_child_cb, &r);
  return r;
}

/* The macro whose expansion node c starts in (libclang places the tokens
 * of a macro's body at its invocation, those of its arguments where they
 * are written), or NULL; *from_body: c's first token is in the body. */
static const char *invoked_macro(Parser *p, CXCursor c, int *from_body) {
  CXSourceLocation l = clang_getRangeStart(clang_getCursorExtent(c));
  if (clang_Location_isFromMainFile(l)) return NULL;
  CXFile f, ff;
  unsigned line, col, off, foff;
  clang_getExpansionLocation(l, &f, &line, &col, &off);
  clang_getFileLocation(l, &ff, &line, &col, &foff);
  if (!f || !ff || !clang_File_isEqual(f, p->file)) return NULL;
  int i = tok_first_at(&p->toks, off);
  if (i >= p->toks.n || p->toks.t[i].begin != off || p->toks.t[i].kind != TK_IDENT) return NULL;
  *from_body = foff == off;
  return p->toks.t[i].spell;
}

static const char *body_macro(Parser *p, CXCursor c) {
  int from_body = 0;
  const char *m = invoked_macro(p, c, &from_body);
  return from_body ? m : NULL;
}

/* The written places of node c's first and last tokens: the file for plain
 * code and macro arguments (cursor_range gives the invocation for those). */
static int token_range(Parser *p, CXCursor c, unsigned *b, unsigned *e) {
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile fb, fe;
  unsigned line, col;
  clang_getFileLocation(clang_getRangeStart(r), &fb, &line, &col, b);
  clang_getFileLocation(clang_getRangeEnd(r), &fe, &line, &col, e);
  return fb && fe && clang_File_isEqual(fb, p->file) && clang_File_isEqual(fe, p->file) && *b <= *e;
}

/* Is unary operator c the operator op (prefix, or postfix) as written? */
static int unary_is(Parser *p, CXCursor c, const char *op, int postfix) {
  unsigned b, e;
  if (!token_range(p, c, &b, &e)) return 0;
  int i = postfix ? tok_last_before(&p->toks, e) : tok_first_at(&p->toks, b);
  return i >= 0 && i < p->toks.n && tok_is(&p->toks.t[i], op);
}

/* Does unary operator c take its operand's address (by the types: T* of a T)? */
static int takes_address(CXCursor c) {
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  CXType o = clang_getCanonicalType(clang_getCursorType(first_child(c)));
  return t.kind == CXType_Pointer && clang_equalTypes(clang_getCanonicalType(clang_getPointeeType(t)), o);
}

static LvalueInfo lvalue_root(Parser *p, CXCursor c) {
  LvalueInfo li = {0, 0, 0};
  for (int guard = 0; guard < 64 && !clang_Cursor_isNull(c); guard++) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr) {
      unsigned use;
      if (ref_offsets(p, clang_getCursorLocation(c), &use, &li.offset)) li.found = 1;
      return li;
    }
    if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr) li.through_elem = 1;
    else if (k == CXCursor_UnaryOperator) {
      if (unary_is(p, c, "*", 0) || body_macro(p, c)) li.through_elem = 1; /* only `*` gives an lvalue */
      else return li;
    } else if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr)
      return li;
    c = first_child(c);
  }
  return li;
}

/* A member access whose value is a pointer (s.p, sp->p, a[i].p): the
 * variable it starts from holds a host address inside its bytes, which a
 * device copy of those bytes cannot follow. */
static void note_ptr_member(Parser *p, CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_MemberRefExpr) return;
  if (clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Pointer) return;
  LvalueInfo li = lvalue_root(p, first_child(c));
  if (li.found) VEC_PUSH(p->ptr_members, p->nptr_members, p->ptr_members_cap, li.offset);
}

static void mark_root(Parser *p, LvalueInfo li) {
  if (!li.found) return;
  if (li.through_elem) VEC_PUSH(p->elem_writes, p->nelem_writes, p->elem_writes_cap, li.offset);
  else VEC_PUSH(p->writes, p->nwrites, p->writes_cap, li.offset);
}

static void mark_lvalue(Parser *p, CXCursor lhs) { mark_root(p, lvalue_root(p, lhs)); }

static int is_assign_op(const Token *t) {
  static const char *ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
  for (size_t i = 0; t && i < sizeof ops / sizeof *ops; i++)
    if (tok_is(t, ops[i])) return 1;
  return 0;
}

/* The expression under parens and implicit conversions. */
static CXCursor strip_wrappers(CXCursor c) {
  for (int guard = 0; guard < 16 && !clang_Cursor_isNull(c); guard++) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr) break;
    c = first_child(c);
  }
  return c;
}

/* Is binary operator c a plain assignment? The token after its left
 * operand says, unless the operator is in a macro's body. */
static int is_assignment(Parser *p, CXCursor c) {
  const char *m = body_macro(p, c);
  if (m) return (mo_macro_writes(&p->macros, m) & MO_ASSIGN) != 0;
  CXCursor lhs = first_child(c);
  unsigned b, e;
  if (clang_Cursor_isNull(lhs) || !token_range(p, lhs, &b, &e)) return 0;
  int i = tok_first_at(&p->toks, e);
  if (i < p->toks.n && is_assign_op(&p->toks.t[i])) return 1;
  /* `x = v` in `#define SET(x, v) x = (v)`: the left operand is an argument,
   * the operator in the body, so the next written token ends the argument */
  const char *after = i < p->toks.n ? p->toks.t[i].spell : "", *arg_of;
  int from_body = 0;
  if ((!strcmp(after, ",") || !strcmp(after, ")")) && (arg_of = invoked_macro(p, c, &from_body)))
    return (mo_macro_writes(&p->macros, arg_of) & MO_ASSIGN) != 0;
  return 0;
}

/* Records writes for an assignment or ++/--/& node (visited before its operands). */
static void note_write(Parser *p, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CompoundAssignOperator || (k == CXCursor_BinaryOperator && is_assignment(p, c))) {
    mark_lvalue(p, first_child(c));
  } else if (k == CXCursor_UnaryOperator) {
    unsigned b, e;
    const char *m = body_macro(p, c);
    int addr = m ? takes_address(c) : unary_is(p, c, "&", 0);
    if (addr) {
      LvalueInfo li = lvalue_root(p, first_child(c));
      if (li.found) VEC_PUSH(p->addrs, p->naddrs, p->addrs_cap, li.offset);
      if (!cursor_range(p, c, &b, &e) || !has_offset(p->const_addrs, p->nconst_addrs, b)) mark_root(p, li);
    } else if (unary_is(p, c, "++", 0) || unary_is(p, c, "--", 0) || unary_is(p, c, "++", 1) ||
               unary_is(p, c, "--", 1) || (m && (mo_macro_writes(&p->macros, m) & MO_INCDEC)))
      mark_lvalue(p, first_child(c));
  }
}

/* Arguments `&x` of a direct call whose parameter points to const: the callee
 * only reads x, so the address does not count as a write (visited before the
 * arguments). */
static void note_const_args(Parser *p, CXCursor call) {
  CXCursor fn = clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(fn) || clang_getCursorKind(fn) != CXCursor_FunctionDecl) return;
  CXType ft = clang_getCursorType(fn);
  int nparams = clang_getNumArgTypes(ft), nargs = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < nargs && i < nparams; i++) {
    CXType pt = clang_getCanonicalType(clang_getArgType(ft, (unsigned)i));
    if (pt.kind != CXType_Pointer || !clang_isConstQualifiedType(clang_getPointeeType(pt))) continue;
    CXCursor a = strip_wrappers(clang_Cursor_getArgument(call, (unsigned)i));
    unsigned b, e;
    if (clang_getCursorKind(a) != CXCursor_UnaryOperator || !cursor_range(p, a, &b, &e)) continue;
    int t = tok_first_at(&p->toks, b);
    if (t < p->toks.n && tok_is(&p->toks.t[t], "&")) VEC_PUSH(p->const_addrs, p->nconst_addrs, p->const_addrs_cap, b);
  }
}

/* Cursors of one node reached by two walks can differ in their parent
 * data: the kind and the extent say whether they are the same node. */
static bool same_node(CXCursor a, CXCursor b) {
  return clang_getCursorKind(a) == clang_getCursorKind(b) &&
         clang_equalRanges(clang_getCursorExtent(a), clang_getCursorExtent(b));
}

static bool array_typed(CXCursor c) {
  enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(c)).kind;
  return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray;
}

/* An array (loc, s.a, m[i] of a 2D m) converted to a pointer (an implicit
 * cast, node c under parent) that is not just indexed (loc[i], *loc): the
 * address of the variable's storage becomes a value, which may reach
 * anything (a pointer a task holds, a call). */
static void note_decay(Parser *p, CXCursor c, CXCursor parent) {
  if (clang_getCursorKind(c) != CXCursor_UnexposedExpr) return;
  if (clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Pointer) return;
  CXCursor arr = strip_wrappers(first_child(c));
  if (clang_Cursor_isNull(arr) || !array_typed(arr)) return;
  enum CXCursorKind pk = clang_getCursorKind(parent);
  if (pk == CXCursor_ArraySubscriptExpr && same_node(first_child(parent), c)) return; /* the base, not 0[loc] */
  if (pk == CXCursor_UnaryOperator && unary_is(p, parent, "*", 0)) return;
  LvalueInfo li = lvalue_root(p, arr);
  if (li.found) VEC_PUSH(p->decays, p->ndecays, p->decays_cap, li.offset);
}

typedef struct UseCollector {
  Parser *p;
  Stmt *s;
  int uses_cap, calls_cap, reads_cap, names_cap;
} UseCollector;

/* The variable a DeclRefExpr names, or NULL. */
static CVar *ref_var(Parser *p, CXCursor c) {
  if (clang_Cursor_isNull(c) || clang_getCursorKind(c) != CXCursor_DeclRefExpr) return NULL;
  CXCursor decl = clang_getCursorReferenced(c);
  enum CXCursorKind dk = clang_getCursorKind(decl);
  return dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl ? var_for(p, decl) : NULL;
}

static enum CXChildVisitResult second_child_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  CXCursor *r = d;
  if (clang_Cursor_isNull(r[0])) {
    r[0] = c;
    return CXChildVisit_Continue;
  }
  r[1] = c;
  return CXChildVisit_Break;
}

/* Records `a[v]` (a subscript expression c) when it is read, a and v are
 * variables and its text is exactly what the cursor says (not from a macro). */
static void note_elem_read(UseCollector *uc, CXCursor c) {
  Parser *p = uc->p;
  CXCursor kids[2] = {clang_getNullCursor(), clang_getNullCursor()};
  clang_visitChildren(c, second_child_cb, kids);
  CXCursor base = strip_wrappers(kids[0]);
  CVar *a = ref_var(p, base), *v = ref_var(p, strip_wrappers(kids[1]));
  unsigned b, e;
  if (!a || !v || !cursor_range(p, c, &b, &e)) return;
  long boff = loc_offset(p, clang_getCursorLocation(base));
  if (boff < 0 || has_offset(p->elem_writes, p->nelem_writes, (unsigned)boff) || has_offset(p->writes, p->nwrites, (unsigned)boff))
    return;
  const char *t = p->tu->file->text;
  size_t len = strlen(a->name);
  if (b != (unsigned)boff || e - b <= len || strncmp(t + b, a->name, len) || t[e - 1] != ']') return;
  ElemRead r = {a, v, b, e};
  VEC_PUSH(uc->s->elem_reads, uc->s->nelem_reads, uc->reads_cap, r);
}

static void add_use(UseCollector *uc, CXCursor ref, CXCursor decl) {
  Parser *p = uc->p;
  unsigned off, key;
  if (!ref_offsets(p, clang_getCursorLocation(ref), &off, &key)) return; /* from another file's macro */
  VarUse u = {var_for(p, decl), srcfile_loc(p->tu->file, off), false, false, false, false, false};
  u.write = has_offset(p->writes, p->nwrites, key) != 0;
  u.elem_write = has_offset(p->elem_writes, p->nelem_writes, key) != 0;
  u.ptr_member = has_offset(p->ptr_members, p->nptr_members, key) != 0;
  u.addr_taken = has_offset(p->addrs, p->naddrs, key) != 0;
  u.decays = has_offset(p->decays, p->ndecays, key) != 0;
  VEC_PUSH(uc->s->uses, uc->s->nuses, uc->uses_cap, u);
}

/* A type with a run-time array size in it, `double (*)[m]`: C has such
 * types, C++ (the .gt.cu) does not. */
static bool variably_modified(CXType t) {
  t = clang_getCanonicalType(t);
  for (int guard = 0; guard < 16; guard++) {
    if (t.kind == CXType_VariableArray) return true;
    if (t.kind == CXType_Pointer) t = clang_getCanonicalType(clang_getPointeeType(t));
    else if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
      t = clang_getCanonicalType(clang_getArrayElementType(t));
    else return false;
  }
  return false;
}

/* The C construct CUDA C++ has no form of that c is, or NULL. */
static const char *c_only_construct(CXCursor c, enum CXCursorKind k) {
  if (k == CXCursor_GenericSelectionExpr) return "_Generic";
  bool decl = k == CXCursor_VarDecl || k == CXCursor_ParmDecl;
  if (decl && clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Complex) return "_Complex";
  return NULL;
}

/* Is c a sizeof whose value is not a constant, i.e. of a variable-length
 * array (in the .gt.cu the array is a view and sizeof a pointer's)? */
static bool vla_sizeof(Parser *p, CXCursor c) {
  long off = loc_offset(p, clang_getCursorLocation(c));
  if (off < 0 || strncmp(p->tu->file->text + off, "sizeof", 6) != 0) return false;
  CXEvalResult r = clang_Cursor_Evaluate(c);
  bool constant = r && clang_EvalResult_getKind(r) == CXEval_Int;
  if (r) clang_EvalResult_dispose(r);
  return !constant;
}

/* Names in c that the .gt.cu may lack or not compile, should c reach it. */
static void note_names(UseCollector *uc, CXCursor c) {
  Stmt *s = uc->s;
  note_cxx_keyword(uc->p, c, &s->names, &s->nnames, &uc->names_cap);
  enum CXCursorKind k = clang_getCursorKind(c);
  const char *c_only = c_only_construct(c, k);
  if (c_only) {
    SrcLoc at = cursor_loc(uc->p, c);
    NameRef r = {NR_C_ONLY, xstrdup(c_only), at, 0, false}; /* reported once per construct */
    VEC_PUSH(s->names, s->nnames, uc->names_cap, r);
    return;
  }
  if (k == CXCursor_UnaryExpr && vla_sizeof(uc->p, c)) {
    SrcLoc at = cursor_loc(uc->p, c);
    NameRef r = {NR_VLA_SIZEOF, xstrdup("sizeof"), at, at.offset, false};
    VEC_PUSH(s->names, s->nnames, uc->names_cap, r);
    return;
  }
  if ((k == CXCursor_CStyleCastExpr || k == CXCursor_CompoundLiteralExpr) && variably_modified(clang_getCursorType(c))) {
    SrcLoc at = cursor_loc(uc->p, c);
    NameRef r = {NR_VLA_TYPE, cx_to_str(clang_getTypeSpelling(clang_getCursorType(c))), at, at.offset, false};
    VEC_PUSH(s->names, s->nnames, uc->names_cap, r);
    return;
  }
  if (k != CXCursor_TypeRef && k != CXCursor_DeclRefExpr) return;
  CXCursor d = clang_getCursorReferenced(c);
  enum CXCursorKind dk = clang_getCursorKind(d);
  if (k == CXCursor_DeclRefExpr && dk != CXCursor_EnumConstantDecl) return;
  NameRef r;
  if (hidden_ref(uc->p, d, cursor_loc(uc->p, c), &r)) VEC_PUSH(s->names, s->nnames, uc->names_cap, r);
}

static enum CXChildVisitResult collect_cb(CXCursor c, CXCursor parent, CXClientData d) {
  UseCollector *uc = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CallExpr) note_const_args(uc->p, c);
  note_write(uc->p, c);
  note_decay(uc->p, c, parent);
  note_ptr_member(uc->p, c);
  note_names(uc, c);
  if (k == CXCursor_ArraySubscriptExpr) note_elem_read(uc, c);
  if (k == CXCursor_DeclRefExpr) {
    CXCursor decl = clang_getCursorReferenced(c);
    enum CXCursorKind dk = clang_getCursorKind(decl);
    if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) add_use(uc, c, decl);
    else if (dk == CXCursor_FunctionDecl) {
      CallUse cu = {cx_to_str(clang_getCursorSpelling(decl)), cursor_loc(uc->p, c), NULL};
      VEC_PUSH(uc->s->calls, uc->s->ncalls, uc->calls_cap, cu);
    }
  } else if (k == CXCursor_VarDecl) {
    /* A declaration inside an expression context (for-init, decl statement). */
    CVar *v = var_for(uc->p, c);
    int cap = uc->s->ndecls;
    VEC_PUSH(uc->s->decls, uc->s->ndecls, cap, v);
  }
  return CXChildVisit_Recurse;
}

/* Collects uses/calls/decls from the subtree of c into s. */
static void collect_uses(Parser *p, Stmt *s, CXCursor c, int include_self) {
  UseCollector uc = {p, s, s->nuses, s->ncalls, s->nelem_reads, s->nnames};
  if (include_self) collect_cb(c, clang_getNullCursor(), &uc);
  clang_visitChildren(c, collect_cb, &uc);
}

/* ---- expression shapes (atomic constructs) -------------------------------- */

static ValueClass value_class(CXType t) {
  t = clang_getCanonicalType(t);
  long long size = clang_Type_getSizeOf(t);
  switch (t.kind) {
  case CXType_Int: case CXType_UInt: case CXType_Long: case CXType_ULong: case CXType_LongLong:
  case CXType_ULongLong:
    return size == 4 ? VC_INT32 : size == 8 ? VC_INT64 : VC_OTHER;
  case CXType_Float: return VC_FLOAT;
  case CXType_Double: return VC_DOUBLE;
  default: return VC_OTHER;
  }
}

/* The variable an lvalue starts from, and whether the lvalue lies in that
 * variable's own storage (v, v.f, v[i] of an array v) rather than behind a
 * pointer (p[i], *p, p->f). */
static void lvalue_shape(Parser *p, CXCursor c, ExprShape *e) {
  e->root_storage = true;
  for (int guard = 0; guard < 64 && !clang_Cursor_isNull(c); guard++) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr) {
      e->root = ref_var(p, c);
      return;
    }
    if (k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr) {
      CXCursor base = strip_wrappers(first_child(c));
      enum CXTypeKind bk = clang_getCanonicalType(clang_getCursorType(base)).kind;
      if (bk == CXType_Pointer) e->root_storage = false;
      c = base;
    } else if (k == CXCursor_UnaryOperator) {
      e->root_storage = false;
      c = first_child(c);
    } else if (k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr)
      c = first_child(c);
    else
      return;
  }
}

static bool is_binop(const char *t) {
  static const char *ops[] = {"+", "-", "*", "/", "&", "|", "^", "<<", ">>", "<", ">", "=="};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (!strcmp(t, ops[i])) return true;
  return false;
}

static void set_op(ExprShape *e, const Token *t) {
  e->op_begin = t->begin, e->op_end = t->end;
  snprintf(e->op, sizeof e->op, "%s", strlen(t->spell) < sizeof e->op ? t->spell : "");
}

typedef struct ThreeKids {
  CXCursor *c;
  int n;
} ThreeKids;

static enum CXChildVisitResult three_kids_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  ThreeKids *tk = d;
  if (tk->n == 3) return CXChildVisit_Break;
  tk->c[tk->n++] = c;
  return CXChildVisit_Continue;
}

/* The shape of expression c, its operands down to depth levels. */
static ExprShape *expr_shape(Parser *p, CXCursor c, int depth) {
  ExprShape *e = xcalloc(1, sizeof *e);
  e->form = EF_OTHER;
  if (!cursor_range(p, c, &e->begin, &e->end)) return e;
  CXCursor in = strip_wrappers(c);
  enum CXCursorKind k = clang_getCursorKind(in);
  CXType type = clang_getCursorType(in);
  e->vclass = value_class(type);
  e->type = type_text(type);
  CXCursor kids[2] = {clang_getNullCursor(), clang_getNullCursor()};
  clang_visitChildren(in, second_child_cb, kids);
  if (k == CXCursor_DeclRefExpr || k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr ||
      (k == CXCursor_UnaryOperator && unary_is(p, in, "*", 0))) {
    e->form = EF_LVALUE;
    lvalue_shape(p, in, e);
    return e;
  }
  /* Operators are found as written tokens next to their operands; one in a
   * macro's body (`#define BUMP(v) v++`) is not written here and is not found. */
  int from_body = 0;
  const char *m = invoked_macro(p, in, &from_body);
  if (m) e->macro = xstrdup(m); /* it starts inside an invocation of m */
  if (depth <= 0) return e;
  if (k == CXCursor_UnaryOperator && !clang_Cursor_isNull(kids[0])) {
    ExprShape *a = expr_shape(p, kids[0], depth - 1);
    int first = tok_first_at(&p->toks, e->begin), last = tok_last_before(&p->toks, e->end);
    const Token *t = NULL;
    if (first < p->toks.n && p->toks.t[first].end <= a->begin &&
        (tok_is(&p->toks.t[first], "++") || tok_is(&p->toks.t[first], "--")))
      e->form = EF_PRE, t = &p->toks.t[first];
    else if (last >= 0 && p->toks.t[last].begin >= a->end &&
             (tok_is(&p->toks.t[last], "++") || tok_is(&p->toks.t[last], "--")))
      e->form = EF_POST, t = &p->toks.t[last];
    if (!t || a->end <= a->begin) {
      e->form = EF_OTHER;
      fe_free_shape(a);
      return e;
    }
    set_op(e, t);
    e->a = a;
    return e;
  }
  if (k == CXCursor_ConditionalOperator) {
    CXCursor three[3];
    ThreeKids tk = {three, 0};
    clang_visitChildren(in, three_kids_cb, &tk);
    if (tk.n != 3) return e;
    ExprShape *cond = expr_shape(p, three[0], depth - 1), *t = expr_shape(p, three[1], depth - 1),
              *f = expr_shape(p, three[2], depth - 1);
    int q = tok_first_at(&p->toks, cond->end), colon = tok_first_at(&p->toks, t->end);
    if (cond->end > cond->begin && t->end > t->begin && f->end > f->begin && q < p->toks.n &&
        tok_is(&p->toks.t[q], "?") && p->toks.t[q].end <= t->begin && colon < p->toks.n &&
        tok_is(&p->toks.t[colon], ":") && p->toks.t[colon].end <= f->begin) {
      e->form = EF_COND;
      set_op(e, &p->toks.t[q]);
      e->a = cond, e->b = t, e->c = f;
    } else
      fe_free_shape(cond), fe_free_shape(t), fe_free_shape(f);
    return e;
  }
  if ((k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator) || clang_Cursor_isNull(kids[1])) return e;
  ExprShape *a = expr_shape(p, kids[0], depth - 1), *b = expr_shape(p, kids[1], depth - 1);
  int i = tok_first_at(&p->toks, a->end);
  const Token *t = i < p->toks.n ? &p->toks.t[i] : NULL;
  ExprForm f = EF_OTHER;
  if (!t || a->end <= a->begin || b->end <= b->begin || t->end > b->begin) f = EF_OTHER;
  else if (k == CXCursor_CompoundAssignOperator && is_assign_op(t)) f = EF_OPASSIGN;
  else if (tok_is(t, "=")) f = EF_ASSIGN;
  else if (is_binop(t->spell)) f = EF_BINARY;
  if (f == EF_OTHER) {
    fe_free_shape(a), fe_free_shape(b);
    return e;
  }
  e->form = f;
  set_op(e, t);
  e->a = a;
  e->b = b;
  return e;
}

/* The first tokens after each `acc atomic` / `omp atomic` line. */
static void find_atomic_starts(Parser *p) {
  for (int i = 0; i < p->tu->npragmas; i++) {
    const PragmaLine *pl = &p->tu->pragmas[i];
    if (pl->macro || !fe_pragma_is_atomic(pl)) continue;
    int k = tok_first_at(&p->toks, pl->end_offset);
    while (k < p->toks.n && p->toks.t[k].kind == TK_COMMENT) k++;
    if (k < p->toks.n) VEC_PUSH(p->atomic_starts, p->natomic_starts, p->atomic_starts_cap, p->toks.t[k].begin);
  }
}

/* An expression statement after an atomic directive, or in the block after one. */
static bool after_atomic(const Parser *p, const Stmt *s) {
  /* the statement itself, an item of the block after one, or the branch of
   * the if after one (atomic compare), braces or not */
  for (int up = 0; s && up < 3; up++, s = s->parent)
    if (has_offset(p->atomic_starts, p->natomic_starts, s->begin)) return true;
  return false;
}

/* ---- statements ---------------------------------------------------------- */

static Stmt *build_stmt(Parser *p, CXCursor c, Stmt *parent, Function *fn);

typedef struct ChildList {
  CXCursor *c;
  int n, cap;
} ChildList;

static enum CXChildVisitResult list_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  ChildList *l = d;
  VEC_PUSH(l->c, l->n, l->cap, c);
  return CXChildVisit_Continue;
}

static ChildList children(CXCursor c) {
  ChildList l = {NULL, 0, 0};
  clang_visitChildren(c, list_cb, &l);
  return l;
}

static StmtKind stmt_kind(CXCursor c) {
  switch (clang_getCursorKind(c)) {
  case CXCursor_ForStmt: return ST_FOR;
  case CXCursor_CompoundStmt: return ST_COMPOUND;
  case CXCursor_IfStmt: return ST_IF;
  case CXCursor_WhileStmt: return ST_WHILE;
  case CXCursor_DoStmt: return ST_DO;
  case CXCursor_SwitchStmt: return ST_SWITCH;
  case CXCursor_DeclStmt: return ST_DECL;
  case CXCursor_ReturnStmt: return ST_RETURN;
  case CXCursor_BreakStmt: return ST_BREAK;
  case CXCursor_ContinueStmt: return ST_CONTINUE;
  case CXCursor_GotoStmt: return ST_GOTO;
  case CXCursor_LabelStmt: case CXCursor_CaseStmt: case CXCursor_DefaultStmt: return ST_LABEL;
  case CXCursor_NullStmt: return ST_NULL;
  default: return clang_isExpression(clang_getCursorKind(c)) ? ST_EXPR : ST_OTHER;
  }
}

/* Statements whose clang extent stops before their ';'. */
static int ends_before_semicolon(StmtKind k) {
  return k == ST_EXPR || k == ST_RETURN || k == ST_BREAK || k == ST_CONTINUE || k == ST_GOTO || k == ST_DO ||
         k == ST_OTHER;
}

static void add_kid(Stmt *s, Stmt *kid, int *cap) { VEC_PUSH(s->kids, s->nkids, *cap, kid); }

/* The constant start of a loop (`int i = 0`, `i = lo` with lo foldable);
 * kids: init, cond, inc, body. */
static bool const_start(const ChildList *kids, long long *lb) {
  ChildList init = children(kids->c[0]);
  bool ok = clang_getCursorKind(kids->c[0]) == CXCursor_DeclStmt ? init.n == 1 && eval_int(init.c[0], lb)
                                                                  : init.n == 2 && eval_int(init.c[1], lb);
  free(init.c);
  return ok;
}

static int unsigned_kind(enum CXTypeKind k) {
  return k == CXType_UInt || k == CXType_ULong || k == CXType_ULongLong || k == CXType_UInt128;
}

/* `for (int d = lo; d <= r; d++)` with unsigned r: C compares d as
 * unsigned, so a negative start is a huge value and the loop runs no times,
 * where a signed trip count would give r - lo + 1. The bound becomes one
 * that says so: ((lo) < 0 ? lo - 1 : r) (after loop_trip, whose constant
 * count it corrects). Descending loops are left alone (C's would not end). */
static void loop_sign_mix(const ChildList *kids, ForLoop *L) {
  if (!L->canonical || kids->n != 4 || (L->relop != REL_LT && L->relop != REL_LE) || !L->step_is_const ||
      L->step_value <= 0 || !L->lb.text || !L->ub.text)
    return;
  ChildList cond = children(kids->c[1]);
  bool mixed = false;
  for (int i = 0; i < cond.n && cond.n == 2 && !mixed; i++) /* the loop variable, as the comparison converts it */
    mixed = clang_getCursorKind(strip_wrappers(cond.c[i])) == CXCursor_DeclRefExpr &&
            unsigned_kind(clang_getCanonicalType(clang_getCursorType(cond.c[i])).kind) &&
            !unsigned_kind(clang_getCanonicalType(clang_getCursorType(strip_wrappers(cond.c[i]))).kind);
  free(cond.c);
  if (!mixed) return;
  long long lb;
  if (const_start(kids, &lb) && lb >= 0) return; /* `for (int i = 0; i < size; i++)`: the same either way */
  char *ub = xasprintf("((%s) < 0 ? (long long)(%s) - 1 : (long long)(%s))", L->lb.text, L->lb.text, L->ub.text);
  free(L->ub.text);
  L->ub.text = ub;
  if (L->trip_is_const) L->trip_value = 0; /* a constant start below 0 */
}

/* A canonical loop whose bounds are constants gets its trip count: the
 * transform sizes task workers by it. kids: init, cond, inc, body. */
static void loop_trip(const ChildList *kids, ForLoop *L) {
  if (!L->canonical || !L->step_is_const || kids->n != 4) return;
  long long lb = 0, ub = 0, b0 = 0, b1 = 0;
  ChildList cond = children(kids->c[1]);
  bool ok = const_start(kids, &lb);
  if (ok && cond.n == 2) {
    bool c0 = eval_int(cond.c[0], &b0), c1 = eval_int(cond.c[1], &b1);
    ok = c0 != c1; /* one side is the loop variable */
    ub = c0 ? b0 : b1;
  } else ok = false;
  free(cond.c);
  const long long lim = 1LL << 60, st = L->step_value;
  if (!ok || lb < -lim || lb > lim || ub < -lim || ub > lim || st < -lim || st > lim) return;
  long long n = 0;
  switch (L->relop) {
  case REL_LT: n = ub > lb ? (ub - lb + st - 1) / st : 0; break;
  case REL_LE: n = ub >= lb ? (ub - lb) / st + 1 : 0; break;
  case REL_GT: n = lb > ub ? (lb - ub - st - 1) / -st : 0; break;
  case REL_GE: n = lb >= ub ? (lb - ub) / -st + 1 : 0; break;
  }
  L->trip_is_const = true;
  L->trip_value = n;
}

static Stmt *build_stmt(Parser *p, CXCursor c, Stmt *parent, Function *fn) {
  Stmt *s = xcalloc(1, sizeof *s);
  s->kind = stmt_kind(c);
  s->parent = parent;
  s->func = fn;
  if (!cursor_range(p, c, &s->begin, &s->end)) s->begin = s->end = parent ? parent->begin : 0;
  if (ends_before_semicolon(s->kind)) {
    int i = tok_first_at(&p->toks, s->end);
    if (i < p->toks.n && tok_is(&p->toks.t[i], ";")) s->end = p->toks.t[i].end;
  }
  s->loc = srcfile_loc(p->tu->file, s->begin);
  ChildList kids = children(c);
  int kcap = 0;
  switch (s->kind) {
  case ST_COMPOUND:
    for (int i = 0; i < kids.n; i++) add_kid(s, build_stmt(p, kids.c[i], s, fn), &kcap);
    break;
  case ST_FOR: /* init?, cond?, inc?: own expressions; the last child is the body */
    for (int i = 0; i + 1 < kids.n; i++) collect_uses(p, s, kids.c[i], 1);
    if (kids.n > 0) add_kid(s, build_stmt(p, kids.c[kids.n - 1], s, fn), &kcap);
    s->loop = fe_canonical_loop(p->tu, &p->toks, s);
    loop_trip(&kids, s->loop);
    loop_sign_mix(&kids, s->loop);
    break;
  case ST_IF: /* cond, then, else? */
  case ST_WHILE:
  case ST_SWITCH:
    if (kids.n > 0) collect_uses(p, s, kids.c[0], 1);
    if (s->kind == ST_IF && kids.n > 0 && after_atomic(p, s)) s->shape = expr_shape(p, kids.c[0], 2);
    for (int i = 1; i < kids.n; i++) add_kid(s, build_stmt(p, kids.c[i], s, fn), &kcap);
    break;
  case ST_DO: /* body, cond */
    if (kids.n > 0) add_kid(s, build_stmt(p, kids.c[0], s, fn), &kcap);
    for (int i = 1; i < kids.n; i++) collect_uses(p, s, kids.c[i], 1);
    break;
  case ST_LABEL: /* case expr?, body (the last child) */
    for (int i = 0; i + 1 < kids.n; i++) collect_uses(p, s, kids.c[i], 1);
    if (kids.n > 0) add_kid(s, build_stmt(p, kids.c[kids.n - 1], s, fn), &kcap);
    break;
  default:
    collect_uses(p, s, c, s->kind == ST_EXPR);
    if (s->kind == ST_EXPR && after_atomic(p, s)) s->shape = expr_shape(p, c, 4);
  }
  free(kids.c);
  /* `for (...) x = 1;`: clang's extent stops before the body's ';'. */
  for (int i = 0; i < s->nkids; i++)
    if (s->kids[i]->end > s->end) s->end = s->kids[i]->end;
  return s;
}

/* ---- file scope ---------------------------------------------------------- */

static void add_top(Parser *p, TopKind kind, CXCursor c, unsigned b, unsigned e) {
  TopDecl t = {kind, cx_to_str(clang_getCursorSpelling(c)), b, e, srcfile_loc(p->tu->file, b), false, -1};
  if (kind == TOP_INCLUDE) {
    /* The include cursor's extent starts at `include`; back up to the `#`. */
    unsigned i = b;
    while (i > 0 && p->tu->file->text[i - 1] != '\n') i--;
    t.begin = i;
    for (unsigned j = b; j < e; j++)
      if (p->tu->file->text[j] == '<') t.system = true;
  } else if (kind == TOP_MACRO) {
    unsigned i = b;
    while (i > 0 && p->tu->file->text[i - 1] != '\n') i--;
    t.begin = i;
  } else {
    int k = tok_first_at(&p->toks, e);
    /* `typedef double d16 __attribute__((aligned(16)));`: the attributes after the extent */
    while (k + 1 < p->toks.n && (tok_is(&p->toks.t[k], "__attribute__") || tok_is(&p->toks.t[k], "__attribute")) &&
           tok_is(&p->toks.t[k + 1], "(")) {
      int depth = 0;
      for (k++; k < p->toks.n; k++) {
        if (tok_is(&p->toks.t[k], "(")) depth++;
        else if (tok_is(&p->toks.t[k], ")") && --depth == 0) break;
      }
      k++;
    }
    if (k < p->toks.n && tok_is(&p->toks.t[k], ";")) t.end = p->toks.t[k].end;
  }
  /* Merge a declaration nested in the previous one (typedef struct {..} T):
   * clang gives the struct first, and the typedef (or `static` of a
   * variable) starts before it. */
  if (p->tu->ntops > 0) {
    TopDecl *prev = &p->tu->tops[p->tu->ntops - 1];
    if (prev->kind == TOP_TYPE && (kind == TOP_TYPE || kind == TOP_VAR) && t.begin < prev->end) {
      if (t.begin < prev->begin) prev->begin = t.begin, prev->loc = t.loc;
      if (t.end > prev->end) prev->end = t.end;
      if (kind == TOP_VAR) prev->kind = TOP_VAR;
      free(t.name);
      return;
    }
  }
  VEC_PUSH(p->tu->tops, p->tu->ntops, p->tops_cap, t);
}

static void build_function(Parser *p, CXCursor c, unsigned b, unsigned e) {
  Function *fn = xcalloc(1, sizeof *fn);
  fn->name = cx_to_str(clang_getCursorSpelling(c));
  fn->loc = cursor_loc(p, c);
  fn->begin = b, fn->end = e;
  fn->is_static = clang_Cursor_getStorageClass(c) == CX_SC_Static;
  ChildList kids = children(c);
  int pcap = 0;
  for (int i = 0; i < kids.n; i++) {
    enum CXCursorKind k = clang_getCursorKind(kids.c[i]);
    if (k == CXCursor_ParmDecl) VEC_PUSH(fn->params, fn->nparams, pcap, var_for(p, kids.c[i]));
    else if (k == CXCursor_CompoundStmt) fn->body = build_stmt(p, kids.c[i], NULL, fn);
  }
  free(kids.c);
  VEC_PUSH(p->tu->funcs, p->tu->nfuncs, p->funcs_cap, fn);
}

static enum CXChildVisitResult top_names_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Parser *p = d;
  TranslationUnit *tu = p->tu;
  note_cxx_keyword(p, c, &tu->top_names, &tu->ntop_names, &p->top_names_cap);
  return CXChildVisit_Recurse;
}

/* C++ keywords a file-scope type declaration c declares: its name, tags,
 * fields, enumerators, parameters of function types. */
static void note_top_names(Parser *p, CXCursor c) {
  top_names_cb(c, clang_getNullCursor(), p);
  clang_visitChildren(c, top_names_cb, p);
}

/* Keeps the top names whose declaration is copied into the .gt.cu: not
 * those merged into a variable's declaration (`struct S {...} g;`). */
static void keep_copied_top_names(TranslationUnit *tu) {
  int n = 0;
  for (int i = 0; i < tu->ntop_names; i++) {
    const TopDecl *t = top_at(tu, tu->top_names[i].loc.offset);
    if (t && t->kind == TOP_TYPE) tu->top_names[n++] = tu->top_names[i];
    else free(tu->top_names[i].name);
  }
  tu->ntop_names = n;
}

static enum CXChildVisitResult enumerator_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Parser *p = d;
  if (clang_getCursorKind(c) == CXCursor_EnumConstantDecl)
    VEC_PUSH(p->tu->enumerators, p->tu->nenumerators, p->enumerators_cap, cx_to_str(clang_getCursorSpelling(c)));
  return CXChildVisit_Continue;
}

static bool in_function(const TranslationUnit *tu, unsigned off) {
  for (int i = 0; i < tu->nfuncs; i++)
    if (off >= tu->funcs[i]->begin && off < tu->funcs[i]->end) return true;
  return false;
}

/* Drops the #includes written inside a function body: the body's copy in
 * the .gt.cu holds them where they are (clang visits them before the
 * function, so this runs once every function is known). */
static void drop_includes_in_functions(TranslationUnit *tu) {
  int n = 0;
  for (int i = 0; i < tu->ntops; i++) {
    if (tu->tops[i].kind == TOP_INCLUDE && in_function(tu, tu->tops[i].begin)) {
      free(tu->tops[i].name);
      continue;
    }
    tu->tops[n++] = tu->tops[i];
  }
  tu->ntops = n;
}

static enum CXChildVisitResult top_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Parser *p = d;
  unsigned b, e;
  /* every macro name, from any file: a name that is one is never taken for
   * an enumerator (the transform's linear depend items) */
  if (clang_getCursorKind(c) == CXCursor_MacroDefinition && !clang_Cursor_isMacroBuiltin(c)) {
    VEC_PUSH(p->tu->macros, p->tu->nmacros, p->macros_cap, cx_to_str(clang_getCursorSpelling(c)));
    mo_add_definition(&p->macros, c);
  }
  /* a global a user header declares: a data clause may name it where the file's code does not */
  CXSourceLocation where = clang_getCursorLocation(c);
  if (clang_getCursorKind(c) == CXCursor_VarDecl && !clang_Location_isFromMainFile(where) &&
      !clang_Location_isInSystemHeader(where)) {
    var_for(p, c);
    return CXChildVisit_Continue;
  }
  /* The extent, not the name's location: a name may come from a macro. */
  if (!cursor_range(p, c, &b, &e)) return CXChildVisit_Continue;
  switch (clang_getCursorKind(c)) {
  case CXCursor_InclusionDirective: add_top(p, TOP_INCLUDE, c, b, e); break;
  case CXCursor_MacroDefinition:
    if (!clang_Cursor_isMacroBuiltin(c)) add_top(p, TOP_MACRO, c, b, e);
    break;
  case CXCursor_StructDecl:
  case CXCursor_UnionDecl:
  case CXCursor_EnumDecl:
  case CXCursor_TypedefDecl:
    add_top(p, TOP_TYPE, c, b, e);
    note_top_names(p, c);
    if (clang_getCursorKind(c) == CXCursor_EnumDecl) clang_visitChildren(c, enumerator_cb, p);
    break;
  case CXCursor_VarDecl:
    add_top(p, TOP_VAR, c, b, e); /* first: merged with its struct, it hides the struct (var_for) */
    var_for(p, c);
    break;
  case CXCursor_FunctionDecl:
    add_top(p, TOP_FUNC, c, b, e);
    if (clang_isCursorDefinition(c)) build_function(p, c, b, e);
    break;
  default: break;
  }
  return CXChildVisit_Continue;
}

/* Resolves CallUse.def now that every function is known. */
static void link_calls(TranslationUnit *tu, Stmt *s) {
  if (!s) return;
  for (int i = 0; i < s->ncalls; i++)
    for (int j = 0; j < tu->nfuncs; j++)
      if (!strcmp(tu->funcs[j]->name, s->calls[i].name)) s->calls[i].def = tu->funcs[j];
  for (int i = 0; i < s->nkids; i++) link_calls(tu, s->kids[i]);
}

/* The end of the innermost block (or `for`, whose header may declare it)
 * of s holding offset off; 0 if none. */
static unsigned block_end(const Stmt *s, unsigned off) {
  if (!s || off < s->begin || off >= s->end) return 0;
  for (int i = 0; i < s->nkids; i++) {
    unsigned e = block_end(s->kids[i], off);
    if (e) return e;
  }
  return s->kind == ST_COMPOUND || s->kind == ST_FOR ? s->end : 0;
}

/* CVar.scope_end: a name in a clause means the declaration visible at the
 * directive, not one of an earlier block that has closed. */
static void set_scopes(TranslationUnit *tu) {
  for (int i = 0; i < tu->nvars; i++) {
    CVar *v = tu->vars[i];
    v->scope_end = UINT_MAX;
    if (v->is_global) continue;
    for (int f = 0; f < tu->nfuncs; f++) {
      const Function *fn = tu->funcs[f];
      if (v->decl_offset < fn->begin || v->decl_offset >= fn->end) continue;
      unsigned e = block_end(fn->body, v->decl_offset);
      v->scope_end = e ? e : fn->end; /* parameters: the whole function */
      break;
    }
  }
}

/* Forwards clang's errors as `file:line:col: error:`; returns how many. */
static int forward_diagnostics(CXTranslationUnit ctu, const SrcFile *main_file) {
  int nerr = 0;
  unsigned n = clang_getNumDiagnostics(ctu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic dg = clang_getDiagnostic(ctu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
    if (sev >= CXDiagnostic_Error) {
      CXFile f;
      unsigned line, col, off;
      clang_getSpellingLocation(clang_getDiagnosticLocation(dg), &f, &line, &col, &off);
      char *fname = f ? cx_to_str(clang_getFileName(f)) : xstrdup("");
      char *msg = cx_to_str(clang_getDiagnosticSpelling(dg));
      if (f && clang_Location_isFromMainFile(clang_getDiagnosticLocation(dg)))
        diag_error(srcfile_loc(main_file, off), "%s", msg); /* with the source line and caret */
      else
        diag_report_at(DIAG_ERROR, fname, (int)line, (int)col, msg);
      free(fname);
      free(msg);
      nerr++;
    }
    clang_disposeDiagnostic(dg);
  }
  return nerr;
}

/* The blocks of the main file that the preprocessor skips: directives in
 * them are not the program's (fe_parse drops them). */
static void load_skipped_ranges(TranslationUnit *tu, CXTranslationUnit ctu, CXFile file) {
  if (!file) return;
  CXSourceRangeList *list = clang_getSkippedRanges(ctu, file);
  if (!list) return;
  int cap = 0;
  for (unsigned i = 0; i < list->count; i++) {
    OffsetRange r;
    clang_getFileLocation(clang_getRangeStart(list->ranges[i]), NULL, NULL, NULL, &r.begin);
    clang_getFileLocation(clang_getRangeEnd(list->ranges[i]), NULL, NULL, NULL, &r.end);
    VEC_PUSH(tu->skipped, tu->nskipped, cap, r);
  }
  clang_disposeSourceRangeList(list);
}

/* `#pragma pack(...)` lines at file scope, as tops in file order: the .gt.cu needs them for the
 * structs after them to have the host's layout. */
static void add_layout_pragmas(Parser *p) {
  TranslationUnit *tu = p->tu;
  const char *t = tu->file->text;
  size_t n = tu->file->len;
  for (size_t line = 0; line < n;) {
    size_t end = line;
    while (end < n && t[end] != '\n') end++;
    size_t i = line;
    while (i < end && (t[i] == ' ' || t[i] == '\t')) i++;
    bool pack = i < end && t[i] == '#';
    for (i++; pack && i < end && (t[i] == ' ' || t[i] == '\t'); i++) {}
    pack = pack && end - i > 6 && !strncmp(t + i, "pragma", 6);
    for (i += 6; pack && i < end && (t[i] == ' ' || t[i] == '\t'); i++) {}
    pack = pack && end - i >= 4 && !strncmp(t + i, "pack", 4) && (end - i == 4 || !isalnum((unsigned char)t[i + 4]));
    for (int k = 0; pack && k < tu->nskipped; k++)
      if (tu->skipped[k].begin <= line && line < tu->skipped[k].end) pack = false;
    int at = 0;
    while (at < tu->ntops && tu->tops[at].begin < line) at++;
    if (pack && at > 0 && tu->tops[at - 1].end > line) pack = false; /* inside a function or declaration */
    if (pack) {
      TopDecl d = {TOP_LAYOUT, xstrdup("pack"), (unsigned)line, (unsigned)end, srcfile_loc(tu->file, (unsigned)line),
                   false, -1};
      VEC_PUSH(tu->tops, tu->ntops, p->tops_cap, d);
      memmove(&tu->tops[at + 1], &tu->tops[at], (size_t)(tu->ntops - 1 - at) * sizeof *tu->tops);
      tu->tops[at] = d;
    }
    line = end + 1;
  }
}

/* Macros a header defines and the file defines again (after an #undef):
 * codegen re-states the header's definition where it is still in force. */
static void find_outer_macros(TranslationUnit *tu, MacroOps *mo) {
  int cap = 0;
  for (int i = 0; i < tu->ntops; i++) {
    if (tu->tops[i].kind != TOP_MACRO) continue;
    bool seen = false;
    for (int k = 0; k < tu->nouter_macros && !seen; k++) seen = !strcmp(tu->outer_macros[k].name, tu->tops[i].name);
    char *text = seen ? NULL : mo_outer_definition(mo, tu->tops[i].name);
    if (!text) continue;
    MacroText m = {xstrdup(tu->tops[i].name), text};
    VEC_PUSH(tu->outer_macros, tu->nouter_macros, cap, m);
  }
}

int fe_clang_args(const FeOptions *opts, const char **args, int max) {
  int nargs = 0;
  args[nargs++] = "-xc";
  args[nargs++] = "-std=gnu11";
  args[nargs++] = "-D__GTCC__=1";
  args[nargs++] = "-fbracket-depth=1024"; /* gcc accepts deeper nesting than clang's default 256 */
#ifdef GTCC_CLANG_RESOURCE_DIR
  struct stat st;
  if (stat(GTCC_CLANG_RESOURCE_DIR, &st) == 0) {
    args[nargs++] = "-resource-dir";
    args[nargs++] = GTCC_CLANG_RESOURCE_DIR;
  }
#endif
  for (int i = 0; opts && i < opts->nclang_args && nargs < max; i++) args[nargs++] = opts->clang_args[i];
  return nargs;
}

int fe_parse_c(TranslationUnit *tu, const FeOptions *opts) {
  Parser p;
  memset(&p, 0, sizeof p);
  p.tu = tu;
  const char *args[256];
  int nargs = fe_clang_args(opts, args, 256);
  CXIndex idx = clang_createIndex(0, 0);
  unsigned flags = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing;
  /* Parse the text gtcc loaded, so offsets agree even if the file changes. */
  struct CXUnsavedFile unsaved = {tu->file->path, tu->file->text, (unsigned long)tu->file->len};
  enum CXErrorCode ec = clang_parseTranslationUnit2(idx, tu->file->path, args, nargs, &unsaved, 1, flags, &p.ctu);
  if (ec != CXError_Success || !p.ctu) {
    diag_error((SrcLoc){0}, "libclang could not parse '%s' (error %d)", tu->file->path, (int)ec);
    clang_disposeIndex(idx);
    return -1;
  }
  int nerr = forward_diagnostics(p.ctu, tu->file);
  p.file = clang_getFile(p.ctu, tu->file->path);
  load_skipped_ranges(tu, p.ctu, p.file);
  fe_collect_cxx_fixes(tu, p.ctu, p.file);
  p.macros.ctu = p.ctu;
  tok_load(&p.toks, p.ctu, p.file, tu->file);
  find_atomic_starts(&p);
  clang_visitChildren(clang_getTranslationUnitCursor(p.ctu), top_cb, &p);
  add_layout_pragmas(&p);
  if (p.file) fe_find_user_headers(tu, p.ctu, p.file);
  find_outer_macros(tu, &p.macros);
  keep_copied_top_names(tu);
  drop_includes_in_functions(tu);
  for (int i = 0; i < tu->nfuncs; i++) link_calls(tu, tu->funcs[i]->body);
  set_scopes(tu);
  tok_free(&p.toks);
  free(p.var_cursors);
  free(p.writes);
  free(p.elem_writes);
  free(p.ptr_members);
  free(p.const_addrs);
  free(p.addrs);
  free(p.decays);
  free(p.atomic_starts);
  mo_free(&p.macros);
  clang_disposeTranslationUnit(p.ctu);
  clang_disposeIndex(idx);
  return nerr ? -1 : 0;
}

/* ---- tokens -------------------------------------------------------------- */

void tok_load(TokenArray *ta, struct CXTranslationUnitImpl *ctu, void *cxfile, const SrcFile *f) {
  ta->t = NULL, ta->n = 0;
  if (!cxfile) return;
  CXSourceRange all = clang_getRange(clang_getLocationForOffset(ctu, cxfile, 0),
                                     clang_getLocationForOffset(ctu, cxfile, (unsigned)f->len));
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(ctu, all, &toks, &n);
  ta->t = xmalloc((n ? n : 1) * sizeof *ta->t);
  for (unsigned i = 0; i < n; i++) {
    CXSourceRange r = clang_getTokenExtent(ctu, toks[i]);
    unsigned b, e;
    clang_getFileLocation(clang_getRangeStart(r), NULL, NULL, NULL, &b);
    clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
    static const TokKind kinds[] = {TK_PUNCT, TK_KEYWORD, TK_IDENT, TK_LITERAL, TK_COMMENT};
    Token t = {b, e, kinds[clang_getTokenKind(toks[i])], cx_to_str(clang_getTokenSpelling(ctu, toks[i]))};
    ta->t[ta->n++] = t;
  }
  clang_disposeTokens(ctu, toks, n);
}
