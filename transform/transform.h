/* Transform entry: TranslationUnit -> Program (lowered IR). */
#ifndef GTCC_TRANSFORM_H
#define GTCC_TRANSFORM_H

#include <stdio.h>

#include "../frontend/ast.h"

typedef struct Program Program;

typedef struct XfOptions {
  int placeholder_; /* later: CollectiveDP mode and thresholds */
} XfOptions;

/* Forms regions, captures variables, checks clauses and decides how each
 * region is lowered. Reports errors through diag; returns NULL if any. */
Program *xf_lower(TranslationUnit *tu, const XfOptions *opts);
/* Number of device kernels the program needs (0: the file passes through). */
int xf_nkernels(const Program *p);
void xf_dump(const Program *p, FILE *out);
void xf_free(Program *p);

#endif
