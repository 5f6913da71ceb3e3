/* Types and macros for header_functions.c, included by its header (and by
 * the file itself: the guard keeps one copy). */
#ifndef HEADER_FUNCTIONS_TYPES_H
#define HEADER_FUNCTIONS_TYPES_H
typedef struct { double sum, max; } stats_t;
#define WEIGHT(i) (1.0 + (i) % 7)
#define HF_OFFSET 2 /* header_functions.c defines it again after #undef */
static int clamp_index(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }
#endif
