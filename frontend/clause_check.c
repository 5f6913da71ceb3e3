/* Expressions inside clauses, checked by clang.
 *
 * gtcc keeps clause arguments (`if(c)`, `num_gangs(n)`, the bounds of
 * `x[lo:len]`, the subscripts of depend items) as text and copies them into
 * generated code; a typo there used to surface as a cc error at a line of
 * the generated file, and in clauses gtcc ignores it passed silently. So the
 * file is parsed again (reparse.h) with a line inserted before each
 * directive that has such arguments, holding each one in a form that also
 * checks its type: `(E) % 1` where C needs an integer, `(E) ? 0 : 0` where
 * a scalar. The line is a prefix `if ((void)(...), 1)` of the directive's
 * statement (it stays the body of an enclosing if or for, so the names in
 * scope are the directive's own), an expression statement before a
 * standalone directive, or a typedef at file scope and before declarative
 * directives. An error inside an argument's text is reported at its place
 * with clang's words; one elsewhere in its form means the type is wrong. */
#include <stdlib.h>
#include <string.h>

#include "cx_text.h"
#include "reparse.h"
#include "strbuf.h"

typedef enum Want { WANT_INT, WANT_SCALAR } Want;

/* One argument: where its form and its text went in the inserted line. */
typedef struct Check {
  const Expr *e;
  Want want;
  const Clause *clause;
  int insert;                 /* index of the line */
  unsigned form_begin, form_end; /* in the line */
  unsigned text_begin;
  bool reported;
} Check;

typedef struct Checks {
  Check *v;
  int n, cap;
} Checks;

/* Integer arguments gtcc copies or may copy; modifiers (`schedule(static,
 * 4)`, `grainsize(strict: n)`, `device(ancestor: 1)`) make the others no C
 * expression. */
static bool int_clause(ClauseKind k) {
  return k == CL_NUM_TEAMS || k == CL_THREAD_LIMIT || k == CL_NUM_THREADS || k == CL_NUM_GANGS ||
         k == CL_NUM_WORKERS || k == CL_VECTOR_LENGTH || k == CL_PRIORITY || k == CL_ASYNC;
}

/* gang(n), worker(n), vector(n), after a num: / length: modifier: the text
 * of a list with other arguments (`gang(num: 4, static: *)`) is left alone. */
static bool int_argument_of_level(const Clause *c) {
  return (c->kind == CL_GANG || c->kind == CL_WORKER || c->kind == CL_VECTOR) && c->expr.text &&
         !strpbrk(c->expr.text, ":,");
}

static bool has_items_with_subscripts(ClauseArg a) { return a == CA_VARS || a == CA_MAP || a == CA_DEPEND; }

/* Appends the form of e to the line; `sep` goes between forms. */
static void add_form(StrBuf *line, Checks *cs, int insert, const Clause *c, const Expr *e, Want want,
                     const char *open, const char *sep) {
  if (!e->text || !*e->text) return;
  if (cs->n && cs->v[cs->n - 1].insert == insert) sb_puts(line, sep);
  Check k = {e, want, c, insert, 0, 0, 0, false};
  sb_puts(line, open);
  k.form_begin = (unsigned)line->len;
  sb_puts(line, "(");
  k.text_begin = (unsigned)line->len;
  sb_printf(line, "%s) %s", e->text, want == WANT_INT ? "% 1" : "? 0 : 0");
  k.form_end = (unsigned)line->len;
  sb_puts(line, ")");
  VEC_PUSH(cs->v, cs->n, cs->cap, k);
}

typedef enum LineForm { FORM_PREFIX, FORM_STATEMENT, FORM_TYPEDEF } LineForm;

static LineForm line_form(const TranslationUnit *tu, const Directive *d) {
  unsigned f = dir_flags(d->kind);
  if ((f & (DF_DECLARATIVE | DF_HINT)) || !fe_function_at(tu, d->loc.offset)) return FORM_TYPEDEF;
  return (f & DF_STANDALONE) ? FORM_STATEMENT : FORM_PREFIX;
}

