/* Compile-time dependence analysis of task loop nests (see taskdeps.h and
 * docs/taskdeps.md).
 *
 * Subscript text is parsed into a small polynomial over identifiers
 * (loop variables and symbols) with exact, overflow-checked integer
 * coefficients. Expanding first and classifying after makes the affine
 * test and the delinearisation the same walk, and gives symbolic parts a
 * canonical text for free. Distances come from solving M e = c_a - c_b
 * for each pair of items of a written array, M being their common
 * (injective) coefficient matrix. */
#include "taskdeps.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- Polynomials ------------------------------------------------------ */

/* Bounds keep the parser's values on the stack; subscripts are tiny. */
enum { MAX_NAMES = 16, MAX_TERMS = 16, MAX_DEG = 4, MAX_NEST = 32 };

/* coef * product of names f[0..deg-1], f sorted by name id. */
typedef struct Term {
  long long coef;
  int deg;
  int f[MAX_DEG];
} Term;

typedef struct Poly {
  int n;
  Term t[MAX_TERMS];
} Poly;

typedef struct Parser {
  const char *p;
  const char *name[MAX_NAMES]; /* ids < niv are the loop variables */
  size_t len[MAX_NAMES];
  int nnames, niv, nest;
  const char *why; /* first error */
} Parser;

static bool fail(Parser *ps, const char *why) {
  if (!ps->why) ps->why = why;
  return false;
}

static bool same_mono(const Term *a, const Term *b) {
  return a->deg == b->deg && !memcmp(a->f, b->f, (size_t)a->deg * sizeof *a->f);
}

/* Adds term t into p, merging like terms; zero terms disappear. */
static bool poly_add_term(Parser *ps, Poly *p, const Term *t) {
  for (int i = 0; i < p->n; i++) {
    if (!same_mono(&p->t[i], t)) continue;
    if (__builtin_add_overflow(p->t[i].coef, t->coef, &p->t[i].coef)) return fail(ps, "integer overflow");
    if (p->t[i].coef == 0) p->t[i] = p->t[--p->n];
    return true;
  }
  if (t->coef == 0) return true;
  if (p->n == MAX_TERMS) return fail(ps, "expression too complex");
  p->t[p->n++] = *t;
  return true;
}

static bool poly_add(Parser *ps, Poly *a, const Poly *b, long long sign) {
  for (int i = 0; i < b->n; i++) {
    Term t = b->t[i];
    if (__builtin_mul_overflow(t.coef, sign, &t.coef)) return fail(ps, "integer overflow");
    if (!poly_add_term(ps, a, &t)) return false;
  }
  return true;
}

static bool term_mul(Parser *ps, const Term *a, const Term *b, Term *r) {
  if (a->deg + b->deg > MAX_DEG) return fail(ps, "expression too complex");
  if (__builtin_mul_overflow(a->coef, b->coef, &r->coef)) return fail(ps, "integer overflow");
  int i = 0, j = 0;
  r->deg = 0;
  while (i < a->deg || j < b->deg)
    r->f[r->deg++] = j == b->deg || (i < a->deg && a->f[i] <= b->f[j]) ? a->f[i++] : b->f[j++];
  return true;
}

static bool poly_mul(Parser *ps, Poly *a, const Poly *b) {
  Poly r = {0};
  for (int i = 0; i < a->n; i++)
    for (int j = 0; j < b->n; j++) {
      Term t;
      if (!term_mul(ps, &a->t[i], &b->t[j], &t) || !poly_add_term(ps, &r, &t)) return false;
    }
  *a = r;
  return true;
}

/* ---- Scanner and parser ------------------------------------------------ */

static bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static char peek(Parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r') ps->p++;
  return *ps->p;
}

static int digit_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

