/* Diagnostics: `file:line:col: error: message`, the source line and a caret.
 * Errors are counted and compilation keeps going until DIAG_MAX_ERRORS;
 * only main() decides to exit. */
#ifndef GTCC_DIAG_H
#define GTCC_DIAG_H

#include <stddef.h>

/* A loaded source file: its text and the offset of every line start. */
typedef struct SrcFile {
  char *path;
  char *text; /* NUL-terminated */
  size_t len;
  size_t *line_starts;
  int nlines;
} SrcFile;

/* A position in a source file. offset is in bytes; line and col are 1-based. */
typedef struct SrcLoc {
  const SrcFile *file;
  unsigned offset;
  int line;
  int col;
} SrcLoc;

enum { DIAG_MAX_ERRORS = 20 };

typedef enum DiagLevel { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

/* Reads path into a new SrcFile. Returns NULL (errno set) on failure. */
SrcFile *srcfile_load(const char *path);
/* Makes a SrcFile from text in memory (tests, pragma strings). Copies text. */
SrcFile *srcfile_from_string(const char *path, const char *text, size_t len);
void srcfile_free(SrcFile *f);
/* Location of a byte offset (clamped to the file). */
SrcLoc srcfile_loc(const SrcFile *f, unsigned offset);

/* The length of the comment or string / character literal that starts at t[i] of t[0..n), 0 if
 * none starts there (a `//` comment stops before its newline; line splices continue it);
 * *is_comment tells which it is. */
size_t src_comment_or_literal(const char *t, size_t n, size_t i, int *is_comment);

/* Reports at loc (loc.file may be NULL: then no position is printed). */
void diag_report(DiagLevel level, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define diag_error(loc, ...) diag_report(DIAG_ERROR, (loc), __VA_ARGS__)
#define diag_warning(loc, ...) diag_report(DIAG_WARNING, (loc), __VA_ARGS__)
#define diag_note(loc, ...) diag_report(DIAG_NOTE, (loc), __VA_ARGS__)

/* Reports with an explicit file:line:col (e.g. forwarded libclang diagnostics). */
void diag_report_at(DiagLevel level, const char *file, int line, int col, const char *msg);

int diag_error_count(void);
/* True once DIAG_MAX_ERRORS errors were reported: passes should stop early. */
int diag_too_many(void);
/* Resets the error count (unit tests, several inputs in one run). */
void diag_reset(void);
/* Where diagnostics go (default stderr); tests capture them. */
void diag_set_stream(void *file_stream);

/* Internal compiler bug: print and abort. */
_Noreturn void diag_unreachable(const char *file, int line, const char *what);
#define unreachable(what) diag_unreachable(__FILE__, __LINE__, (what))

#endif