/* The inserted line of directive d, or NULL when it has nothing to check. */
static char *check_line(const TranslationUnit *tu, const Directive *d, Checks *cs, int insert) {
  LineForm form = line_form(tu, d);
  const char *open = form == FORM_TYPEDEF ? "sizeof(" : "(void)(";
  const char *sep = form == FORM_TYPEDEF ? " + " : ", ";
  StrBuf line;
  sb_init(&line);
  if (form == FORM_PREFIX) sb_puts(&line, "if (");
  if (form == FORM_TYPEDEF) sb_printf(&line, ";typedef char gt_clause_check_%d[", insert);
  int before = cs->n;
  for (int i = 0; i < d->nclauses; i++) {
    const Clause *c = &d->clauses[i];
    if (c->kind == CL_IF || c->kind == CL_FINAL) add_form(&line, cs, insert, c, &c->expr, WANT_SCALAR, open, sep);
    else if (int_clause(c->kind) || int_argument_of_level(c)) add_form(&line, cs, insert, c, &c->expr, WANT_INT, open, sep);
    if (!has_items_with_subscripts(clause_arg(c->kind))) continue;
    for (int j = 0; j < c->nitems; j++)
      for (int s = 0; s < c->items[j].nsubs; s++) {
        add_form(&line, cs, insert, c, &c->items[j].subs[s].lo, WANT_INT, open, sep);
        add_form(&line, cs, insert, c, &c->items[j].subs[s].len, WANT_INT, open, sep);
      }
  }
  if (cs->n == before) {
    free(sb_take(&line));
    return NULL;
  }
  sb_puts(&line, form == FORM_PREFIX ? ", 1) \n" : form == FORM_TYPEDEF ? "];\n" : ";\n");
  return sb_take(&line);
}

/* Where offset `delta` of e's text is in the file: the same place when the
 * text is the file's (not joined from continuation lines), else its start. */
static SrcLoc text_loc(const SrcFile *f, const Expr *e, unsigned delta) {
  size_t n = strlen(e->text);
  if (e->loc.offset + n <= f->len && !memcmp(f->text + e->loc.offset, e->text, n) && delta <= n)
    return srcfile_loc(f, e->loc.offset + delta);
  return e->loc;
}

static void report(const TranslationUnit *tu, Check *k, unsigned at_in_line, CXDiagnostic dg) {
  const char *cl = clause_spelling(k->clause->kind);
  size_t n = strlen(k->e->text);
  k->reported = true;
  if (at_in_line >= k->text_begin && at_in_line < k->text_begin + n) {
    char *msg = cx_to_str(clang_getDiagnosticSpelling(dg));
    diag_error(text_loc(tu->file, k->e, at_in_line - k->text_begin), "%s (in the '%s' clause)", msg, cl);
    free(msg);
  } else {
    diag_error(k->e->loc, "'%s' in the '%s' clause is not %s expression", k->e->text, cl,
               k->want == WANT_INT ? "an integer" : "a scalar");
  }
}

void fe_check_clause_exprs(TranslationUnit *tu, const FeOptions *opts) {
  Checks cs = {0};
  Insert *ins = NULL;
  int n = 0, cap = 0;
  for (int d = 0; d < tu->ndirs; d++) { /* file order, so the insertions are too */
    char *line = check_line(tu, tu->dirs[d], &cs, n);
    if (!line) continue;
    Insert in = {fe_line_start(tu->file, tu->dirs[d]->loc.offset), line, 0, 0};
    VEC_PUSH(ins, n, cap, in);
  }
  Reparse r = {0};
  if (n > 0 && fe_reparse(tu, opts, ins, n, &r)) {
    unsigned nd = clang_getNumDiagnostics(r.ctu), at;
    int line;
    for (unsigned i = 0; i < nd; i++) {
      CXDiagnostic dg = clang_getDiagnostic(r.ctu, i);
      if (fe_reparse_error_in(dg, ins, n, &line, &at))
        for (int k = 0; k < cs.n; k++) {
          Check *ck = &cs.v[k];
          if (ck->insert == line && at >= ck->form_begin && at < ck->form_end && !ck->reported) report(tu, ck, at, dg);
        }
      clang_disposeDiagnostic(dg);
    }
  }
  fe_reparse_free(&r, ins, n);
  free(ins);
  free(cs.v);
}