/* An integer literal (decimal, octal or hex, u/l suffixes). */
static bool parse_number(Parser *ps, Poly *out) {
  const char *s = ps->p;
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    base = 16, s += 2;
  else if (s[0] == '0')
    base = 8;
  long long v = 0;
  const char *start = s;
  for (; digit_value(*s) < base; s++)
    if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, digit_value(*s), &v))
      return fail(ps, "integer literal too large");
  if (base == 16 && s == start) return fail(ps, "bad integer literal");
  while (*s == 'u' || *s == 'U' || *s == 'l' || *s == 'L') s++;
  if (*s == '.' || is_ident_char(*s)) return fail(ps, "not an integer literal");
  ps->p = s;
  out->n = 0;
  Term t = {v, 0, {0}};
  return poly_add_term(ps, out, &t);
}

static int intern(Parser *ps, const char *s, size_t len) {
  for (int i = 0; i < ps->nnames; i++)
    if (ps->len[i] == len && !strncmp(ps->name[i], s, len)) return i;
  if (ps->nnames == MAX_NAMES) return -1;
  ps->name[ps->nnames] = s;
  ps->len[ps->nnames] = len;
  return ps->nnames++;
}

static bool is_type_word(const char *s, size_t len) {
  static const char *const words[] = {"char",   "short", "int",  "long",    "unsigned", "signed",   "float",
                                      "double", "_Bool", "bool", "size_t",  "const",    "volatile", "struct",
                                      "union",  "enum",  "void", "int64_t", "int32_t",  "uint64_t", "uint32_t"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strlen(words[i]) == len && !strncmp(words[i], s, len)) return true;
  return false;
}

/* What follows an identifier decides whether it is a plain name. */
static bool parse_ident(Parser *ps, Poly *out) {
  const char *s = ps->p;
  while (is_ident_char(*ps->p)) ps->p++;
  size_t len = (size_t)(ps->p - s);
  if (len == 6 && !strncmp(s, "sizeof", 6)) return fail(ps, "sizeof");
  if (is_type_word(s, len)) return fail(ps, "cast");
  char c = peek(ps);
  if (c == '(') return fail(ps, "function call");
  if (c == '[') return fail(ps, "array read");
  if (c == '.' || (c == '-' && ps->p[1] == '>')) return fail(ps, "member access");
  int id = intern(ps, s, len);
  if (id < 0) return fail(ps, "expression too complex");
  out->n = 0;
  Term t = {1, 1, {id}};
  return poly_add_term(ps, out, &t);
}

static bool parse_expr(Parser *ps, Poly *out);

static bool parse_paren(Parser *ps, Poly *out) {
  ps->p++;
  if (++ps->nest > MAX_NEST) return fail(ps, "expression too complex");
  if (!parse_expr(ps, out)) return false;
  ps->nest--;
  if (peek(ps) != ')') return fail(ps, peek(ps) ? "unsupported operator" : "syntax error");
  ps->p++;
  char c = peek(ps);
  if (is_ident_char(c) || c == '(') return fail(ps, "cast");
  if (c == '[') return fail(ps, "array read");
  return true;
}

static bool parse_primary(Parser *ps, Poly *out) {
  char c = peek(ps);
  if (is_digit(c)) return parse_number(ps, out);
  if (is_ident_start(c)) return parse_ident(ps, out);
  if (c == '(') return parse_paren(ps, out);
  if (c == '.') return fail(ps, "not an integer literal");
  if (c == '\'' || c == '"') return fail(ps, "character or string literal");
  if (c == '*' || c == '&') return fail(ps, "pointer dereference or address");
  if (c == '\0' || c == ')') return fail(ps, "syntax error");
  return fail(ps, "unsupported operator");
}

/* Rejects ++, --, +=, -=, *= and -> where a + - * would be read. */
static bool plain_op(Parser *ps) {
  char c = ps->p[0], n = ps->p[1];
  if ((c == '+' || c == '-') && n == c) return fail(ps, "increment or decrement");
  if (c == '-' && n == '>') return fail(ps, "member access");
  if (n == '=') return fail(ps, "assignment");
  return true;
}

