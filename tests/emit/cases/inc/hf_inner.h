/* For header_functions.c: a header in a subdirectory that defines a
 * function (so the .gt.cu writes it out) and includes a header next to it
 * by a relative name: the .gt.cu must include inc/hf_scale.h, not the
 * hf_scale.h next to the .c file. */
#ifndef HF_INNER_H
#define HF_INNER_H
#include "hf_scale.h"
static inline double hf_inner(double x) { return x * HF_INNER_SCALE; }
#endif
