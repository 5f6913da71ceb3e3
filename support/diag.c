#include "diag.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static int error_count;
static int too_many_reported;
static FILE *out_stream;

static FILE *out(void) { return out_stream ? out_stream : stderr; }

void diag_set_stream(void *file_stream) { out_stream = file_stream; }
int diag_error_count(void) { return error_count; }
int diag_too_many(void) { return error_count >= DIAG_MAX_ERRORS; }
/* Reports already printed (a hash of place, level and text each): two passes that find the
 * same fault (a construct's clauses, checked for each of its loops) print it once. */
static unsigned long long *seen;
static size_t nseen, seen_cap;

void diag_reset(void) { error_count = 0, too_many_reported = 0, nseen = 0; }

static bool already_reported(DiagLevel level, SrcLoc loc, const char *msg) {
  unsigned long long h = 1469598103934665603ull ^ (unsigned long long)level;
  h = (h ^ (unsigned long long)(size_t)loc.file) * 1099511628211ull;
  h = (h ^ (unsigned long long)loc.line) * 1099511628211ull;
  h = (h ^ (unsigned long long)loc.col) * 1099511628211ull;
  for (const char *c = msg; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
  for (size_t i = 0; i < nseen; i++)
    if (seen[i] == h) return true;
  if (nseen == seen_cap) {
    seen_cap = seen_cap ? 2 * seen_cap : 64;
    seen = realloc(seen, seen_cap * sizeof *seen);
    if (!seen) abort();
  }
  seen[nseen++] = h;
  return false;
}

static void index_lines(SrcFile *f) {
  int cap = 0;
  f->nlines = 0;
  f->line_starts = NULL;
  VEC_PUSH(f->line_starts, f->nlines, cap, 0);
  for (size_t i = 0; i < f->len; i++)
    if (f->text[i] == '\n') VEC_PUSH(f->line_starts, f->nlines, cap, i + 1);
}

SrcFile *srcfile_from_string(const char *path, const char *text, size_t len) {
  SrcFile *f = xcalloc(1, sizeof *f);
  f->path = xstrdup(path);
  f->text = xstrndup(text, len);
  f->len = len;
  index_lines(f);
  return f;
}

SrcFile *srcfile_load(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  StrBuf sb;
  sb_init(&sb);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, fp)) > 0) sb_putn(&sb, buf, n);
  int err = ferror(fp);
  fclose(fp);
  if (err) {
    sb_free(&sb);
    errno = EIO;
    return NULL;
  }
  size_t len = sb.len;
  char *text = sb_take(&sb);
  /* A UTF-8 byte-order mark: blanks keep every offset, and generated files that copy the text
   * after lines of their own do not carry it into the middle (cc rejects it there). */
  if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) memset(text, ' ', 3);
  SrcFile *f = xcalloc(1, sizeof *f);
  f->path = xstrdup(path);
  f->text = text;
  f->len = len;
  index_lines(f);
  return f;
}

size_t src_comment_or_literal(const char *t, size_t n, size_t i, int *is_comment) {
  size_t k = i;
  *is_comment = t[k] == '/' && k + 1 < n && (t[k + 1] == '/' || t[k + 1] == '*');
  if (*is_comment && t[k + 1] == '/') {
    while (k < n && t[k] != '\n') k += (t[k] == '\\' && k + 1 < n) ? 2 : 1;
  } else if (*is_comment) {
    for (k += 2; k + 1 < n && !(t[k] == '*' && t[k + 1] == '/'); k++) {}
    k = k + 2 < n ? k + 2 : n;
  } else if (t[k] == '"' || t[k] == '\'') {
    for (k++; k < n && t[k] != t[i] && t[k] != '\n'; k++)
      if (t[k] == '\\') k++;
    k = k < n ? k + 1 : n;
  }
  return k - i;
}

void srcfile_free(SrcFile *f) {
  if (!f) return;
  free(f->path);
  free(f->text);
  free(f->line_starts);
  free(f);
}

SrcLoc srcfile_loc(const SrcFile *f, unsigned offset) {
  SrcLoc loc = {f, offset, 0, 0};
  if (!f) return loc;
  if (offset > f->len) offset = (unsigned)f->len, loc.offset = offset;
  int lo = 0, hi = f->nlines - 1;
  while (lo < hi) { /* last line start <= offset */
    int mid = (lo + hi + 1) / 2;
    if (f->line_starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  loc.line = lo + 1;
  loc.col = (int)(offset - f->line_starts[lo]) + 1;
  return loc;
}

static const char *level_name(DiagLevel level) {
  switch (level) {
  case DIAG_ERROR: return "error";
  case DIAG_WARNING: return "warning";
  case DIAG_NOTE: return "note";
  }
  return "error";
}

/* Prints the source line and a caret under col; long lines are cut around it. */
static void show_line(const SrcFile *f, int line, int col) {
  if (!f || line < 1 || line > f->nlines) return;
  size_t start = f->line_starts[line - 1], end = start;
  while (end < f->len && f->text[end] != '\n') end++;
  size_t from = start, width = 160;
  if ((size_t)col > width) from = start + (size_t)col - width / 2;
  size_t to = end - from > width ? from + width : end;
  fputs("  ", out());
  for (size_t i = from; i < to; i++) {
    unsigned char c = (unsigned char)f->text[i];
    fputc(c == '\t' || (c >= 32 && c < 127) ? c : '?', out());
  }
  fputs("\n  ", out());
  for (size_t i = from; i < start + (size_t)col - 1 && i < to; i++)
    fputc(f->text[i] == '\t' ? '\t' : ' ', out());
  fputs("^\n", out());
}

static int count(DiagLevel level) {
  if (level != DIAG_ERROR) return 1;
  if (error_count >= DIAG_MAX_ERRORS) {
    if (!too_many_reported) fputs("gtcc: too many errors, stopping\n", out());
    too_many_reported = 1;
    return 0;
  }
  error_count++;
  return 1;
}

void diag_report(DiagLevel level, SrcLoc loc, const char *fmt, ...) {
  StrBuf msg;
  sb_init(&msg);
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&msg, fmt, ap);
  va_end(ap);
  if ((loc.file && already_reported(level, loc, msg.data)) || !count(level)) {
    sb_free(&msg);
    return;
  }
  if (loc.file)
    fprintf(out(), "%s:%d:%d: %s: %s\n", loc.file->path, loc.line, loc.col, level_name(level), msg.data);
  else
    fprintf(out(), "gtcc: %s: %s\n", level_name(level), msg.data);
  sb_free(&msg);
  if (loc.file) show_line(loc.file, loc.line, loc.col);
}

void diag_report_at(DiagLevel level, const char *file, int line, int col, const char *msg) {
  if (!count(level)) return;
  if (file && *file)
    fprintf(out(), "%s:%d:%d: %s: %s\n", file, line, col, level_name(level), msg);
  else
    fprintf(out(), "gtcc: %s: %s\n", level_name(level), msg);
}

_Noreturn void diag_unreachable(const char *file, int line, const char *what) {
  fprintf(stderr, "gtcc: internal error at %s:%d: %s\n", file, line, what);
  abort();
}