static bool parse_unary(Parser *ps, Poly *out) {
  char c = peek(ps);
  if (c != '-' && c != '+') return parse_primary(ps, out);
  if (!plain_op(ps)) return false;
  ps->p++;
  if (++ps->nest > MAX_NEST) return fail(ps, "expression too complex");
  if (!parse_unary(ps, out)) return false;
  ps->nest--;
  if (c == '-') {
    Poly neg = {0};
    if (!poly_add(ps, &neg, out, -1)) return false;
    *out = neg;
  }
  return true;
}

static bool parse_term(Parser *ps, Poly *out) {
  if (!parse_unary(ps, out)) return false;
  for (;;) {
    char c = peek(ps);
    if (c == '/' || c == '%') return fail(ps, "division");
    if (c != '*') return true;
    if (!plain_op(ps)) return false;
    ps->p++;
    Poly rhs;
    if (!parse_unary(ps, &rhs) || !poly_mul(ps, out, &rhs)) return false;
  }
}

static bool parse_expr(Parser *ps, Poly *out) {
  if (!parse_term(ps, out)) return false;
  for (;;) {
    char c = peek(ps);
    if (c != '+' && c != '-') return true;
    if (!plain_op(ps)) return false;
    ps->p++;
    Poly rhs;
    if (!parse_term(ps, &rhs) || !poly_add(ps, out, &rhs, c == '-' ? -1 : 1)) return false;
  }
}

/* Parses the whole text; ivs become name ids 0..niv-1. */
static bool parse_text(Parser *ps, const char *text, const char *const *ivs, int niv, Poly *out) {
  memset(ps, 0, sizeof *ps);
  if (niv < 0 || niv > TD_MAX_DEPTH) return fail(ps, "too many loop variables");
  for (int i = 0; i < niv; i++) {
    ps->name[i] = ivs[i];
    ps->len[i] = strlen(ivs[i]);
  }
  ps->nnames = ps->niv = niv;
  ps->p = text;
  if (!parse_expr(ps, out)) return false;
  if (peek(ps) == ')') return fail(ps, "syntax error");
  if (peek(ps) != '\0') return fail(ps, "unsupported operator");
  return true;
}

/* ---- Classification ---------------------------------------------------- */

static int count_ivs(const Parser *ps, const Term *t) {
  int n = 0;
  for (int i = 0; i < t->deg; i++) n += t->f[i] < ps->niv;
  return n;
}

static int first_iv(const Parser *ps, const Term *t) {
  for (int i = 0; i < t->deg; i++)
    if (t->f[i] < ps->niv) return t->f[i];
  return -1;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* "m*n" with the factor names in strcmp order. */
static char *mono_text(const Parser *ps, const Term *t) {
  const char *names[MAX_DEG];
  char *owned[MAX_DEG];
  for (int i = 0; i < t->deg; i++) owned[i] = xstrndup(ps->name[t->f[i]], ps->len[t->f[i]]);
  for (int i = 0; i < t->deg; i++) names[i] = owned[i];
  qsort(names, (size_t)t->deg, sizeof *names, cmp_str);
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < t->deg; i++) sb_printf(&sb, "%s%s", i ? "*" : "", names[i]);
  for (int i = 0; i < t->deg; i++) free(owned[i]);
  return sb_take(&sb);
}

typedef struct SymTerm {
  char *mono;
  long long coef;
} SymTerm;

static int cmp_symterm(const void *a, const void *b) {
  return strcmp(((const SymTerm *)a)->mono, ((const SymTerm *)b)->mono);
}

/* Canonical text of the iv-free, non-constant terms of p (NULL if none):
 * terms sorted by monomial, so equal polynomials print equal. */
