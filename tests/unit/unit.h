/* Minimal unit-test helpers: CHECK(cond) records a failure and goes on;
 * main returns unit_result(). */
#ifndef GTCC_UNIT_H
#define GTCC_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_failures, unit_checks;

#define CHECK(cond)                                                        \
  do {                                                                     \
    unit_checks++;                                                         \
    if (!(cond)) {                                                         \
      unit_failures++;                                                     \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                      \
  } while (0)

#define CHECK_STR(a, b)                                                    \
  do {                                                                     \
    const char *a_ = (a), *b_ = (b);                                       \
    unit_checks++;                                                         \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) {                               \
      unit_failures++;                                                     \
      fprintf(stderr, "%s:%d: CHECK_STR failed: \"%s\" != \"%s\"\n", __FILE__, __LINE__, \
              a_ ? a_ : "(null)", b_ ? b_ : "(null)");                     \
    }                                                                      \
  } while (0)

static inline int unit_result(void) {
  printf("%d checks, %d failed\n", unit_checks, unit_failures);
  return unit_failures ? 1 : 0;
}

#endif
