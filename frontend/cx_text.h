/* libclang strings as gtcc's own (internal to the frontend). */
#ifndef GTCC_CX_TEXT_H
#define GTCC_CX_TEXT_H

#include <clang-c/Index.h>

/* A malloc'ed copy of s ("" for none); disposes s. */
char *cx_to_str(CXString s);

#endif