static char *sym_text(const Parser *ps, const Poly *p) {
  SymTerm st[MAX_TERMS];
  int n = 0;
  for (int i = 0; i < p->n; i++)
    if (p->t[i].deg > 0) st[n++] = (SymTerm){mono_text(ps, &p->t[i]), p->t[i].coef};
  if (n == 0) return NULL;
  qsort(st, (size_t)n, sizeof *st, cmp_symterm);
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < n; i++) {
    bool neg = st[i].coef < 0;
    /* Unsigned negation: defined for LLONG_MIN too. */
    unsigned long long mag = neg ? 0ULL - (unsigned long long)st[i].coef : (unsigned long long)st[i].coef;
    if (i)
      sb_puts(&sb, neg ? " - " : " + ");
    else if (neg)
      sb_putc(&sb, '-');
    if (mag != 1) sb_printf(&sb, "%llu*", mag);
    sb_puts(&sb, st[i].mono);
    free(st[i].mono);
  }
  return sb_take(&sb);
}

/* Splits p into loop-variable coefficients, constant and symbolic part. */
static bool to_affine(Parser *ps, const Poly *p, TdAffine *out) {
  memset(out, 0, sizeof *out);
  Poly sym = {0};
  for (int i = 0; i < p->n; i++) {
    const Term *t = &p->t[i];
    int nivs = count_ivs(ps, t);
    if (nivs > 1) return fail(ps, "product of loop variables");
    if (nivs == 1 && t->deg > 1) return fail(ps, "loop variable times a symbol");
    if (nivs == 1)
      out->coef[t->f[0]] = t->coef;
    else if (t->deg == 0)
      out->c = t->coef;
    else
      sym.t[sym.n++] = *t;
  }
  out->sym = sym_text(ps, &sym);
  return true;
}

bool td_parse_affine(const char *text, const char *const *ivs, int niv, TdAffine *out, const char **why) {
  Parser ps;
  Poly p;
  memset(out, 0, sizeof *out);
  bool ok = parse_text(&ps, text, ivs, niv, &p) && to_affine(&ps, &p, out);
  if (why) *why = ok ? NULL : ps.why;
  return ok;
}

bool td_linear_in_ivs(const char *text, const char *const *ivs, int niv, bool (*sym_ok)(const char *, void *),
                      void *arg) {
  Parser ps;
  Poly p;
  if (!parse_text(&ps, text, ivs, niv, &p)) return false;
  for (int i = 0; i < p.n; i++)
    if (count_ivs(&ps, &p.t[i]) > 1) return false;
  for (int id = niv; id < ps.nnames; id++) {
    char *name = xstrndup(ps.name[id], ps.len[id]);
    bool ok = sym_ok(name, arg);
    free(name);
    if (!ok) return false;
  }
  return true;
}

void td_affine_free(TdAffine *a) {
  free(a->sym);
  a->sym = NULL;
}

/* The one symbol of p, or -1 when there is none or more than one. */
static int only_symbol(const Parser *ps, const Poly *p) {
  int s = -1;
  for (int i = 0; i < p->n; i++)
    for (int j = 0; j < p->t[i].deg; j++) {
      int f = p->t[i].f[j];
      if (f < ps->niv) continue;
      if (s >= 0 && f != s) return -1;
      s = f;
    }
  return s;
}

/* Adds term t to the row form (it has the factor S) or the column form:
 * at most one loop variable and at most one S per term. */
static bool delin_term(const Parser *ps, const Term *t, TdAffine *row, TdAffine *col) {
  int nivs = count_ivs(ps, t), nsym = t->deg - nivs;
  if (nsym > 1 || nivs > 1) return false;
  TdAffine *dst = nsym ? row : col;
  int iv = first_iv(ps, t);
  if (iv >= 0)
    dst->coef[iv] = t->coef;
  else
    dst->c = t->coef;
  return true;
}

bool td_delinearize(const char *text, const char *const *ivs, int niv, TdAffine *row, TdAffine *col, char **sym) {
  Parser ps;
  Poly p;
  memset(row, 0, sizeof *row);
  memset(col, 0, sizeof *col);
  *sym = NULL;
  if (!parse_text(&ps, text, ivs, niv, &p)) return false;
  int s = only_symbol(&ps, &p);
  if (s < 0) return false;
  for (int i = 0; i < p.n; i++)
    if (!delin_term(&ps, &p.t[i], row, col)) return false;
  *sym = xstrndup(ps.name[s], ps.len[s]);
  return true;
}

