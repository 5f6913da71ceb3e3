/* The file parsed a second time with lines of gtcc's own inserted before
 * some directives: there clang checks or folds C text built from clause
 * arguments in the directive's scope, with the macros in force at it.
 * Used by clause_consts.c (constants) and clause_check.c (expressions). */
#ifndef GTCC_REPARSE_H
#define GTCC_REPARSE_H

#include <clang-c/Index.h>

#include "frontend.h"

typedef struct Insert {
  unsigned at;         /* offset in the file where the text goes (a line start) */
  char *text;          /* one line, ending in '\n' (malloc'ed; fe_reparse_free frees it) */
  unsigned begin, end; /* where it went in the edited text: [begin, end) */
} Insert;

typedef struct Reparse {
  CXIndex idx;
  CXTranslationUnit ctu; /* NULL when libclang failed */
  CXFile file;           /* the edited main file */
  char *text;            /* the edited text (clang reads it until the unit is disposed) */
} Reparse;

/* The start of the logical line holding offset (a `\` continuation joins lines). */
unsigned fe_line_start(const SrcFile *f, unsigned offset);
/* Parses tu's file with ins[0..n) (sorted by at) inserted, and sets their
 * begin/end. Returns false when libclang could not parse it. */
bool fe_reparse(const TranslationUnit *tu, const FeOptions *opts, Insert *ins, int n, Reparse *r);
/* Whether dg is an error inside one of the inserted lines: *line is its
 * index in ins, *at the offset within it. False for warnings and for
 * diagnostics elsewhere. */
bool fe_reparse_error_in(CXDiagnostic dg, const Insert *ins, int n, int *line, unsigned *at);
void fe_reparse_free(Reparse *r, Insert *ins, int n);

#endif
