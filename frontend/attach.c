/* Attaches each directive to the statement that follows it (by file
 * offset) and checks what must follow: a statement, or for loop directives
 * a for loop in canonical form. */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "strbuf.h"

typedef struct StmtList {
  Stmt **s;
  int n, cap;
} StmtList;

/* Pre-order: sorted by begin offset, outer statements before inner ones. */
static void flatten(Stmt *s, StmtList *l) {
  if (!s) return;
  VEC_PUSH(l->s, l->n, l->cap, s);
  for (int i = 0; i < s->nkids; i++) flatten(s->kids[i], l);
}

/* The end of the block the preprocessor skips that holds offset i, or i. */
static unsigned past_skipped(const TranslationUnit *tu, unsigned i) {
  for (int k = 0; k < tu->nskipped; k++)
    if (tu->skipped[k].begin <= i && i < tu->skipped[k].end) return tu->skipped[k].end;
  return i;
}

/* The end of the `_Pragma("acc|omp ...")` operator that starts at offset i
 * (another directive, which a directive may stand before), or i. */
static unsigned past_pragma_operator(const TranslationUnit *tu, unsigned i) {
  if (tu->file->text[i] != '_') return i;
  for (int k = 0; k < tu->npragmas; k++)
    if (tu->pragmas[k].loc.offset == i) return tu->pragmas[k].end_offset;
  return i;
}

/* Only blanks, comments, preprocessor lines, `_Pragma` directives and blocks
 * the preprocessor skips (`#ifdef BIG` / for ... / `#else`) between from and
 * to? */
static int only_blank_between(const TranslationUnit *tu, unsigned from, unsigned to) {
  const char *t = tu->file->text;
  unsigned i = from;
  int line_start = 1;
  while (i < to) {
    unsigned past = past_skipped(tu, i);
    if (past == i) past = past_pragma_operator(tu, i);
    if (past > i) i = past, line_start = 0;
    else if (t[i] == '\n') line_start = 1, i++;
    else if (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\f' || t[i] == '\v') i++;
    else if (t[i] == '/' && i + 1 < to && t[i + 1] == '/') {
      while (i < to && t[i] != '\n') i++;
    } else if (t[i] == '/' && i + 1 < to && t[i + 1] == '*') {
      i += 2;
      while (i + 1 < to && !(t[i] == '*' && t[i + 1] == '/')) i++;
      i += 2;
    } else if (t[i] == '#' && line_start) { /* another pragma or directive line, with continuations */
      while (i < to && !(t[i] == '\n' && t[i - 1] != '\\')) i++;
    } else
      return 0;
  }
  return 1;
}

/* The first line of [from, to) where a preprocessor conditional opened
 * before from continues or closes (`#else`, `#endif`): a rewrite of the
 * text as one piece would break it. 0 if none. */
static unsigned unbalanced_conditional(const SrcFile *f, unsigned from, unsigned to) {
  const char *t = f->text;
  int depth = 0;
  for (unsigned i = from; i < to; i++) {
    if (i != from && t[i - 1] != '\n') continue;
    unsigned k = i;
    while (k < to && (t[k] == ' ' || t[k] == '\t')) k++;
    if (k >= to || t[k] != '#') continue;
    for (k++; k < to && (t[k] == ' ' || t[k] == '\t'); k++) {}
    if (!strncmp(t + k, "if", 2)) depth++;
    else if (!strncmp(t + k, "endif", 5) && depth-- == 0) return i;
    else if ((!strncmp(t + k, "else", 4) || !strncmp(t + k, "elif", 4)) && depth == 0) return i;
  }
  return 0;
}

Function *fe_function_at(const TranslationUnit *tu, unsigned offset) {
  for (int i = 0; i < tu->nfuncs; i++)
    if (tu->funcs[i]->body && tu->funcs[i]->body->begin < offset && offset < tu->funcs[i]->body->end)
      return tu->funcs[i];
  return NULL;
}

/* The innermost statement of s whose text holds offset at. */
static const Stmt *innermost_at(const Stmt *s, unsigned at) {
  for (int i = 0; i < s->nkids; i++)
    if (s->kids[i] && s->kids[i]->begin <= at && at < s->kids[i]->end) return innermost_at(s->kids[i], at);
  return s;
}

/* A standalone directive written as the body of an if, else, loop or label (the specs forbid
 * it): cc, ignoring the pragma, takes the next statement as that body, while gtcc's rewrite
 * of the directive would take its place and leave the next statement unconditional. */
static void check_standalone_place(const Function *fn, const Directive *d) {
  const Stmt *s = innermost_at(fn->body, d->loc.offset);
  if (s->kind == ST_COMPOUND) return;
  static const char *const what[] = {[ST_FOR] = "a for loop", [ST_IF] = "an if or else", [ST_WHILE] = "a while loop",
                                     [ST_DO] = "a do loop", [ST_SWITCH] = "a switch", [ST_LABEL] = "a label"};
  const char *w = s->kind < (int)(sizeof what / sizeof *what) && what[s->kind] ? what[s->kind] : "a statement";
  diag_error(d->loc, "'%s' cannot be the body of %s (line %d): put it in a block, with '{' before the directive's "
                     "line and '}' after it",
             dir_name(d->kind), w, s->loc.line);
}

static void attach_one(TranslationUnit *tu, Directive *d) {
  unsigned flags = dir_flags(d->kind);
  if (flags & DF_DECLARATIVE) return; /* file scope or a declaration: device_decls.c */
  Function *fn = fe_function_at(tu, d->loc.offset);
  if (!fn) {
    diag_error(d->loc, "'%s' must be inside a function", dir_name(d->kind));
    return;
  }
  if (flags & DF_STANDALONE) check_standalone_place(fn, d);
  if (flags & (DF_STANDALONE | DF_HINT)) return;
  StmtList l = {NULL, 0, 0};
  flatten(fn->body, &l);
  Stmt *s = NULL;
  for (int i = 0; i < l.n && !s; i++)
    if (l.s[i]->begin >= d->end_offset) s = l.s[i];
  free(l.s);
  if (!s || s->begin >= fn->body->end - 1 || !only_blank_between(tu, d->end_offset, s->begin)) {
    diag_error(d->loc, "'%s' must be followed by a statement", dir_name(d->kind));
    return;
  }
  unsigned cut = unbalanced_conditional(tu->file, s->begin, s->end);
  if (cut) {
    diag_error(srcfile_loc(tu->file, cut),
               "this preprocessor line continues a conditional that starts before the statement of the '%s' at "
               "line %d: gtcc rewrites the statement as one piece; put the whole statement in each branch",
               dir_name(d->kind), d->loc.line);
    return;
  }
  int cap = s->ndirs;
  VEC_PUSH(s->dirs, s->ndirs, cap, d);
  if (!(flags & DF_LOOP)) return;
  if (s->kind != ST_FOR) {
    diag_error(s->loc, "'%s' must be followed by a for loop", dir_name(d->kind));
    return;
  }
  if (!s->loop->canonical)
    diag_error(s->loop->why_loc, "loop after '%s' is not in canonical form: %s", dir_name(d->kind), s->loop->why_not);
}

void fe_attach_directives(TranslationUnit *tu) {
  for (int i = 0; i < tu->ndirs && !diag_too_many(); i++) attach_one(tu, tu->dirs[i]);
}
