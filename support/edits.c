#include "edits.h"

#include <stdlib.h>

#include "strbuf.h"

void edits_init(EditList *el) { el->edits = NULL, el->n = el->cap = 0; }

void edits_free(EditList *el) {
  for (int i = 0; i < el->n; i++) free(el->edits[i].text);
  free(el->edits);
  edits_init(el);
}

void edits_add(EditList *el, size_t offset, size_t len, const char *text) {
  Edit e = {offset, len, xstrdup(text), el->n};
  VEC_PUSH(el->edits, el->n, el->cap, e);
}

static int by_offset(const void *pa, const void *pb) {
  const Edit *a = pa, *b = pb;
  if (a->offset != b->offset) return a->offset < b->offset ? -1 : 1;
  /* At one offset, insertions come before a replacement, in insertion order. */
  if ((a->len == 0) != (b->len == 0)) return a->len == 0 ? -1 : 1;
  return a->seq - b->seq;
}

char *edits_apply(const EditList *el, const char *src, size_t src_len, size_t *bad_offset) {
  Edit *sorted = xmalloc((size_t)(el->n ? el->n : 1) * sizeof *sorted);
  for (int i = 0; i < el->n; i++) sorted[i] = el->edits[i];
  qsort(sorted, (size_t)el->n, sizeof *sorted, by_offset);
  StrBuf out;
  sb_init(&out);
  size_t pos = 0;
  for (int i = 0; i < el->n; i++) {
    const Edit *e = &sorted[i];
    if (e->offset < pos || e->offset + e->len > src_len) {
      if (bad_offset) *bad_offset = e->offset;
      free(sorted);
      sb_free(&out);
      return NULL;
    }
    sb_putn(&out, src + pos, e->offset - pos);
    sb_puts(&out, e->text);
    pos = e->offset + e->len;
  }
  sb_putn(&out, src + pos, src_len - pos);
  free(sorted);
  return sb_take(&out);
}
