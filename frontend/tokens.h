/* Tokens of the main file (from libclang, before macro expansion), sorted
 * by offset. Internal to the frontend: loop recognition reads for-headers
 * as tokens, the statement builder finds operators and semicolons. */
#ifndef GTCC_TOKENS_H
#define GTCC_TOKENS_H

#include "ast.h"

typedef enum TokKind { TK_PUNCT, TK_KEYWORD, TK_IDENT, TK_LITERAL, TK_COMMENT } TokKind;

typedef struct Token {
  unsigned begin, end; /* file offsets, half-open */
  TokKind kind;
  char *spell;
} Token;

typedef struct TokenArray {
  Token *t;
  int n;
} TokenArray;

/* Index of the first token with begin >= offset (n if none). */
int tok_first_at(const TokenArray *ta, unsigned offset);
/* Index of the last token with end <= offset (-1 if none). */
int tok_last_before(const TokenArray *ta, unsigned offset);
int tok_is(const Token *t, const char *spell);
void tok_free(TokenArray *ta);

/* Defined in cparse.c (needs libclang). */
struct CXTranslationUnitImpl;
void tok_load(TokenArray *ta, struct CXTranslationUnitImpl *ctu, void *cxfile, const SrcFile *f);

/* Recognises `for (init; cond; incr)` of s in OpenMP canonical form
 * (loops.c). Never returns NULL: a non-canonical loop says why. */
ForLoop *fe_canonical_loop(TranslationUnit *tu, const TokenArray *ta, Stmt *s);

#endif
