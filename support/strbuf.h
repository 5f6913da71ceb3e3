/* strbuf: a growable, always NUL-terminated string. Output is built in
 * memory with these and written at the end, so no half-written files. */
#ifndef GTCC_STRBUF_H
#define GTCC_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct StrBuf {
  char *data;
  size_t len;
  size_t cap;
} StrBuf;

void sb_init(StrBuf *sb);
void sb_free(StrBuf *sb);
void sb_putn(StrBuf *sb, const char *s, size_t n);
void sb_puts(StrBuf *sb, const char *s);
void sb_putc(StrBuf *sb, char c);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Hands the buffer to the caller (free() it) and resets sb. */
char *sb_take(StrBuf *sb);

/* Checked allocation helpers: abort with a message on out-of-memory. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Simple growable array of pointers-sized things: VEC_PUSH(arr, n, cap, x). */
#define VEC_PUSH(arr, n, cap, x)                                   \
  do {                                                             \
    if ((n) == (cap)) {                                            \
      (cap) = (cap) ? 2 * (cap) : 8;                               \
      (arr) = xrealloc((arr), (size_t)(cap) * sizeof(*(arr)));     \
    }                                                              \
    (arr)[(n)++] = (x);                                            \
  } while (0)

#endif
