/* The program's own headers in the .gt.cu, without the functions the
 * regions do not call.
 *
 * nvcc compiles the .gt.cu as C++, and of a header it needs the types,
 * macros and variables, and the functions the regions call (as device
 * functions). A header that defines functions is written in place of its
 * #include with the other definitions left out (C that C++ rejects there,
 * `double *p = malloc(...)`, never reaches nvcc). The headers it includes
 * that must be written too are written at their #include lines. `#line`
 * keeps nvcc's messages at the header's own lines, and the lines after a
 * definition left out keep their numbers. */
#include <stdlib.h>
#include <string.h>

#include "cg_util.h"

/* An edit of a header's text [begin, end). */
typedef enum EditKind {
  EDIT_DROP,    /* left out (a function the regions do not call, `#pragma once`) */
  EDIT_WRITE,   /* an #include of a header written out here in turn */
  EDIT_INCLUDE, /* an #include of a header kept as it is: by its full path, as the .gt.cu is elsewhere */
  EDIT_DEVICE,  /* a function the regions call: kept, with __device__ before it */
} EditKind;

typedef struct HeaderEdit {
  unsigned begin, end;
  EditKind kind;
  int header; /* EDIT_WRITE, EDIT_INCLUDE */
} HeaderEdit;

static int by_begin(const void *a, const void *b) {
  unsigned x = ((const HeaderEdit *)a)->begin, y = ((const HeaderEdit *)b)->begin;
  return x < y ? -1 : x > y;
}

/* [begin, end) of the line holding off, its newline included. */
static HeaderEdit line_at(const UserHeader *h, unsigned off, EditKind kind, int header) {
  HeaderEdit e = {off, off, kind, header};
  while (e.begin > 0 && h->text[e.begin - 1] != '\n') e.begin--;
  while (e.end < h->len && h->text[e.end] != '\n') e.end++;
  if (e.end < h->len) e.end++;
  return e;
}

/* Whether the line [b, e) is `#pragma once` (written out, a header is part of
 * the .gt.cu: an include guard takes its place). */
static bool is_pragma_once(const UserHeader *h, unsigned b, unsigned e) {
  const char *words[] = {"#", "pragma", "once"};
  unsigned i = b;
  for (int w = 0; w < 3; w++) {
    while (i < e && (h->text[i] == ' ' || h->text[i] == '\t')) i++;
    size_t n = strlen(words[w]);
    if (i + n > e || memcmp(h->text + i, words[w], n)) return false;
    i += (unsigned)n;
  }
  while (i < e && (h->text[i] == ' ' || h->text[i] == '\t' || h->text[i] == '\r')) i++;
  return i == e || h->text[i] == '\n';
}

static int count_newlines(const UserHeader *h, unsigned b, unsigned e) {
  int n = 0;
  for (unsigned i = b; i < e && i < h->len; i++) n += h->text[i] == '\n';
  return n;
}

/* Text [from, to) of h, with gt_c_ before the names of its functions named
 * like CUDA's (UserHeader.renames). */
static void put_text(StrBuf *sb, const UserHeader *h, unsigned from, unsigned to) {
  for (int i = 0; i < h->nrenames; i++) {
    unsigned r = h->renames[i];
    if (r < from || r >= to || (i > 0 && h->renames[i - 1] == r)) continue;
    sb_putn(sb, h->text + from, r - from);
    sb_puts(sb, "gt_c_");
    from = r;
  }
  sb_putn(sb, h->text + from, to - from);
}

static void emit_header(StrBuf *sb, const Program *p, int hi, bool lines, bool *open) {
  const TranslationUnit *tu = p->tu;
  const UserHeader *h = &tu->headers[hi];
  open[hi] = true;
  int cap = h->nfns + h->nincludes + 4, n = 0;
  HeaderEdit *edits = xmalloc((size_t)cap * sizeof *edits);
  bool once = false;
  for (int i = 0; i < h->nfns; i++)
    edits[n++] = (HeaderEdit){h->fns[i].def.begin, h->fns[i].def.end,
                              xf_header_function_on_device(p, &h->fns[i]) ? EDIT_DEVICE : EDIT_DROP, -1};
  for (int i = 0; i < h->nincludes; i++) {
    int to = h->includes[i].header;
    edits[n++] = line_at(h, h->includes[i].offset, tu->headers[to].strip && !open[to] ? EDIT_WRITE : EDIT_INCLUDE, to);
  }
  for (unsigned b = 0; b < h->len;) { /* every `#pragma once` line */
    HeaderEdit l = line_at(h, b, EDIT_DROP, -1);
    if (is_pragma_once(h, l.begin, l.end)) {
      once = true;
      if (n == cap) edits = xrealloc(edits, (size_t)(cap *= 2) * sizeof *edits);
      edits[n++] = (HeaderEdit){l.begin, l.end - (l.end > l.begin && h->text[l.end - 1] == '\n'), EDIT_DROP, -1};
    }
    b = l.end > b ? l.end : b + 1;
  }
  qsort(edits, (size_t)n, sizeof *edits, by_begin);
  if (once) sb_printf(sb, "#ifndef GT_HEADER_ONCE_%d\n#define GT_HEADER_ONCE_%d\n", hi, hi);
  if (lines) cg_line_directive_to(sb, h->path, 1);
  unsigned at = 0;
  int line = 1; /* of offset at */
  for (int i = 0; i < n; i++) {
    if (edits[i].begin < at) continue; /* inside a body left out */
    put_text(sb, h, at, edits[i].begin);
    int inside = count_newlines(h, edits[i].begin, edits[i].end);
    int next = line + count_newlines(h, at, edits[i].begin) + inside; /* the line after the edit */
    if (edits[i].kind == EDIT_DEVICE) {
      sb_puts(sb, "__device__ ");
      put_text(sb, h, edits[i].begin, edits[i].end);
    } else if (edits[i].kind == EDIT_WRITE) {
      emit_header(sb, p, edits[i].header, lines, open);
      if (lines) cg_line_directive_to(sb, h->path, next);
    } else if (edits[i].kind == EDIT_INCLUDE) {
      /* `#include "k.h"` would be looked for next to the .gt.cu, not next to this header */
      char *full = realpath(tu->headers[edits[i].header].path, NULL);
      sb_printf(sb, "#include \"%s\"\n", full ? full : tu->headers[edits[i].header].path);
      free(full);
    } else if (lines && inside > 2) {
      sb_putc(sb, '\n');
      cg_line_directive_to(sb, h->path, next); /* the lines after it keep their numbers */
    } else {
      for (int k = inside; k > 0; k--) sb_putc(sb, '\n');
    }
    at = edits[i].end;
    line = next;
  }
  put_text(sb, h, at, (unsigned)h->len);
  if (h->len && h->text[h->len - 1] != '\n') sb_putc(sb, '\n');
  if (once) sb_puts(sb, "#endif\n");
  free(edits);
  open[hi] = false;
}

void cg_emit_user_header(StrBuf *sb, const Program *p, int header, bool line_directives) {
  const TranslationUnit *tu = p->tu;
  bool *open = xcalloc((size_t)tu->nheaders, sizeof *open); /* headers being written: an include cycle stops */
  sb_printf(sb, "/* ---- \"%s\" without the function definitions regions do not call (nvcc reads it as C++) */\n",
            tu->headers[header].path);
  emit_header(sb, p, header, line_directives, open);
  free(open);
}