/* sym + k*extra, canonical, through the parser (iv-free text). */
static bool add_sym(char **sym, long long k, const char *extra) {
  if (!extra || k == 0) return true;
  char *text = xasprintf("%s%s(%lld)*(%s)", *sym ? *sym : "", *sym ? " + " : "", k, extra);
  TdAffine t;
  bool ok = td_parse_affine(text, NULL, 0, &t, NULL);
  free(text);
  if (!ok) return false;
  free(*sym);
  *sym = t.sym;
  return true;
}

bool td_affine_normalise(TdAffine *a, int depth, const TdAffine *lb, const long long *step) {
  TdAffine r = *a;
  r.sym = a->sym ? xstrdup(a->sym) : NULL;
  bool ok = true;
  for (int l = 0; l < depth && ok; l++) {
    long long cl;
    ok = !__builtin_mul_overflow(a->coef[l], step[l], &r.coef[l]) &&
         !__builtin_mul_overflow(a->coef[l], lb[l].c, &cl) && !__builtin_add_overflow(r.c, cl, &r.c) &&
         add_sym(&r.sym, a->coef[l], lb[l].sym);
  }
  if (!ok) {
    td_affine_free(&r);
    return false;
  }
  td_affine_free(a);
  *a = r;
  return true;
}

/* ---- Distances --------------------------------------------------------- */

static bool lex_positive(const long long *e, int depth) {
  for (int l = 0; l < depth; l++)
    if (e[l]) return e[l] > 0;
  return false;
}

static void no(TdDeps *d, const char *why) {
  d->affine = false;
  d->why_not = why;
  d->ndist = 0;
}

/* Adds e (or -e, whichever is lexicographically positive) once. */
static void add_dist(TdDeps *d, const long long *e, int depth) {
  if (!d->affine) return;
  long long v[TD_MAX_DEPTH] = {0};
  for (int l = 0; l < depth; l++)
    if (e[l] == LLONG_MIN) {
      no(d, "subscript constants too large"); /* cannot be negated */
      return;
    }
  bool pos = lex_positive(e, depth);
  for (int l = 0; l < depth; l++) v[l] = pos ? e[l] : -e[l];
  if (!lex_positive(v, depth)) return; /* zero: the same task */
  for (int i = 0; i < d->ndist; i++)
    if (!memcmp(d->dist[i], v, sizeof v)) return;
  if (d->ndist == TD_MAX_DIST) {
    no(d, "more than 64 distance vectors");
    return;
  }
  memcpy(d->dist[d->ndist++], v, sizeof v);
}

static bool same_sym(const char *a, const char *b) { return (!a && !b) || (a && b && !strcmp(a, b)); }

/* Checked arithmetic for the small determinants below. */
typedef struct Arith {
  bool overflow;
} Arith;

static long long mul(Arith *ar, long long a, long long b) {
  long long r;
  if (__builtin_mul_overflow(a, b, &r)) ar->overflow = true;
  return r;
}

static long long add(Arith *ar, long long a, long long b) {
  long long r;
  if (__builtin_add_overflow(a, b, &r)) ar->overflow = true;
  return r;
}

static long long sub(Arith *ar, long long a, long long b) {
  long long r;
  if (__builtin_sub_overflow(a, b, &r)) ar->overflow = true;
  return r;
}

/* Determinant of the n x n matrix m (n <= 3), by cofactors. */
static long long det(Arith *ar, int n, long long m[TD_MAX_DEPTH][TD_MAX_DEPTH]) {
  if (n == 1) return m[0][0];
  if (n == 2) return sub(ar, mul(ar, m[0][0], m[1][1]), mul(ar, m[0][1], m[1][0]));
  long long r = 0;
  for (int j = 0; j < 3; j++) {
    int a = (j + 1) % 3, b = (j + 2) % 3;
    long long minor = sub(ar, mul(ar, m[1][a], m[2][b]), mul(ar, m[1][b], m[2][a]));
    r = add(ar, r, mul(ar, m[0][j], minor));
  }
  return r;
}

