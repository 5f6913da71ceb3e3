/* The program's own headers, as the .gt.cu needs them (internal to the
 * frontend; see UserHeader in ast.h). */
#ifndef GTCC_USER_HEADERS_H
#define GTCC_USER_HEADERS_H

#include <clang-c/Index.h>

#include "ast.h"

/* Fills tu->headers and the `header` of the main file's TOP_INCLUDE tops
 * (call after the tops are collected). */
void fe_find_user_headers(TranslationUnit *tu, CXTranslationUnit ctu, CXFile main_file);
void fe_free_user_headers(TranslationUnit *tu);

#endif
