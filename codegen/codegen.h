/* Codegen entry: Program -> the text of X.gt.cu and X.gt.c (in memory). */
#ifndef GTCC_CODEGEN_H
#define GTCC_CODEGEN_H

#include "../transform/transform.h"

typedef struct CgOptions {
  const char *cu_name; /* file name the .gt.cu will have (for comments) */
  int no_line_directives; /* 1: omit #line (debugging gtcc itself) */
} CgOptions;

typedef struct CgOutput {
  char *cu; /* device code + extern "C" launch stubs */
  char *c;  /* host C with regions replaced by runtime calls */
} CgOutput;

/* Returns 0 on success; on failure reports through diag and returns -1. */
int cg_emit(const Program *p, const CgOptions *opts, CgOutput *out);
void cg_free(CgOutput *out);

#endif