/* The common coefficient matrix of an array's items, and depth of its
 * rows that are linearly independent (the rows Cramer's rule uses). */
typedef struct Matrix {
  int ndims, depth;
  long long m[TD_MAX_DIMS][TD_MAX_DEPTH];
  int rows[TD_MAX_DEPTH];
  long long det;
} Matrix;

static void square(const Matrix *M, long long sq[TD_MAX_DEPTH][TD_MAX_DEPTH]) {
  for (int i = 0; i < M->depth; i++)
    for (int j = 0; j < M->depth; j++) sq[i][j] = M->m[M->rows[i]][j];
}

/* Tries row subsets in order; injective iff one has a nonzero det. */
static bool pick_rows(Arith *ar, Matrix *M, int next, int have) {
  if (have == M->depth) {
    long long sq[TD_MAX_DEPTH][TD_MAX_DEPTH];
    square(M, sq);
    M->det = det(ar, M->depth, sq);
    return M->det != 0;
  }
  for (int r = next; r < M->ndims; r++) {
    M->rows[have] = r;
    if (pick_rows(ar, M, r + 1, have + 1)) return true;
  }
  return false;
}

/* The integral e with M e = rhs, if any (Cramer, then all rows checked). */
static bool solve(Arith *ar, const Matrix *M, const long long *rhs, long long *e) {
  for (int l = 0; l < M->depth; l++) {
    long long sq[TD_MAX_DEPTH][TD_MAX_DEPTH];
    square(M, sq);
    for (int i = 0; i < M->depth; i++) sq[i][l] = rhs[M->rows[i]];
    long long num = det(ar, M->depth, sq);
    if (M->det == -1 && num == LLONG_MIN) ar->overflow = true; /* the one quotient that overflows */
    if (ar->overflow || num % M->det) return false;
    e[l] = num / M->det;
  }
  for (int r = 0; r < M->ndims; r++) {
    long long v = 0;
    for (int l = 0; l < M->depth; l++) v = add(ar, v, mul(ar, M->m[r][l], e[l]));
    if (v != rhs[r]) return false;
  }
  return true;
}

static bool writes(const TdItem *it) { return it->kind != TD_IN; }

/* Checks that items idx[0..n-1] share rank, matrix and symbolic parts. */
static const char *check_uniform(const TdItem *items, const int *idx, int n, int depth) {
  const TdItem *a = &items[idx[0]];
  for (int i = 1; i < n; i++) {
    const TdItem *b = &items[idx[i]];
    if (b->ndims != a->ndims) return "items of one array with different numbers of subscripts";
    for (int d = 0; d < a->ndims; d++) {
      if (memcmp(a->sub[d].coef, b->sub[d].coef, (size_t)depth * sizeof(long long)))
        return "items of one array with different loop-variable coefficients";
      if (!same_sym(a->sub[d].sym, b->sub[d].sym)) return "items of one array with different symbolic offsets";
    }
  }
  return NULL;
}

