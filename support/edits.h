/* Text edits on a source buffer: collect (offset, len, text) replacements,
 * then apply them all at once. Ranges are half-open [offset, offset+len).
 * Overlapping edits are a bug in the caller and are rejected. */
#ifndef GTCC_EDITS_H
#define GTCC_EDITS_H

#include <stddef.h>

typedef struct Edit {
  size_t offset;
  size_t len;  /* bytes replaced (0: pure insertion) */
  char *text;  /* owned */
  int seq;     /* insertion order: keeps insertions at one offset stable */
} Edit;

typedef struct EditList {
  Edit *edits;
  int n, cap;
} EditList;

void edits_init(EditList *el);
void edits_free(EditList *el);
/* Adds a replacement; text is copied. */
void edits_add(EditList *el, size_t offset, size_t len, const char *text);
/* Applies to src[0..src_len). Returns a new malloc'ed string, or NULL if two
 * edits overlap or one runs past the end (then *bad_offset, if non-NULL,
 * gets the offset of the offending edit). */
char *edits_apply(const EditList *el, const char *src, size_t src_len, size_t *bad_offset);

#endif
