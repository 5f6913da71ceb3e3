/* The file parsed again with inserted lines (see reparse.h). */
#include "reparse.h"

#include <stdlib.h>

#include "strbuf.h"

unsigned fe_line_start(const SrcFile *f, unsigned off) {
  while (off > 0) {
    if (f->text[off - 1] == '\n' && !(off >= 2 && f->text[off - 2] == '\\')) break;
    off--;
  }
  return off;
}

bool fe_reparse(const TranslationUnit *tu, const FeOptions *opts, Insert *ins, int n, Reparse *r) {
  const SrcFile *f = tu->file;
  StrBuf sb;
  sb_init(&sb);
  unsigned copied = 0;
  for (int i = 0; i < n; i++) {
    sb_putn(&sb, f->text + copied, ins[i].at - copied);
    copied = ins[i].at;
    ins[i].begin = (unsigned)sb.len;
    sb_puts(&sb, ins[i].text);
    ins[i].end = (unsigned)sb.len;
  }
  sb_putn(&sb, f->text + copied, f->len - copied);
  size_t len = sb.len;
  r->text = sb_take(&sb);
  const char *args[256];
  int nargs = fe_clang_args(opts, args, 256);
  r->idx = clang_createIndex(0, 0);
  r->ctu = NULL;
  struct CXUnsavedFile unsaved = {f->path, r->text, (unsigned long)len};
  enum CXErrorCode ec = clang_parseTranslationUnit2(r->idx, f->path, args, nargs, &unsaved, 1,
                                                    CXTranslationUnit_KeepGoing, &r->ctu);
  if (ec != CXError_Success) r->ctu = NULL;
  r->file = r->ctu ? clang_getFile(r->ctu, f->path) : NULL;
  return r->ctu != NULL;
}

bool fe_reparse_error_in(CXDiagnostic dg, const Insert *ins, int n, int *line, unsigned *at) {
  if (clang_getDiagnosticSeverity(dg) < CXDiagnostic_Error) return false;
  CXSourceLocation loc = clang_getDiagnosticLocation(dg);
  if (!clang_Location_isFromMainFile(loc)) return false;
  unsigned off;
  clang_getExpansionLocation(loc, NULL, NULL, NULL, &off);
  for (int i = 0; i < n; i++)
    if (off >= ins[i].begin && off < ins[i].end) {
      *line = i;
      *at = off - ins[i].begin;
      return true;
    }
  return false;
}

void fe_reparse_free(Reparse *r, Insert *ins, int n) {
  if (r->ctu) clang_disposeTranslationUnit(r->ctu);
  if (r->idx) clang_disposeIndex(r->idx);
  free(r->text);
  for (int i = 0; i < n; i++) free(ins[i].text);
}
