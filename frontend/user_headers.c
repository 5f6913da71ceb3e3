/* The program's own headers: which ones the file includes (directly or
 * through others), the functions they define and their #include lines of
 * other such headers (see UserHeader in ast.h; codegen/emit_headers.c
 * writes them into the .gt.cu without those functions). */
#include "user_headers.h"

#include <stdlib.h>
#include <string.h>

#include "cx_text.h"
#include "cxx_fixes.h"
#include "strbuf.h"

typedef struct Finder {
  TranslationUnit *tu;
  CXTranslationUnit ctu;
  CXFile main_file;
  CXFile *files; /* parallel to tu->headers */
  int cap;       /* of both */
  CXCursor *clashing; /* header functions named like CUDA's (canonical cursors) */
  int nclashing, clashing_cap;
} Finder;

static bool is_system(CXTranslationUnit ctu, CXFile f) {
  return clang_Location_isInSystemHeader(clang_getLocationForOffset(ctu, f, 0)) != 0;
}

/* Index of f in tu->headers, added on first sight; -1 for the main file, a
 * system header or a file clang has no text for. */
static int header_of(Finder *fd, CXFile f) {
  if (!f || clang_File_isEqual(f, fd->main_file) || is_system(fd->ctu, f)) return -1;
  for (int i = 0; i < fd->tu->nheaders; i++)
    if (clang_File_isEqual(fd->files[i], f)) return i;
  size_t len = 0;
  const char *text = clang_getFileContents(fd->ctu, f, &len);
  if (!text) return -1;
  UserHeader h = {cx_to_str(clang_getFileName(f)), xstrndup(text, len), len, NULL, 0, NULL, 0, NULL, 0, false};
  int n = fd->tu->nheaders;
  if (n == fd->cap) {
    fd->cap = fd->cap ? 2 * fd->cap : 8;
    fd->files = xrealloc(fd->files, (size_t)fd->cap * sizeof *fd->files);
    fd->tu->headers = xrealloc(fd->tu->headers, (size_t)fd->cap * sizeof *fd->tu->headers);
  }
  fd->files[n] = f;
  fd->tu->headers[n] = h;
  return fd->tu->nheaders++;
}

/* The file and offset of a location as written (its expansion site). */
static CXFile file_offset(CXSourceLocation loc, unsigned *off) {
  CXFile f = NULL;
  clang_getExpansionLocation(loc, &f, NULL, NULL, off);
  return f;
}

static void add_include(Finder *fd, CXCursor c) {
  unsigned off;
  CXFile from = file_offset(clang_getCursorLocation(c), &off);
  int to = header_of(fd, clang_getIncludedFile(c));
  if (!from || to < 0) return;
  if (clang_File_isEqual(from, fd->main_file)) {
    for (int i = 0; i < fd->tu->ntops; i++) {
      TopDecl *t = &fd->tu->tops[i];
      if (t->kind == TOP_INCLUDE && t->begin <= off && off < t->end) t->header = to;
    }
    return;
  }
  int h = header_of(fd, from);
  if (h < 0) return;
  UserHeader *uh = &fd->tu->headers[h];
  uh->includes = xrealloc(uh->includes, (size_t)(uh->nincludes + 1) * sizeof *uh->includes);
  uh->includes[uh->nincludes++] = (IncludeSite){off, to};
}

static enum CXChildVisitResult body_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_CompoundStmt) return CXChildVisit_Continue;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

static void add_name(char ***list, int *n, char *name) {
  for (int i = 0; i < *n; i++)
    if (!strcmp((*list)[i], name)) {
      free(name);
      return;
    }
  *list = xrealloc(*list, (size_t)(*n + 1) * sizeof **list);
  (*list)[(*n)++] = name;
}

/* A file-scope variable device code can read as the host declares it: a
 * const scalar (nvcc takes its value; a const table it cannot read). */
static bool device_readable(CXCursor var) {
  CXType t = clang_getCanonicalType(clang_getCursorType(var));
  bool scalar = (t.kind >= CXType_Bool && t.kind <= CXType_LongDouble) || t.kind == CXType_Enum;
  return scalar && clang_isConstQualifiedType(t);
}

static enum CXChildVisitResult calls_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  HeaderFunction *f = d;
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) { /* a call, the function's address, or a variable */
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if (rk == CXCursor_FunctionDecl) add_name(&f->calls, &f->ncalls, cx_to_str(clang_getCursorSpelling(ref)));
    else if (rk == CXCursor_VarDecl && clang_getCursorKind(clang_getCursorSemanticParent(ref)) == CXCursor_TranslationUnit &&
             !device_readable(ref))
      add_name(&f->globals, &f->nglobals, cx_to_str(clang_getCursorSpelling(ref)));
  }
  return CXChildVisit_Recurse;
}

/* A function defined in a user header: the definition, from its first
 * token to the body's `}`, when both are written in that header (not made
 * by a macro), and the functions it names. */
static void add_definition(Finder *fd, CXCursor fn) {
  CXCursor body = clang_getNullCursor();
  clang_visitChildren(fn, body_cb, &body);
  if (clang_Cursor_isNull(body)) return;
  unsigned b, e;
  CXFile fb = file_offset(clang_getRangeStart(clang_getCursorExtent(fn)), &b);
  CXFile fe = file_offset(clang_getRangeEnd(clang_getCursorExtent(body)), &e);
  if (!fb || !fe || !clang_File_isEqual(fb, fe)) return;
  int h = header_of(fd, fb);
  if (h < 0) return;
  UserHeader *uh = &fd->tu->headers[h];
  if (e <= b || e > uh->len || uh->text[e - 1] != '}') return;
  HeaderFunction f = {cx_to_str(clang_getCursorSpelling(fn)), {b, e}, NULL, 0, NULL, 0, false};
  clang_visitChildren(body, calls_cb, &f);
  if (fe_cuda_function_name(f.name))
    VEC_PUSH(fd->clashing, fd->nclashing, fd->clashing_cap, clang_getCanonicalCursor(fn));
  uh->fns = xrealloc(uh->fns, (size_t)(uh->nfns + 1) * sizeof *uh->fns);
  uh->fns[uh->nfns++] = f;
}

