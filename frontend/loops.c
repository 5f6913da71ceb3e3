/* Canonical loop recognition (OpenMP 5.x §4.4.1, restricted):
 *   for (init; cond; incr)
 *   init: [type] iv = lb        cond: iv relop ub | ub relop iv   relop: < <= > >=
 *   incr: iv++ ++iv iv-- --iv iv += s  iv -= s  iv = iv + s  iv = s + iv  iv = iv - s
 * The header is read as tokens; lb, ub and step are kept as source text. */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "strbuf.h"
#include "tokens.h"

typedef struct Span {
  int from, to; /* token indices, half-open */
} Span;

static ForLoop *fail(ForLoop *L, const TranslationUnit *tu, unsigned offset, const char *why) {
  L->canonical = false;
  L->why_not = why;
  L->why_loc = srcfile_loc(tu->file, offset);
  return L;
}

static Expr span_expr(TranslationUnit *tu, const TokenArray *ta, Span s) {
  Expr e = {.loc = srcfile_loc(tu->file, ta->t[s.from].begin)};
  e.text = fe_text(tu, ta->t[s.from].begin, ta->t[s.to - 1].end);
  return e;
}

static int is_opener(const Token *t) { return tok_is(t, "(") || tok_is(t, "[") || tok_is(t, "{"); }
static int is_closer(const Token *t) { return tok_is(t, ")") || tok_is(t, "]") || tok_is(t, "}"); }

/* Does s hold, at bracket depth 0, one of the given operators? */
static int has_top(const TokenArray *ta, Span s, const char *const *ops, int nops);

/* First token in s spelled op at bracket depth 0, or -1. */
static int find_top(const TokenArray *ta, Span s, const char *op) {
  int depth = 0;
  for (int i = s.from; i < s.to; i++) {
    if (is_opener(&ta->t[i])) depth++;
    else if (is_closer(&ta->t[i])) depth--;
    else if (depth == 0 && tok_is(&ta->t[i], op)) return i;
  }
  return -1;
}

static int has_top(const TokenArray *ta, Span s, const char *const *ops, int nops) {
  for (int k = 0; k < nops; k++)
    if (find_top(ta, s, ops[k]) >= 0) return 1;
  return 0;
}

/* Operators binding more loosely than + and -: a bound or step holding
 * them at the top level is not the simple expression the form needs. */
static const char *const loose_ops[] = {"<<", ">>", "<", "<=", ">", ">=", "==", "!=", "&", "^", "|",
                                        "&&", "||", "?", "=", "+=", "-=", "*=", "/=", ","};
enum { NLOOSE = sizeof loose_ops / sizeof *loose_ops };
/* In a condition, shifts bind tighter than the comparison: skip them. */
#define COND_LOOSE (loose_ops + 2)
enum { NCOND_LOOSE = NLOOSE - 2 };

static int is_iv(const TokenArray *ta, Span s, const char *iv) {
  return s.to - s.from == 1 && ta->t[s.from].kind == TK_IDENT && !strcmp(ta->t[s.from].spell, iv);
}

/* How many tokens of s are the identifier iv. */
static int count_iv(const TokenArray *ta, Span s, const char *iv) {
  int n = 0;
  for (int i = s.from; i < s.to; i++) n += ta->t[i].kind == TK_IDENT && !strcmp(ta->t[i].spell, iv);
  return n;
}

static CVar *find_iv(Stmt *s, const char *name) {
  for (int i = 0; i < s->ndecls; i++)
    if (!strcmp(s->decls[i]->name, name)) return s->decls[i];
  for (int i = 0; i < s->nuses; i++)
    if (!strcmp(s->uses[i].var->name, name)) return s->uses[i].var;
  return NULL;
}

static int writes_var(const Stmt *s, const CVar *v, SrcLoc *where) {
  for (int i = 0; i < s->nuses; i++)
    if (s->uses[i].var == v && s->uses[i].write) {
      *where = s->uses[i].loc;
      return 1;
    }
  for (int i = 0; i < s->nkids; i++)
    if (writes_var(s->kids[i], v, where)) return 1;
  return 0;
}

