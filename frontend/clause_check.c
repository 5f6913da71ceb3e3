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
  Expr **parts; /* arguments cut out of a clause's text (modifier_arguments) */
  int nparts, parts_cap;
} Checks;

/* Integer arguments gtcc copies or may copy, whole; those of clauses with
 * modifiers are cut out of their text (modifier_arguments). */
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

/* The offset of the first ',' of text at depth 0 from `from`, or its length. */
static size_t top_comma(const char *text, size_t from) {
  int depth = 0;
  for (size_t i = from; text[i]; i++) {
    if (text[i] == '(' || text[i] == '[') depth++;
    else if (text[i] == ')' || text[i] == ']') depth--;
    else if (text[i] == ',' && depth == 0) return i;
  }
  return strlen(text);
}

/* Characters [b, e) of e's text as an argument of its own, kept in cs. */
static const Expr *part_of(Checks *cs, const SrcFile *f, const Expr *e, size_t b, size_t e_end) {
  while (b < e_end && (e->text[b] == ' ' || e->text[b] == '\t')) b++;
  Expr *x = xcalloc(1, sizeof *x);
  x->text = xstrndup(e->text + b, e_end - b);
  size_t n = strlen(e->text);
  bool in_file = e->loc.offset + n <= f->len && !memcmp(f->text + e->loc.offset, e->text, n);
  x->loc = in_file ? srcfile_loc(f, e->loc.offset + (unsigned)b) : e->loc; /* else joined lines: the clause's */
  VEC_PUSH(cs->parts, cs->nparts, cs->parts_cap, x);
  return x;
}

/* The length of a leading `word :` modifier of text (grainsize(strict: n),
 * device(ancestor: 1)), or 0. */
static size_t modifier_length(const char *text) {
  size_t i = 0;
  while (text[i] == ' ') i++;
  size_t w = i;
  while ((text[i] >= 'a' && text[i] <= 'z') || text[i] == '_') i++;
  if (i == w) return 0;
  while (text[i] == ' ') i++;
  return text[i] == ':' && text[i + 1] != ':' ? i + 1 : 0;
}

/* The integer arguments of clauses with modifiers, cut out of their text:
 * schedule(kind, CHUNK), dist_schedule(static, CHUNK), grainsize([strict:]
 * N), num_tasks([strict:] N), device([device_num|ancestor:] N) and the
 * queues of wait(Q, ...) (the devnum:/queues: form is left alone). */
static int modifier_arguments(Checks *cs, const SrcFile *f, const Clause *c, const Expr *out[], int max) {
  const char *t = c->expr.text;
  int n = 0;
  if (!t || !*t) return 0;
  if (c->kind == CL_SCHEDULE || c->kind == CL_DIST_SCHEDULE) {
    size_t comma = top_comma(t, 0);
    if (t[comma]) out[n++] = part_of(cs, f, &c->expr, comma + 1, strlen(t));
  } else if (c->kind == CL_GRAINSIZE || c->kind == CL_NUM_TASKS || c->kind == CL_DEVICE_NUM) {
    out[n++] = part_of(cs, f, &c->expr, modifier_length(t), strlen(t));
  } else if (c->kind == CL_WAIT && !strchr(t, ':')) {
    for (size_t b = 0; n < max;) {
      size_t e = top_comma(t, b);
      out[n++] = part_of(cs, f, &c->expr, b, e);
      if (!t[e]) break;
      b = e + 1;
    }
  }
  return n;
}

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
    const Expr *args[16];
    int nargs = modifier_arguments(cs, tu->file, c, args, 16);
    for (int a = 0; a < nargs; a++) add_form(&line, cs, insert, c, args[a], WANT_INT, open, sep);
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
  for (int i = 0; i < cs.nparts; i++) free(cs.parts[i]->text), free(cs.parts[i]);
  free(cs.parts);
}