static enum CXChildVisitResult top_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Finder *fd = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_InclusionDirective) add_include(fd, c);
  else if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
    CXSourceLocation at = clang_getCursorLocation(c);
    if (!clang_Location_isFromMainFile(at) && !clang_Location_isInSystemHeader(at)) add_definition(fd, c);
  }
  return CXChildVisit_Continue;
}

/* Every place a user header names a function of its own that is named like
 * one of CUDA's (declarations, calls): renamed gt_c_NAME in the .gt.cu, as
 * cxx_fixes.c renames the file's uses. */
static enum CXChildVisitResult rename_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Finder *fd = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_FunctionDecl && k != CXCursor_DeclRefExpr) return CXChildVisit_Recurse;
  CXCursor decl = clang_getCanonicalCursor(k == CXCursor_DeclRefExpr ? clang_getCursorReferenced(c) : c);
  bool hit = false;
  for (int i = 0; i < fd->nclashing && !hit; i++) hit = clang_equalCursors(decl, fd->clashing[i]);
  CXFile f = NULL, sf = NULL;
  unsigned off, soff;
  CXSourceLocation at = clang_getCursorLocation(c);
  clang_getExpansionLocation(at, &f, NULL, NULL, &off);
  clang_getSpellingLocation(at, &sf, NULL, NULL, &soff);
  int h = hit && f && sf && clang_File_isEqual(f, sf) && off == soff ? header_of(fd, f) : -1;
  if (h >= 0) {
    UserHeader *uh = &fd->tu->headers[h];
    char *name = cx_to_str(clang_getCursorSpelling(decl));
    size_t len = strlen(name);
    if (off + len <= uh->len && !strncmp(uh->text + off, name, len)) {
      uh->renames = xrealloc(uh->renames, (size_t)(uh->nrenames + 1) * sizeof *uh->renames);
      uh->renames[uh->nrenames++] = off;
    }
    free(name);
  }
  return CXChildVisit_Recurse;
}

static int by_unsigned(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return x < y ? -1 : x > y;
}

static int by_begin(const void *a, const void *b) {
  unsigned x = ((const HeaderFunction *)a)->def.begin, y = ((const HeaderFunction *)b)->def.begin;
  return x < y ? -1 : x > y;
}

static int by_offset(const void *a, const void *b) {
  unsigned x = ((const IncludeSite *)a)->offset, y = ((const IncludeSite *)b)->offset;
  return x < y ? -1 : x > y;
}

/* The functions of h whose definitions hold an `acc|omp atomic` line. */
static void mark_atomic_functions(UserHeader *h) {
  SrcFile *f = srcfile_from_string(h->path, h->text, strlen(h->text));
  PragmaLine *pl = NULL;
  int n = fe_scan_pragmas(f, &pl);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < h->nfns && fe_pragma_is_atomic(&pl[i]); k++)
      if (pl[i].loc.offset >= h->fns[k].def.begin && pl[i].loc.offset < h->fns[k].def.end) h->fns[k].has_atomic = true;
  fe_free_pragmas(pl, n);
  srcfile_free(f);
}

void fe_find_user_headers(TranslationUnit *tu, CXTranslationUnit ctu, CXFile main_file) {
  Finder fd = {tu, ctu, main_file, NULL, 0, NULL, 0, 0};
  clang_visitChildren(clang_getTranslationUnitCursor(ctu), top_cb, &fd);
  if (fd.nclashing) clang_visitChildren(clang_getTranslationUnitCursor(ctu), rename_cb, &fd);
  for (int i = 0; i < tu->nheaders; i++) {
    UserHeader *h = &tu->headers[i];
    /* (qsort must not get a null array, even of none) */
    if (h->nfns > 1) qsort(h->fns, (size_t)h->nfns, sizeof *h->fns, by_begin);
    if (h->nfns > 0) mark_atomic_functions(h);
    if (h->nincludes > 1) qsort(h->includes, (size_t)h->nincludes, sizeof *h->includes, by_offset);
    if (h->nrenames > 1) qsort(h->renames, (size_t)h->nrenames, sizeof *h->renames, by_unsigned);
    h->strip = h->nfns > 0;
  }
  /* a header that includes one without its bodies must be written out too,
   * or its #include line would bring in the original */
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < tu->nheaders; i++)
      for (int k = 0; k < tu->headers[i].nincludes && !tu->headers[i].strip; k++)
        if (tu->headers[tu->headers[i].includes[k].header].strip) tu->headers[i].strip = changed = true;
  }
  free(fd.files);
  free(fd.clashing);
}

void fe_free_user_headers(TranslationUnit *tu) {
  for (int i = 0; i < tu->nheaders; i++) {
    free(tu->headers[i].path);
    free(tu->headers[i].text);
    for (int f = 0; f < tu->headers[i].nfns; f++) {
      HeaderFunction *fn = &tu->headers[i].fns[f];
      for (int c = 0; c < fn->ncalls; c++) free(fn->calls[c]);
      free(fn->calls);
      for (int g = 0; g < fn->nglobals; g++) free(fn->globals[g]);
      free(fn->globals);
      free(fn->name);
    }
    free(tu->headers[i].fns);
    free(tu->headers[i].includes);
    free(tu->headers[i].renames);
  }
  free(tu->headers);
  tu->headers = NULL, tu->nheaders = 0;
}