static void set_step(ForLoop *L, TranslationUnit *tu, const TokenArray *ta, Span s, int negate) {
  Expr e = span_expr(tu, ta, s);
  L->step_is_const = 0;
  long long v;
  if (s.to - s.from == 1 && ta->t[s.from].kind == TK_LITERAL && fe_expr_int(&e, &v))
    L->step_is_const = 1, L->step_value = negate ? -v : v;
  if (L->step_is_const) {
    free(e.text);
    e.text = xasprintf("%lld", L->step_value);
  } else {
    /* negated as a signed value: -(st) of an unsigned st would wrap */
    char *t = xasprintf(negate ? "-(long long)(%s)" : "(%s)", e.text);
    free(e.text);
    e.text = t;
  }
  L->step = e;
}

static int parse_incr(ForLoop *L, TranslationUnit *tu, const TokenArray *ta, Span s, const char *iv) {
  int n = s.to - s.from;
  const Token *t = &ta->t[s.from];
  if (n == 2 && ((t[0].kind == TK_IDENT && !strcmp(t[0].spell, iv) && (tok_is(&t[1], "++") || tok_is(&t[1], "--"))) ||
                 (t[1].kind == TK_IDENT && !strcmp(t[1].spell, iv) && (tok_is(&t[0], "++") || tok_is(&t[0], "--"))))) {
    int dec = tok_is(&t[0], "--") || tok_is(&t[1], "--");
    L->step_is_const = 1, L->step_value = dec ? -1 : 1;
    L->step.text = xstrdup(dec ? "-1" : "1");
    L->step.loc = srcfile_loc(tu->file, t[0].begin);
    return 1;
  }
  if (n >= 3 && t[0].kind == TK_IDENT && !strcmp(t[0].spell, iv)) {
    Span rest = {s.from + 2, s.to};
    if (has_top(ta, rest, loose_ops + NLOOSE - 1, 1)) return 0; /* i += 1, k++ */
    if (tok_is(&t[1], "+=") || tok_is(&t[1], "-=")) {
      set_step(L, tu, ta, rest, tok_is(&t[1], "-="));
      return 1;
    }
    if (tok_is(&t[1], "=")) {
      if (has_top(ta, rest, loose_ops, NLOOSE)) return 0; /* i = i + n << 1 */
      int plus = find_top(ta, rest, "+"), minus = find_top(ta, rest, "-");
      if (plus > rest.from && is_iv(ta, (Span){rest.from, plus}, iv)) {
        set_step(L, tu, ta, (Span){plus + 1, rest.to}, 0);
        return 1;
      }
      if (plus > rest.from && is_iv(ta, (Span){plus + 1, rest.to}, iv)) {
        set_step(L, tu, ta, (Span){rest.from, plus}, 0);
        return 1;
      }
      static const char *const additive[] = {"+", "-"};
      if (minus > rest.from && is_iv(ta, (Span){rest.from, minus}, iv) &&
          !has_top(ta, (Span){minus + 1, rest.to}, additive, 2)) { /* i = i - 2 + 1 is not i -= (2 + 1) */
        set_step(L, tu, ta, (Span){minus + 1, rest.to}, 1);
        return 1;
      }
    }
  }
  return 0;
}