/* Distances from the items of one array (idx[0..n-1]) into out. */
static void analyze_array(int depth, const TdItem *items, const int *idx, int n, TdDeps *out) {
  bool any_write = false;
  for (int i = 0; i < n; i++) any_write |= writes(&items[idx[i]]);
  if (!any_write) return; /* reads never conflict */
  const char *why = check_uniform(items, idx, n, depth);
  if (why) {
    no(out, why);
    return;
  }
  Matrix M = {.ndims = items[idx[0]].ndims, .depth = depth};
  for (int r = 0; r < M.ndims; r++) memcpy(M.m[r], items[idx[0]].sub[r].coef, sizeof M.m[r]);
  Arith ar = {false};
  if (!pick_rows(&ar, &M, 0, 0) || ar.overflow) {
    no(out, ar.overflow ? "subscript coefficients too large"
                        : "subscripts do not determine the iteration: tasks along a free direction share an element");
    return;
  }
  for (int i = 0; i < n && out->affine; i++)
    for (int j = i + 1; j < n && out->affine; j++) {
      const TdItem *a = &items[idx[i]], *b = &items[idx[j]];
      if (!writes(a) && !writes(b)) continue;
      long long rhs[TD_MAX_DIMS], e[TD_MAX_DEPTH] = {0};
      for (int r = 0; r < M.ndims; r++) rhs[r] = sub(&ar, a->sub[r].c, b->sub[r].c);
      bool hit = solve(&ar, &M, rhs, e);
      if (ar.overflow) {
        no(out, "subscript constants too large");
        return;
      }
      if (hit) add_dist(out, e, depth);
    }
}

static const char *check_item(int depth, const TdItem *it) {
  if (it->ndims < 0 || it->ndims > TD_MAX_DIMS) return "too many subscripts";
  for (int d = 0; d < it->ndims; d++)
    for (int l = depth; l < TD_MAX_DEPTH; l++)
      if (it->sub[d].coef[l]) return "subscript uses a loop variable outside the nest";
  return NULL;
}

void td_analyze(int depth, const TdItem *items, int nitems, TdDeps *out) {
  memset(out, 0, sizeof *out);
  out->affine = true;
  if (depth < 1 || depth > TD_MAX_DEPTH) {
    no(out, "task loop nest deeper than 3");
    return;
  }
  for (int i = 0; i < nitems; i++) {
    const char *why = check_item(depth, &items[i]);
    if (why) {
      no(out, why);
      return;
    }
  }
  int *idx = xmalloc((size_t)(nitems ? nitems : 1) * sizeof *idx);
  for (int i = 0; i < nitems && out->affine; i++) {
    bool first = true;
    for (int j = 0; j < i; j++) first &= items[j].array != items[i].array;
    if (!first) continue;
    int n = 0;
    for (int j = i; j < nitems; j++)
      if (items[j].array == items[i].array) idx[n++] = j;
    analyze_array(depth, items, idx, n, out);
  }
  free(idx);
}

/* Whether k - e is in the box, for k in the box; written so that no
 * huge e overflows. */
static bool pred_in_box(int depth, const long long *n, const long long *k, const long long *e) {
  for (int l = 0; l < depth; l++)
    if (e[l] > k[l] || e[l] <= k[l] - n[l]) return false;
  return true;
}

int td_npred(const TdDeps *d, int depth, const long long *n, const long long *k) {
  int c = 0;
  for (int i = 0; i < d->ndist; i++) c += pred_in_box(depth, n, k, d->dist[i]);
  return c;
}

bool td_nonnegative(const TdDeps *d, int depth) {
  for (int i = 0; i < d->ndist; i++)
    for (int l = 0; l < depth; l++)
      if (d->dist[i][l] < 0) return false;
  return true;
}

/* ---- Tiles ------------------------------------------------------------- */

/* A cell edge p -> p + e crosses tiles by floor or ceil of e/B per loop
 * (e >= 0), whatever p's offset inside its tile. */
void td_tile_deps(const TdDeps *cell, int depth, const long long *B, TdDeps *tiles) {
  memset(tiles, 0, sizeof *tiles);
  tiles->affine = true;
  if (!cell->affine) {
    no(tiles, cell->why_not);
    return;
  }
  if (!td_nonnegative(cell, depth)) {
    no(tiles, "a distance with a negative component: rectangular tiles are illegal");
    return;
  }
  for (int l = 0; l < depth; l++)
    if (B[l] < 1) {
      no(tiles, "tile size below 1");
      return;
    }
  for (int i = 0; i < cell->ndist && tiles->affine; i++)
    for (int mask = 0; mask < 1 << depth && tiles->affine; mask++) {
      long long D[TD_MAX_DEPTH] = {0};
      for (int l = 0; l < depth; l++) {
        long long e = cell->dist[i][l];
        D[l] = mask >> l & 1 ? e / B[l] + (e % B[l] != 0) : e / B[l];
      }
      add_dist(tiles, D, depth);
    }
}

