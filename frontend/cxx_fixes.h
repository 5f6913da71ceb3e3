/* Edits for the .gt.cu where C++ reads the C file differently (cxx_fixes.c). */
#ifndef GTCC_CXX_FIXES_H
#define GTCC_CXX_FIXES_H

#include "ast.h"

struct CXTranslationUnitImpl;

/* Fills tu->cxx_fixes (sorted by position) from the parsed file. */
void fe_collect_cxx_fixes(TranslationUnit *tu, struct CXTranslationUnitImpl *ctu, void *cxfile);

#endif
