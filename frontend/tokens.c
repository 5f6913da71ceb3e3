#include "tokens.h"

#include <stdlib.h>
#include <string.h>

int tok_first_at(const TokenArray *ta, unsigned offset) {
  int lo = 0, hi = ta->n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (ta->t[mid].begin < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

int tok_last_before(const TokenArray *ta, unsigned offset) {
  int lo = 0, hi = ta->n;
  while (lo < hi) { /* first token with end > offset */
    int mid = (lo + hi) / 2;
    if (ta->t[mid].end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

int tok_is(const Token *t, const char *spell) { return t && t->kind != TK_COMMENT && !strcmp(t->spell, spell); }

void tok_free(TokenArray *ta) {
  for (int i = 0; i < ta->n; i++) free(ta->t[i].spell);
  free(ta->t);
  ta->t = NULL, ta->n = 0;
}