/* ---- Emitters ---------------------------------------------------------- */

/* A positive constant as C text; LL only where int would not hold it. */
static const char *ll_suffix(long long v) { return v > INT_MAX ? "LL" : ""; }

/* Appends the condition that k + sign*e lies in the box: one bound per
 * nonzero component, the other holds because k is in the box. */
static void put_cond(StrBuf *sb, const long long *e, long long sign, int depth, const char *const *kvar,
                     const char *const *nvar) {
  bool first = true;
  for (int l = 0; l < depth; l++) {
    long long v = sign * e[l];
    if (v == 0) continue;
    if (!first) sb_puts(sb, " && ");
    first = false;
    if (v > 0)
      sb_printf(sb, "%s + %lld%s < %s", kvar[l], v, ll_suffix(v), nvar[l]);
    else
      sb_printf(sb, "%s >= %lld%s", kvar[l], -v, ll_suffix(-v));
  }
}

void td_emit_npred(StrBuf *sb, const TdDeps *d, int depth, const char *const *kvar, const char *const *nvar,
                   const char *out) {
  sb_printf(sb, "%s = 0;\n", out);
  for (int i = 0; i < d->ndist; i++) {
    sb_printf(sb, "%s += (", out);
    put_cond(sb, d->dist[i], -1, depth, kvar, nvar);
    sb_puts(sb, ");\n");
  }
}

static char *coord_text(const char *kvar, long long v) {
  if (v > 0) return xasprintf("%s + %lld%s", kvar, v, ll_suffix(v));
  if (v < 0) return xasprintf("%s - %lld%s", kvar, -v, ll_suffix(-v));
  return xstrdup(kvar);
}

void td_emit_succ(StrBuf *sb, const TdDeps *d, int depth, const char *const *kvar, const char *const *nvar,
                  void (*emit)(StrBuf *sb, const char *const *coords, void *ctx), void *ctx) {
  for (int i = 0; i < d->ndist; i++) {
    char *coords[TD_MAX_DEPTH];
    for (int l = 0; l < depth; l++) coords[l] = coord_text(kvar[l], d->dist[i][l]);
    sb_puts(sb, "if (");
    put_cond(sb, d->dist[i], 1, depth, kvar, nvar);
    sb_puts(sb, ") { ");
    emit(sb, (const char *const *)coords, ctx);
    sb_puts(sb, " }\n");
    for (int l = 0; l < depth; l++) free(coords[l]);
  }
}

/* With every distance non-negative, e = e1 + e2 (e1, e2 in the set) is
 * implied: the path q - e -> q - e2 -> q stays in the box (the box is
 * convex and the middle point lies between the ends). Dropping such e
 * saves a counter update per task: (1,1) of a wavefront goes. */
void td_prune_implied(TdDeps *d, int depth) {
  if (!d->affine || !td_nonnegative(d, depth)) return;
  bool drop[TD_MAX_DIST] = {false};
  for (int e = 0; e < d->ndist; e++)
    for (int a = 0; a < d->ndist && !drop[e]; a++)
      for (int b = 0; b < d->ndist && !drop[e]; b++) {
        if (a == e || b == e || drop[a] || drop[b]) continue;
        bool sum = true;
        for (int l = 0; l < depth; l++) sum &= d->dist[a][l] + d->dist[b][l] == d->dist[e][l];
        drop[e] = sum;
      }
  int n = 0;
  for (int e = 0; e < d->ndist; e++)
    if (!drop[e]) memmove(d->dist[n++], d->dist[e], sizeof d->dist[e]);
  d->ndist = n;
}
