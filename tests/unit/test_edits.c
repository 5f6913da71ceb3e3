/* Unit tests of support/edits.h: collecting replacements and insertions and
 * applying them in one pass. */
#include <stdlib.h>
#include <string.h>

#include "edits.h"
#include "unit.h"

/* Applies el to src; returns the result (caller frees) or NULL. */
static char *apply(const EditList *el, const char *src, size_t *bad) {
  return edits_apply(el, src, strlen(src), bad);
}

/* Checks that applying el to src gives want, and frees the result. */
static int gives(const EditList *el, const char *src, const char *want) {
  size_t bad = (size_t)-1;
  char *out = apply(el, src, &bad);
  int ok = out && !strcmp(out, want) && bad == (size_t)-1;
  if (!ok) fprintf(stderr, "  got \"%s\", want \"%s\"\n", out ? out : "(null)", want);
  free(out);
  return ok;
}

static void test_empty(void) {
  EditList el;
  edits_init(&el);
  CHECK(el.n == 0);
  CHECK(gives(&el, "int x;", "int x;"));
  CHECK(gives(&el, "", ""));
  edits_free(&el);
  CHECK(el.n == 0 && el.edits == NULL);
}

static void test_replace_and_insert(void) {
  EditList el;
  edits_init(&el);
  /* "int x = 1;" -> "long x = 2; // done" */
  edits_add(&el, 0, 3, "long");
  edits_add(&el, 8, 1, "2");
  edits_add(&el, 10, 0, " // done");
  CHECK(el.n == 3);
  CHECK(gives(&el, "int x = 1;", "long x = 2; // done"));
  edits_free(&el);

  /* Added out of order: applied by offset. */
  edits_init(&el);
  edits_add(&el, 6, 0, "C");
  edits_add(&el, 0, 0, "A");
  edits_add(&el, 3, 0, "B");
  CHECK(gives(&el, "xxxyyy", "AxxxByyyC"));
  edits_free(&el);

  /* Deletion (empty replacement) and whole-buffer replacement. */
  edits_init(&el);
  edits_add(&el, 2, 3, "");
  CHECK(gives(&el, "a(bc)d", "a(d"));
  edits_free(&el);
  edits_init(&el);
  edits_add(&el, 0, 4, "whole");
  CHECK(gives(&el, "abcd", "whole"));
  edits_free(&el);

  /* Adjacent replacements [0,2) and [2,4) do not overlap. */
  edits_init(&el);
  edits_add(&el, 2, 2, "CD");
  edits_add(&el, 0, 2, "AB");
  CHECK(gives(&el, "abcdef", "ABCDef"));
  edits_free(&el);
}

static void test_order_at_one_offset(void) {
  EditList el;
  edits_init(&el);
  /* Insertions at one offset keep the order they were added in. */
  edits_add(&el, 1, 0, "1");
  edits_add(&el, 1, 0, "2");
  edits_add(&el, 1, 0, "3");
  CHECK(gives(&el, "ab", "a123b"));
  edits_free(&el);

  /* An insertion at the offset of a replacement comes before it, even when
   * it is added after the replacement. */
  edits_init(&el);
  edits_add(&el, 2, 3, "[R]");
  edits_add(&el, 2, 0, "<i1>");
  edits_add(&el, 2, 0, "<i2>");
  CHECK(gives(&el, "abXYZcd", "ab<i1><i2>[R]cd"));
  edits_free(&el);

  /* An insertion at the end offset of a replacement comes after it. */
  edits_init(&el);
  edits_add(&el, 5, 0, ";");
  edits_add(&el, 2, 3, "R");
  CHECK(gives(&el, "abXYZcd", "abR;cd"));
  edits_free(&el);

  /* Insertion at the very end of the buffer is allowed. */
  edits_init(&el);
  edits_add(&el, 4, 0, "!");
  CHECK(gives(&el, "abcd", "abcd!"));
  edits_free(&el);
}

static void test_rejected(void) {
  EditList el;
  size_t bad;
  char *out;

  /* Overlapping replacements: [1,4) and [3,5). */
  edits_init(&el);
  edits_add(&el, 1, 3, "X");
  edits_add(&el, 3, 2, "Y");
  bad = 999;
  out = apply(&el, "abcdefg", &bad);
  CHECK(out == NULL);
  CHECK(bad == 3);
  edits_free(&el);

  /* An insertion strictly inside a replaced range overlaps it. */
  edits_init(&el);
  edits_add(&el, 1, 4, "X");
  edits_add(&el, 2, 0, "in");
  bad = 999;
  out = apply(&el, "abcdefg", &bad);
  CHECK(out == NULL);
  CHECK(bad == 2);
  edits_free(&el);

  /* Two replacements of one range. */
  edits_init(&el);
  edits_add(&el, 1, 2, "X");
  edits_add(&el, 1, 2, "Y");
  out = apply(&el, "abcd", NULL); /* bad_offset may be NULL */
  CHECK(out == NULL);
  edits_free(&el);

  /* Past the end: a replacement running over, and an insertion beyond. */
  edits_init(&el);
  edits_add(&el, 2, 5, "X");
  bad = 999;
  out = apply(&el, "abcd", &bad);
  CHECK(out == NULL);
  CHECK(bad == 2);
  edits_free(&el);
  edits_init(&el);
  edits_add(&el, 5, 0, "X");
  bad = 999;
  out = apply(&el, "abcd", &bad);
  CHECK(out == NULL);
  CHECK(bad == 5);
  edits_free(&el);
}

static void test_apply_twice(void) {
  /* Applying does not consume or reorder the list: the same list can be
   * applied again (to the same or another source) with the same effect. */
  EditList el;
  edits_init(&el);
  edits_add(&el, 4, 1, "Y");
  edits_add(&el, 0, 0, "<");
  edits_add(&el, 0, 0, ">");
  CHECK(gives(&el, "abcdXf", "<>abcdYf"));
  CHECK(gives(&el, "abcdXf", "<>abcdYf"));
  CHECK(gives(&el, "012345", "<>0123Y5"));
  CHECK(el.n == 3 && el.edits[0].offset == 4 && !strcmp(el.edits[1].text, "<"));
  /* Text is copied: changing the caller's buffer does not change the edit. */
  char text[] = "Z";
  edits_add(&el, 6, 0, text);
  text[0] = 'Q';
  CHECK(gives(&el, "abcdXf", "<>abcdYfZ"));
  /* A source with embedded NULs: only src_len counts. */
  char *out = edits_apply(&el, "abcd\0fgh", 8, NULL);
  CHECK(out && !memcmp(out, "<>abcdY", 7) && out[7] == 'f');
  free(out);
  edits_free(&el);
}

int main(void) {
  test_empty();
  test_replace_and_insert();
  test_order_at_one_offset();
  test_rejected();
  test_apply_twice();
  return unit_result();
}