static ForLoop *canonical_loop(TranslationUnit *tu, const TokenArray *ta, Stmt *s) {
  ForLoop *L = xcalloc(1, sizeof *L);
  int i = tok_first_at(ta, s->begin);
  if (i + 1 >= ta->n || !tok_is(&ta->t[i], "for") || !tok_is(&ta->t[i + 1], "("))
    return fail(L, tu, s->begin, "loop header comes from a macro; write the for loop out");
  /* Split the header at its two top-level semicolons. */
  int semi[2], nsemi = 0, depth = 0, close = -1;
  for (int j = i + 1; j < ta->n && ta->t[j].begin < s->end; j++) {
    if (is_opener(&ta->t[j])) depth++;
    else if (is_closer(&ta->t[j]) && --depth == 0) {
      close = j;
      break;
    } else if (depth == 1 && tok_is(&ta->t[j], ";") && nsemi < 2) semi[nsemi++] = j;
  }
  if (close < 0 || nsemi != 2) return fail(L, tu, s->begin, "cannot read the loop header");
  Span init = {i + 2, semi[0]}, cond = {semi[0] + 1, semi[1]}, incr = {semi[1] + 1, close};
  unsigned header = ta->t[i].begin;

  /* init */
  if (init.from == init.to)
    return fail(L, tu, header, "loop must initialise its variable: for (i = lb; i < ub; i++)");
  int eq = find_top(ta, init, "=");
  if (eq <= init.from || ta->t[eq - 1].kind != TK_IDENT || eq + 1 >= init.to)
    return fail(L, tu, ta->t[init.from].begin, "loop must initialise its variable: for (i = lb; i < ub; i++)");
  if (find_top(ta, init, ",") >= 0)
    return fail(L, tu, ta->t[init.from].begin, "loop initialises more than one variable");
  const char *iv = ta->t[eq - 1].spell;
  L->iv_declared = eq - 1 > init.from;
  L->iv = find_iv(s, iv);
  L->lb = span_expr(tu, ta, (Span){eq + 1, init.to});
  if (!L->iv) return fail(L, tu, ta->t[eq - 1].begin, "cannot find the loop variable's declaration");
  if (L->iv->tkind != VT_SCALAR || L->iv->is_float)
    return fail(L, tu, ta->t[eq - 1].begin, "loop variable must have integer type");

  /* cond */
  if (cond.from == cond.to) return fail(L, tu, header, "loop must have a condition: i < ub");
  static const char *relops[] = {"<", "<=", ">", ">="};
  int r = -1, which = -1;
  for (int k = 0; k < 4; k++) {
    int at = find_top(ta, cond, relops[k]);
    if (at >= 0 && (r < 0 || at < r)) r = at, which = k;
  }
  if (r < 0)
    return fail(L, tu, ta->t[cond.from].begin, "loop condition must compare the loop variable with <, <=, > or >=");
  Span lhs = {cond.from, r}, rhs = {r + 1, cond.to};
  if (has_top(ta, lhs, COND_LOOSE, NCOND_LOOSE) || has_top(ta, rhs, COND_LOOSE, NCOND_LOOSE))
    return fail(L, tu, ta->t[cond.from].begin, "loop condition must be one comparison of the loop variable with a bound");
  Span bound;
  if (lhs.from < lhs.to && rhs.from < rhs.to && is_iv(ta, lhs, iv)) {
    L->relop = (RelOp)which;
    L->ub = span_expr(tu, ta, bound = rhs);
  } else if (lhs.from < lhs.to && rhs.from < rhs.to && is_iv(ta, rhs, iv)) {
    static const RelOp flipped[] = {REL_GT, REL_GE, REL_LT, REL_LE};
    L->relop = flipped[which];
    L->ub = span_expr(tu, ta, bound = lhs);
  } else
    return fail(L, tu, ta->t[cond.from].begin, "loop condition must compare the loop variable with a bound");

  /* incr */
  if (incr.from == incr.to || !parse_incr(L, tu, ta, incr, iv))
    return fail(L, tu, incr.from < incr.to ? ta->t[incr.from].begin : header,
                "loop increment must be i++, i--, i += s, i -= s or i = i + s");
  /* lb, ub and s are evaluated once, before the loop (sizeof(i) too) */
  bool assign_form = incr.to - incr.from >= 3 && tok_is(&ta->t[incr.from + 1], "=");
  if (count_iv(ta, (Span){eq + 1, init.to}, iv) || count_iv(ta, bound, iv) ||
      count_iv(ta, incr, iv) > 1 + assign_form)
    return fail(L, tu, header, "loop bounds and step must not name the loop variable");
  if (L->step_is_const && L->step_value == 0) return fail(L, tu, L->step.loc.offset, "loop step is zero");
  if (L->step_is_const && ((L->step_value > 0) != (L->relop == REL_LT || L->relop == REL_LE)))
    return fail(L, tu, ta->t[incr.from].begin, "loop step goes away from the bound of the condition");
  if (has_top(ta, (Span){eq + 1, init.to}, (const char *const[]){","}, 1))
    return fail(L, tu, ta->t[init.from].begin, "loop initialises more than one variable");

  SrcLoc where;
  if (s->nkids > 0 && writes_var(s->kids[0], L->iv, &where))
    return fail(L, tu, where.offset, "loop variable is modified in the loop body");
  L->canonical = true;
  return L;
}

/* The header is read from the statement's tokens without its comments (`i < n // rows`). */
ForLoop *fe_canonical_loop(TranslationUnit *tu, const TokenArray *ta, Stmt *s) {
  TokenArray code = {xmalloc(((size_t)ta->n + 1) * sizeof *ta->t), 0};
  for (int j = tok_first_at(ta, s->begin); j < ta->n && ta->t[j].begin < s->end; j++)
    if (ta->t[j].kind != TK_COMMENT) code.t[code.n++] = ta->t[j];
  ForLoop *L = canonical_loop(tu, &code, s);
  free(code.t);
  return L;
}
