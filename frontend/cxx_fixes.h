/* Edits for the .gt.cu where C++ reads the C file differently (cxx_fixes.c). */
#ifndef GTCC_CXX_FIXES_H
#define GTCC_CXX_FIXES_H

#include "ast.h"

struct CXTranslationUnitImpl;

/* Fills tu->cxx_fixes (sorted by position) from the parsed file. */
void fe_collect_cxx_fixes(TranslationUnit *tu, struct CXTranslationUnitImpl *ctu, void *cxfile);

/* qsort order of TextFixes: by position; at one position insertions
 * before a replacement, then by TextFix.order. */
int fe_fix_order(const void *a, const void *b);
/* Is n the name of one of CUDA's vector types (float2, int4, dim3, ...)?
 * A type of the file named so is gt_c_NAME in generated code. */
bool fe_cuda_type_name(const char *n);
/* Is n the name of a function CUDA declares for device code (max, norm,
 * rint, ...)? A function of the file, or of its own headers, named so is
 * gt_c_NAME in generated code. */
bool fe_cuda_function_name(const char *n);

#endif
