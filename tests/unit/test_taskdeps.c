/* Unit tests of the task dependence analysis (transform/taskdeps.c):
 * subscript parsing and delinearisation, then property tests that compare
 * the distance vectors, predecessor counts, successors, tile distances
 * and the emitted C against a brute force that enumerates every pair of
 * tasks of random small loop nests. The random cases use a fixed seed. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "taskdeps.h"
#include "unit.h"

/* ---- Parsing ----------------------------------------------------------- */

static const char *const IJK[] = {"i", "j", "k"};

static void check_affine(const char *text, int niv, long long c0, long long c1, long long c2, long long c,
                         const char *sym) {
  TdAffine a;
  const char *why = "unset";
  bool ok = td_parse_affine(text, IJK, niv, &a, &why);
  CHECK(ok);
  if (!ok) {
    fprintf(stderr, "  \"%s\" rejected: %s\n", text, why ? why : "(null)");
    return;
  }
  CHECK(why == NULL);
  bool same = a.coef[0] == c0 && a.coef[1] == c1 && a.coef[2] == c2 && a.c == c;
  CHECK(same);
  if (!same) fprintf(stderr, "  \"%s\": %lld %lld %lld %lld\n", text, a.coef[0], a.coef[1], a.coef[2], a.c);
  if (sym)
    CHECK_STR(a.sym, sym);
  else
    CHECK(a.sym == NULL);
  td_affine_free(&a);
}

static void check_reject(const char *text, int niv, const char *why_part) {
  TdAffine a;
  const char *why = NULL;
  bool ok = td_parse_affine(text, IJK, niv, &a, &why);
  CHECK(!ok);
  CHECK(why && strstr(why, why_part));
  if (ok || !why || !strstr(why, why_part))
    fprintf(stderr, "  \"%s\": %s (wanted %s)\n", text, ok ? "accepted" : why, why_part);
  td_affine_free(&a);
}

static void test_parse_accepts(void) {
  check_affine("i-1", 1, 1, 0, 0, -1, NULL);
  check_affine("(i) + 2*j - 3", 2, 1, 2, 0, -3, NULL);
  check_affine("m - j", 2, 0, -1, 0, 0, "m");
  check_affine("2*(i+1)", 1, 2, 0, 0, 2, NULL);
  check_affine("n - 1", 1, 0, 0, 0, -1, "n");
  check_affine("-(i - 3)", 1, -1, 0, 0, 3, NULL);
  check_affine("+i", 1, 1, 0, 0, 0, NULL);
  check_affine("- - i", 1, 1, 0, 0, 0, NULL);
  check_affine("0x10 + i", 1, 1, 0, 0, 16, NULL);
  check_affine("010 + 5u + 3L + 7ULL", 1, 0, 0, 0, 23, NULL);
  check_affine("i*2*3", 1, 6, 0, 0, 0, NULL);
  check_affine("3*(2*i - j) + k", 3, 6, -3, 1, 0, NULL);
  check_affine("i - i + 4", 1, 0, 0, 0, 4, NULL);
  check_affine("(i - j) * (2 + 1) - (i*3)", 2, 0, -3, 0, 0, NULL);
  check_affine("\ti +\n j ", 2, 1, 1, 0, 0, NULL);
  check_affine("k", 3, 0, 0, 1, 0, NULL);
  check_affine("i", 0, 0, 0, 0, 0, "i"); /* not a loop variable here: a symbol */
  check_affine("ii + i_1 + i", 1, 1, 0, 0, 0, "i_1 + ii");
  /* Symbolic parts are canonical: order, grouping and constants do not matter. */
  check_affine("n*m + i", 1, 1, 0, 0, 0, "m*n");
  check_affine("m*n - 2 + i", 1, 1, 0, 0, -2, "m*n");
  check_affine("i + n*m - 2*m*n + k", 1, 1, 0, 0, 0, "k - m*n");
  check_affine("(m+1)*(m-1)", 0, 0, 0, 0, -1, "m*m");
  check_affine("b + a - 3*c", 0, 0, 0, 0, 0, "a + b - 3*c");
  check_affine("-a", 0, 0, 0, 0, 0, "-a");
  check_affine("m - m + i", 1, 1, 0, 0, 0, NULL);
  check_affine("(i - j) * (i - j) - i*i - j*j + 2*i*j + 1", 2, 0, 0, 0, 1, NULL);
  char deep[200] = "", ok_deep[200] = "";
  for (int d = 0; d < 20; d++) strcat(ok_deep, "(");
  strcat(ok_deep, "i");
  for (int d = 0; d < 20; d++) strcat(ok_deep, ")");
  check_affine(ok_deep, 1, 1, 0, 0, 0, NULL);
  for (int d = 0; d < 40; d++) strcat(deep, "(");
  strcat(deep, "i");
  for (int d = 0; d < 40; d++) strcat(deep, ")");
  check_reject(deep, 1, "too complex");
}

static void test_parse_rejects(void) {
  check_reject("f(i)", 1, "call");
  check_reject("(int)i", 1, "cast");
  check_reject("(long long)i + 1", 1, "cast");
  check_reject("(T)i", 1, "cast");
  check_reject("(T)(i)", 1, "cast");
  check_reject("idx[i]", 1, "array read");
  check_reject("(p)[i]", 1, "array read");
  check_reject("i/2", 1, "division");
  check_reject("n/2 + i", 1, "division");
  check_reject("i%2", 1, "division");
  check_reject("i*j", 2, "product of loop variables");
  check_reject("(i+1)*(j-1)", 2, "product of loop variables");
  check_reject("i*m", 1, "loop variable times a symbol");
  check_reject("i*m + j", 2, "loop variable times a symbol");
  check_reject("s.x + i", 1, "member access");
  check_reject("p->x", 1, "member access");
  check_reject("1.5", 1, "integer literal");
  check_reject("1e3", 1, "integer literal");
  check_reject(".5", 1, "integer literal");
  check_reject("1.0f + i", 1, "integer literal");
  check_reject("099", 1, "integer literal");
  check_reject("99999999999999999999", 1, "too large");
  check_reject("9223372036854775807 + 1", 1, "overflow");
  check_reject("i++", 1, "increment");
  check_reject("--i", 1, "increment");
  check_reject("i += 1", 1, "assignment");
  check_reject("i = 1", 1, "unsupported operator");
  check_reject("i == 1", 1, "unsupported operator");
  check_reject("i << 1", 1, "unsupported operator");
  check_reject("i ? 1 : 2", 1, "unsupported operator");
  check_reject("(i > 0 ? i - 1 : 0)", 1, "unsupported operator"); /* inside parentheses too */
  check_reject("i, j", 2, "unsupported operator");
  check_reject("~i", 1, "unsupported operator");
  check_reject("*p", 1, "pointer");
  check_reject("sizeof(int)", 1, "sizeof");
  check_reject("'a'", 1, "literal");
  check_reject("", 1, "syntax error");
  check_reject("(i", 1, "syntax error");
  check_reject("i)", 1, "syntax error");
  check_reject("i +", 1, "syntax error");
  check_reject("a*b*c*d*e", 0, "too complex");
}

static void check_delin(const char *text, long long r0, long long r1, long long rc, long long c0, long long c1,
                        long long cc, const char *sym) {
  TdAffine row, col;
  char *s = NULL;
  bool ok = td_delinearize(text, IJK, 2, &row, &col, &s);
  CHECK(ok);
  if (!ok) {
    fprintf(stderr, "  \"%s\" not delinearised\n", text);
    return;
  }
  CHECK_STR(s, sym);
  CHECK(row.coef[0] == r0 && row.coef[1] == r1 && row.c == rc && !row.sym);
  CHECK(col.coef[0] == c0 && col.coef[1] == c1 && col.c == cc && !col.sym);
  td_affine_free(&row);
  td_affine_free(&col);
  free(s);
}

static void check_no_delin(const char *text) {
  TdAffine row, col;
  char *s = NULL;
  bool ok = td_delinearize(text, IJK, 2, &row, &col, &s);
  CHECK(!ok && !s);
  if (ok) fprintf(stderr, "  \"%s\" delinearised\n", text);
  td_affine_free(&row);
  td_affine_free(&col);
  free(s);
}

static void test_delinearize(void) {
  check_delin("i*m + j", 1, 0, 0, 0, 1, 0, "m");
  check_delin("m*i + j", 1, 0, 0, 0, 1, 0, "m");
  check_delin("j + i*m", 1, 0, 0, 0, 1, 0, "m");
  check_delin("(i-1)*m + j", 1, 0, -1, 0, 1, 0, "m");
  check_delin("(i + 1) * ld + j - 1", 1, 0, 1, 0, 1, -1, "ld");
  check_delin("2*i*m + j", 2, 0, 0, 0, 1, 0, "m");
  check_delin("j*n + i", 0, 1, 0, 1, 0, 0, "n");
  check_delin("m + j", 0, 0, 1, 0, 1, 0, "m");
  check_delin("i*m", 1, 0, 0, 0, 0, 0, "m");
  check_delin("(i*m + j) - m", 1, 0, -1, 0, 1, 0, "m");
  check_no_delin("i + j");
  check_no_delin("i*m + j*n");
  check_no_delin("i*m + n");
  check_no_delin("i*m*m + j");
  check_no_delin("i*j*m");
  check_no_delin("f(i)*m + j");
  check_no_delin("i*m + j/2");
}

static void test_normalise(void) {
  const char *why;
  TdAffine lb[2], a;
  long long step[2] = {2, -1};
  CHECK(td_parse_affine("1", NULL, 0, &lb[0], &why));
  CHECK(td_parse_affine("n", NULL, 0, &lb[1], &why));
  /* i = 1 + 2*k0, j = n - k1 */
  CHECK(td_parse_affine("i - 1 + j", IJK, 2, &a, &why));
  CHECK(td_affine_normalise(&a, 2, lb, step));
  CHECK(a.coef[0] == 2 && a.coef[1] == -1 && a.c == 0);
  CHECK_STR(a.sym, "n");
  td_affine_free(&a);
  CHECK(td_parse_affine("m + 2*j - 2*n", IJK, 2, &a, &why));
  CHECK(td_affine_normalise(&a, 2, lb, step));
  CHECK(a.coef[0] == 0 && a.coef[1] == -2 && a.c == 0);
  CHECK_STR(a.sym, "m");
  td_affine_free(&a);
  CHECK(td_parse_affine("j - n", IJK, 2, &a, &why));
  CHECK(td_affine_normalise(&a, 2, lb, step));
  CHECK(a.coef[1] == -1 && a.sym == NULL);
  td_affine_free(&a);
  td_affine_free(&lb[0]);
  td_affine_free(&lb[1]);
}

/* ---- Random loop nests and the brute force ------------------------------ */

typedef struct Rng {
  uint64_t s;
} Rng;

static int rnd(Rng *r, int n) {
  r->s ^= r->s << 13, r->s ^= r->s >> 7, r->s ^= r->s << 17;
  return (int)(r->s % (uint64_t)n);
}

enum { MAX_ITEMS = 4, MAX_TASKS = 216, SYM_VALUE = 50 };

typedef struct Case {
  int depth, nitems;
  long long n[TD_MAX_DEPTH];
  TdItem items[MAX_ITEMS];
} Case;

typedef struct ArrayShape {
  int ndims;
  long long m[TD_MAX_DIMS][TD_MAX_DEPTH];
  char *sym[TD_MAX_DIMS];
} ArrayShape;

static long long small_coef(Rng *r) { return rnd(r, 4) - 1; } /* -1, 0, 1, 2 */

static void random_matrix(Rng *r, int depth, ArrayShape *a) {
  bool ident = rnd(r, 3) != 0;
  int perm[TD_MAX_DEPTH] = {0, 1, 2};
  for (int l = depth - 1; l > 0; l--) {
    int j = rnd(r, l + 1), t = perm[l];
    perm[l] = perm[j], perm[j] = t;
  }
  for (int d = 0; d < a->ndims; d++)
    for (int l = 0; l < depth; l++) {
      if (ident && d < depth) {
        static const long long scale[] = {1, 1, 1, -1, 2};
        a->m[d][l] = perm[d] == l ? scale[rnd(r, 5)] : (rnd(r, 6) == 0 ? small_coef(r) : 0);
      } else {
        a->m[d][l] = small_coef(r);
      }
    }
}

static int random_rank(Rng *r, int depth) {
  switch (rnd(r, 12)) {
  case 0: return 0;
  case 1: return depth - 1;
  case 2:
  case 3: return depth + 1;
  default: return depth;
  }
}

static void random_case(Rng *r, Case *cs) {
  memset(cs, 0, sizeof *cs);
  cs->depth = 1 + rnd(r, 3);
  for (int l = 0; l < cs->depth; l++) cs->n[l] = 1 + rnd(r, 6);
  int narrays = rnd(r, 4) ? 1 + rnd(r, 2) : 3;
  ArrayShape shapes[3];
  memset(shapes, 0, sizeof shapes);
  for (int a = 0; a < narrays; a++) {
    shapes[a].ndims = random_rank(r, cs->depth);
    random_matrix(r, cs->depth, &shapes[a]);
    for (int d = 0; d < shapes[a].ndims; d++) shapes[a].sym[d] = rnd(r, 6) == 0 ? "m" : NULL;
  }
  cs->nitems = 1 + rnd(r, MAX_ITEMS);
  for (int i = 0; i < cs->nitems; i++) {
    TdItem *it = &cs->items[i];
    int a = rnd(r, narrays);
    ArrayShape sh = shapes[a];
    if (rnd(r, 30) == 0) sh.ndims = rnd(r, TD_MAX_DIMS + 1);
    if (rnd(r, 12) == 0) random_matrix(r, cs->depth, &sh);
    it->array = a;
    it->kind = (TdKind)rnd(r, 4) % 3; /* reads a bit more often than out or inout */
    it->ndims = sh.ndims;
    for (int d = 0; d < sh.ndims; d++) {
      memcpy(it->sub[d].coef, sh.m[d], sizeof it->sub[d].coef);
      it->sub[d].c = rnd(r, 5) - 2;
      it->sub[d].sym = rnd(r, 20) == 0 ? "n" : sh.sym[d];
    }
  }
}

static int ntasks(const Case *cs) {
  int t = 1;
  for (int l = 0; l < cs->depth; l++) t *= (int)cs->n[l];
  return t;
}

/* Task number t (lexicographic order) -> coordinates. */
static void coords_of(const Case *cs, int t, long long *k) {
  for (int l = cs->depth - 1; l >= 0; l--) {
    k[l] = t % cs->n[l];
    t /= (int)cs->n[l];
  }
}

static int task_of(const Case *cs, const long long *k) {
  int t = 0;
  for (int l = 0; l < cs->depth; l++) t = t * (int)cs->n[l] + (int)k[l];
  return t;
}

static long long eval_sub(const TdAffine *a, const long long *k, int depth) {
  long long v = a->c + (a->sym ? (a->sym[0] == 'm' ? SYM_VALUE : 3 * SYM_VALUE) : 0);
  for (int l = 0; l < depth; l++) v += a->coef[l] * k[l];
  return v;
}

static bool same_element(const Case *cs, const TdItem *a, const long long *ka, const TdItem *b, const long long *kb) {
  if (a->array != b->array) return false;
  if (a->ndims != b->ndims) return true; /* the analysis refuses these: be conservative */
  for (int d = 0; d < a->ndims; d++)
    if (eval_sub(&a->sub[d], ka, cs->depth) != eval_sub(&b->sub[d], kb, cs->depth)) return false;
  return true;
}

/* OpenMP: q depends on p < q when they share an element and one writes. */
static bool conflict(const Case *cs, int p, int q) {
  long long kp[TD_MAX_DEPTH], kq[TD_MAX_DEPTH];
  coords_of(cs, p, kp);
  coords_of(cs, q, kq);
  for (int a = 0; a < cs->nitems; a++)
    for (int b = 0; b < cs->nitems; b++) {
      const TdItem *ia = &cs->items[a], *ib = &cs->items[b];
      if ((ia->kind != TD_IN || ib->kind != TD_IN) && same_element(cs, ia, kp, ib, kq)) return true;
    }
  return false;
}

typedef struct Graph {
  int n;
  unsigned char edge[MAX_TASKS][MAX_TASKS]; /* edge[p][q]: q depends on p */
} Graph;

static void brute_force(const Case *cs, Graph *g) {
  g->n = ntasks(cs);
  memset(g->edge, 0, sizeof g->edge);
  for (int p = 0; p < g->n; p++)
    for (int q = p + 1; q < g->n; q++) g->edge[p][q] = conflict(cs, p, q);
}

/* Edges implied by the distances: q - e -> q inside the box. */
static void from_distances(const Case *cs, const TdDeps *d, Graph *g) {
  g->n = ntasks(cs);
  memset(g->edge, 0, sizeof g->edge);
  for (int q = 0; q < g->n; q++) {
    long long kq[TD_MAX_DEPTH], kp[TD_MAX_DEPTH];
    coords_of(cs, q, kq);
    for (int i = 0; i < d->ndist; i++) {
      bool in = true;
      for (int l = 0; l < cs->depth; l++) {
        kp[l] = kq[l] - d->dist[i][l];
        in &= kp[l] >= 0 && kp[l] < cs->n[l];
      }
      if (in) g->edge[task_of(cs, kp)][q] = 1;
    }
  }
}

/* ---- An interpreter for the emitted code --------------------------------- */

/* text with each identifier in names[] replaced by its value. */
static char *subst(const char *text, const char *const *names, const long long *vals, int n) {
  StrBuf sb;
  sb_init(&sb);
  for (const char *p = text; *p;) {
    size_t len = 0;
    if ((*p >= 'a' && *p <= 'z') || *p == '_')
      while ((p[len] >= 'a' && p[len] <= 'z') || (p[len] >= '0' && p[len] <= '9') || p[len] == '_') len++;
    int hit = -1;
    for (int i = 0; i < n && len; i++)
      if (strlen(names[i]) == len && !strncmp(names[i], p, len)) hit = i;
    if (hit >= 0)
      sb_printf(&sb, "(%lld)", vals[hit]);
    else
      sb_putn(&sb, p, len ? len : 1);
    p += len ? len : 1;
  }
  return sb_take(&sb);
}

static long long eval_const(const char *text) {
  TdAffine a;
  const char *why;
  bool ok = td_parse_affine(text, NULL, 0, &a, &why);
  CHECK(ok && !a.sym);
  long long v = a.c;
  td_affine_free(&a);
  return v;
}

/* Evaluates "A < B && C >= D" (numbers only). */
static bool eval_cond(const char *cond) {
  char *s = xstrdup(cond), *save = NULL;
  bool v = true;
  for (char *atom = strtok_r(s, "&", &save); atom; atom = strtok_r(NULL, "&", &save)) {
    char *op = strstr(atom, ">=");
    bool ge = op != NULL;
    if (!op) op = strchr(atom, '<');
    CHECK(op != NULL);
    if (!op) break;
    *op = '\0';
    long long lhs = eval_const(atom), rhs = eval_const(op + (ge ? 2 : 1));
    v &= ge ? lhs >= rhs : lhs < rhs;
  }
  free(s);
  return v;
}

static const char *const KVAR[] = {"gt_k0", "gt_k1", "gt_k2"};
static const char *const NVAR[] = {"gt_n0", "gt_n1", "gt_n2"};

typedef struct Env {
  const char *names[2 * TD_MAX_DEPTH];
  long long vals[2 * TD_MAX_DEPTH];
  int n;
} Env;

static Env env_of(const Case *cs, const long long *k) {
  Env e;
  e.n = 0;
  for (int l = 0; l < cs->depth; l++) {
    e.names[e.n] = KVAR[l], e.vals[e.n++] = k[l];
    e.names[e.n] = NVAR[l], e.vals[e.n++] = cs->n[l];
  }
  return e;
}

/* Runs the lines "np = 0;" and "np += (COND);". */
static int run_npred(const char *code, const Env *env) {
  char *text = subst(code, env->names, env->vals, env->n);
  int np = -1;
  for (char *line = text; line && *line;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    if (!strcmp(line, "np = 0;"))
      np = 0;
    else if (!strncmp(line, "np += (", 7) && strlen(line) > 9) {
      line[strlen(line) - 2] = '\0';
      np += eval_cond(line + 7);
    } else {
      CHECK(!"unexpected npred line");
    }
    line = nl ? nl + 1 : NULL;
  }
  free(text);
  return np;
}

/* The test's successor statement: "succ(c0, c1, c2);". */
static void emit_succ_stmt(StrBuf *sb, const char *const *coords, void *ctx) {
  int depth = *(const int *)ctx;
  sb_puts(sb, "succ(");
  for (int l = 0; l < depth; l++) sb_printf(sb, "%s%s", l ? ", " : "", coords[l]);
  sb_puts(sb, ");");
}

/* Runs the lines "if (COND) { succ(A, B); }", marking succ[task]. */
static void run_succ(const Case *cs, const char *code, const Env *env, unsigned char *succ) {
  char *text = subst(code, env->names, env->vals, env->n);
  for (char *line = text; line && *line;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    char *body = strstr(line, ") { succ(");
    CHECK(!strncmp(line, "if (", 4) && body);
    if (!body) break;
    *body = '\0';
    if (eval_cond(line + 4)) {
      long long k[TD_MAX_DEPTH];
      char *args = body + 9, *save = NULL;
      args[strlen(args) - 4] = '\0'; /* ");" " }" */
      int l = 0;
      for (char *c = strtok_r(args, ",", &save); c && l < cs->depth; c = strtok_r(NULL, ",", &save))
        k[l++] = eval_const(c);
      CHECK(l == cs->depth);
      succ[task_of(cs, k)] = 1;
    }
    line = nl ? nl + 1 : NULL;
  }
  free(text);
}

/* ---- Parser against direct evaluation ------------------------------------ */

enum { NENV = 2, NVARS = 5 };
static const char *const VARS[NVARS] = {"i", "j", "k", "m", "n"};
static const long long ENVS[NENV][NVARS] = {{3, -2, 5, 7, 11}, {-4, 6, 1, -3, 2}};

/* A random expression of + - * unary - and parentheses, appended to sb,
 * with its value in each environment. */
static void random_expr(Rng *r, int depth, StrBuf *sb, long long *val) {
  int pick = depth == 0 ? rnd(r, 2) : rnd(r, 6);
  if (pick == 0) {
    int v = rnd(r, NVARS);
    sb_puts(sb, VARS[v]);
    for (int e = 0; e < NENV; e++) val[e] = ENVS[e][v];
  } else if (pick == 1) {
    int c = rnd(r, 10);
    sb_printf(sb, "%d", c);
    for (int e = 0; e < NENV; e++) val[e] = c;
  } else if (pick == 2) {
    long long a[NENV];
    sb_puts(sb, "-(");
    random_expr(r, depth - 1, sb, a);
    sb_putc(sb, ')');
    for (int e = 0; e < NENV; e++) val[e] = -a[e];
  } else {
    static const char ops[] = "+-*+";
    char op = ops[pick - 3];
    long long a[NENV], b[NENV];
    sb_putc(sb, '(');
    random_expr(r, depth - 1, sb, a);
    sb_printf(sb, " %c ", op);
    random_expr(r, depth - 1, sb, b);
    sb_putc(sb, ')');
    for (int e = 0; e < NENV; e++) val[e] = op == '+' ? a[e] + b[e] : op == '-' ? a[e] - b[e] : a[e] * b[e];
  }
}

/* Accepted forms evaluate like the text, symbolic part included; the
 * text is only refused for a product with a loop variable (or size). */
static void test_parse_random(void) {
  Rng r = {0x853c49e6748fea9bull};
  int accepted = 0, refused = 0;
  for (int iter = 0; iter < 5000; iter++) {
    StrBuf sb;
    sb_init(&sb);
    long long val[NENV];
    random_expr(&r, 1 + rnd(&r, 4), &sb, val);
    int niv = rnd(&r, 4);
    TdAffine a;
    const char *why;
    if (!td_parse_affine(sb.data, VARS, niv, &a, &why)) {
      refused++;
      CHECK(strstr(why, "product of loop variables") || strstr(why, "loop variable times a symbol") ||
            strstr(why, "too complex"));
    } else {
      accepted++;
      for (int e = 0; e < NENV; e++) {
        char *sym = a.sym ? subst(a.sym, VARS, ENVS[e], NVARS) : NULL;
        long long v = a.c + (sym ? eval_const(sym) : 0);
        free(sym);
        for (int l = 0; l < niv; l++) v += a.coef[l] * ENVS[e][l];
        CHECK(v == val[e]);
        if (v != val[e]) fprintf(stderr, "  \"%s\": %lld, parsed %lld\n", sb.data, val[e], v);
      }
    }
    td_affine_free(&a);
    sb_free(&sb);
  }
  printf("random expressions: %d accepted, %d refused\n", accepted, refused);
  CHECK(accepted > 1000 && refused > 200);
}

/* ---- Property tests ------------------------------------------------------ */

/* npred, successors and the emitted code against the edge set g. */
static bool check_counts(const Case *cs, const TdDeps *d, const Graph *g, bool run_code) {
  bool ok = true;
  StrBuf np_code, succ_code;
  sb_init(&np_code);
  sb_init(&succ_code);
  td_emit_npred(&np_code, d, cs->depth, KVAR, NVAR, "np");
  int depth = cs->depth;
  td_emit_succ(&succ_code, d, cs->depth, KVAR, NVAR, emit_succ_stmt, &depth);
  for (int q = 0; q < g->n; q++) {
    long long k[TD_MAX_DEPTH];
    coords_of(cs, q, k);
    int preds = 0;
    for (int p = 0; p < g->n; p++) preds += g->edge[p][q];
    ok &= td_npred(d, cs->depth, cs->n, k) == preds;
    unsigned char succ[MAX_TASKS] = {0}, code_succ[MAX_TASKS] = {0};
    for (int i = 0; i < d->ndist; i++) {
      long long s[TD_MAX_DEPTH];
      bool in = true;
      for (int l = 0; l < cs->depth; l++) {
        s[l] = k[l] + d->dist[i][l];
        in &= s[l] >= 0 && s[l] < cs->n[l];
      }
      if (in) succ[task_of(cs, s)] = 1;
    }
    for (int s = 0; s < g->n; s++) ok &= succ[s] == g->edge[q][s];
    if (!run_code) continue;
    Env env = env_of(cs, k);
    ok &= run_npred(np_code.data, &env) == preds;
    if (succ_code.data) run_succ(cs, succ_code.data, &env, code_succ);
    ok &= !memcmp(succ, code_succ, (size_t)g->n);
  }
  sb_free(&np_code);
  sb_free(&succ_code);
  return ok;
}

static void test_random_nests(void) {
  Rng r = {0x9e3779b97f4a7c15ull};
  static Graph want, got;
  int affine = 0, fallback = 0, with_deps = 0;
  for (int iter = 0; iter < 10000; iter++) {
    Case cs;
    random_case(&r, &cs);
    TdDeps d;
    td_analyze(cs.depth, cs.items, cs.nitems, &d);
    if (!d.affine) {
      fallback++;
      CHECK(d.why_not && *d.why_not);
      continue;
    }
    affine++;
    with_deps += d.ndist > 0;
    brute_force(&cs, &want);
    from_distances(&cs, &d, &got);
    bool same = !memcmp(want.edge, got.edge, sizeof want.edge);
    CHECK(same);
    bool lexpos = true;
    for (int i = 0; i < d.ndist; i++) {
      int l = 0;
      while (l < cs.depth && d.dist[i][l] == 0) l++;
      lexpos &= l < cs.depth && d.dist[i][l] > 0;
    }
    CHECK(lexpos);
    CHECK(check_counts(&cs, &d, &want, iter % 5 == 0));
    if (!same) fprintf(stderr, "  random case %d: edge sets differ\n", iter);
  }
  printf("random nests: %d affine (%d with dependences), %d fallbacks\n", affine, with_deps, fallback);
  CHECK(affine > 2000 && with_deps > 1000 && fallback > 500);
}

/* A cell's tile and its position inside: hyperplane, then lexicographic. */
static void tile_of(const Case *cs, const long long *B, const long long *k, long long *tile, long long *key) {
  long long sum = 0, lex = 0;
  for (int l = 0; l < cs->depth; l++) {
    tile[l] = k[l] / B[l];
    long long local = k[l] % B[l];
    sum += local;
    lex = lex * B[l] + local;
  }
  *key = sum * 1000000 + lex;
}

static bool has_dist(const TdDeps *d, int depth, const long long *e) {
  for (int i = 0; i < d->ndist; i++)
    if (!memcmp(d->dist[i], e, (size_t)depth * sizeof *e)) return true;
  return false;
}

static bool check_tiles(const Case *cs, const TdDeps *cell, const long long *B, const Graph *g) {
  TdDeps tiles;
  td_tile_deps(cell, cs->depth, B, &tiles);
  if (!tiles.affine) return false;
  bool ok = td_nonnegative(&tiles, cs->depth);
  for (int i = 0; i < tiles.ndist; i++) {
    bool zero = true;
    for (int l = 0; l < cs->depth; l++) zero &= tiles.dist[i][l] == 0;
    ok &= !zero;
  }
  for (int p = 0; p < g->n; p++)
    for (int q = p + 1; q < g->n; q++) {
      if (!g->edge[p][q]) continue;
      long long kp[TD_MAX_DEPTH], kq[TD_MAX_DEPTH], tp[TD_MAX_DEPTH], tq[TD_MAX_DEPTH], D[TD_MAX_DEPTH], keyp, keyq;
      coords_of(cs, p, kp);
      coords_of(cs, q, kq);
      tile_of(cs, B, kp, tp, &keyp);
      tile_of(cs, B, kq, tq, &keyq);
      bool same_tile = true;
      for (int l = 0; l < cs->depth; l++) {
        D[l] = tq[l] - tp[l];
        same_tile &= D[l] == 0;
      }
      ok &= same_tile ? keyp < keyq : has_dist(&tiles, cs->depth, D);
    }
  return ok;
}

static void test_random_tiles(void) {
  Rng r = {0x2545f4914f6cdd1dull};
  static Graph g;
  int tested = 0, negative = 0;
  for (int iter = 0; iter < 100000 && tested < 2000; iter++) {
    Case cs;
    random_case(&r, &cs);
    TdDeps d;
    td_analyze(cs.depth, cs.items, cs.nitems, &d);
    if (!d.affine || d.ndist == 0) continue;
    if (!td_nonnegative(&d, cs.depth)) {
      TdDeps t;
      td_tile_deps(&d, cs.depth, (long long[]){2, 2, 2}, &t);
      CHECK(!t.affine && t.why_not);
      negative++;
      continue;
    }
    long long B[TD_MAX_DEPTH];
    for (int l = 0; l < cs.depth; l++) B[l] = 1 + rnd(&r, 4);
    brute_force(&cs, &g);
    bool ok = check_tiles(&cs, &d, B, &g);
    CHECK(ok);
    if (!ok) fprintf(stderr, "  tile case %d fails\n", iter);
    tested++;
  }
  printf("tiles: %d nonnegative cases, %d refused (negative component)\n", tested, negative);
  CHECK(tested == 2000 && negative > 100);
}

/* ---- Fixed cases ------------------------------------------------------- */

static TdItem item1(int array, TdKind kind, long long c0, long long c1, long long c) {
  TdItem it;
  memset(&it, 0, sizeof it);
  it.array = array, it.kind = kind, it.ndims = 1;
  it.sub[0].coef[0] = c0, it.sub[0].coef[1] = c1, it.sub[0].c = c;
  return it;
}

/* Wavefront: a[i][j] inout, a[i-1][j] in, a[i][j-1] in. */
static TdItem item2(TdKind kind, long long ci, long long cj) {
  TdItem it;
  memset(&it, 0, sizeof it);
  it.kind = kind, it.ndims = 2;
  it.sub[0].coef[0] = 1, it.sub[0].c = ci;
  it.sub[1].coef[1] = 1, it.sub[1].c = cj;
  return it;
}

static void emit_release(StrBuf *sb, const char *const *c, void *ctx) {
  (void)ctx;
  sb_printf(sb, "gtrt_task_release(q, (unsigned)((%s) * gt_n1 + (%s)));", c[0], c[1]);
}

static void test_fixed(void) {
  TdItem wave[3] = {item2(TD_INOUT, 0, 0), item2(TD_IN, -1, 0), item2(TD_IN, 0, -1)};
  TdDeps d;
  td_analyze(2, wave, 3, &d);
  CHECK(d.affine && d.ndist == 2 && td_nonnegative(&d, 2));
  long long e10[2] = {1, 0}, e01[2] = {0, 1};
  CHECK(has_dist(&d, 2, e10) && has_dist(&d, 2, e01));
  long long n[2] = {4, 5}, k00[2] = {0, 0}, k03[2] = {0, 3}, k23[2] = {2, 3};
  CHECK(td_npred(&d, 2, n, k00) == 0 && td_npred(&d, 2, n, k03) == 1 && td_npred(&d, 2, n, k23) == 2);

  StrBuf sb;
  sb_init(&sb);
  td_emit_npred(&sb, &d, 2, KVAR, NVAR, "np");
  CHECK_STR(sb.data, "np = 0;\nnp += (gt_k0 >= 1);\nnp += (gt_k1 >= 1);\n");
  sb_free(&sb);
  td_emit_succ(&sb, &d, 2, KVAR, NVAR, emit_release, NULL);
  CHECK_STR(sb.data, "if (gt_k0 + 1 < gt_n0) { gtrt_task_release(q, (unsigned)((gt_k0 + 1) * gt_n1 + (gt_k1))); }\n"
                     "if (gt_k1 + 1 < gt_n1) { gtrt_task_release(q, (unsigned)((gt_k0) * gt_n1 + (gt_k1 + 1))); }\n");
  sb_free(&sb);

  /* Tiles of 2x2 for the wavefront: right, down and diagonal neighbours. */
  TdDeps t;
  td_tile_deps(&d, 2, (long long[]){2, 2}, &t);
  long long e11[2] = {1, 1};
  CHECK(t.affine && t.ndist == 2 && has_dist(&t, 2, e10) && has_dist(&t, 2, e01) && !has_dist(&t, 2, e11));
  td_tile_deps(&d, 2, (long long[]){1, 1}, &t);
  CHECK(t.affine && t.ndist == 2);

  /* (1,-1) is a legal distance but not a tileable one. */
  TdItem anti[2] = {item2(TD_OUT, 0, 0), item2(TD_IN, -1, 1)};
  td_analyze(2, anti, 2, &d);
  long long e1m1[2] = {1, -1};
  CHECK(d.affine && d.ndist == 1 && has_dist(&d, 2, e1m1) && !td_nonnegative(&d, 2));
  td_emit_npred(&sb, &d, 2, KVAR, NVAR, "np");
  CHECK_STR(sb.data, "np = 0;\nnp += (gt_k0 >= 1 && gt_k1 + 1 < gt_n1);\n");
  sb_free(&sb);

  /* x[2i] vs x[2i+1]: never the same element. */
  TdItem odd[2] = {item1(0, TD_OUT, 2, 0, 0), item1(0, TD_IN, 2, 0, 1)};
  td_analyze(1, odd, 2, &d);
  CHECK(d.affine && d.ndist == 0);
  /* x[i] in a 2-deep nest, written: every j shares it. */
  TdItem free_dir[1] = {item1(0, TD_INOUT, 1, 0, 0)};
  td_analyze(2, free_dir, 1, &d);
  CHECK(!d.affine && strstr(d.why_not, "free direction"));
  /* ... but only read: no dependence at all. */
  free_dir[0].kind = TD_IN;
  td_analyze(2, free_dir, 1, &d);
  CHECK(d.affine && d.ndist == 0);
  /* x[i] out and x[i+1] in but on different arrays: nothing. */
  TdItem two[2] = {item1(0, TD_OUT, 1, 0, 0), item1(1, TD_IN, 1, 0, 1)};
  td_analyze(1, two, 2, &d);
  CHECK(d.affine && d.ndist == 0);
  /* Different coefficients, different symbolic parts, a scalar. */
  TdItem mixed[2] = {item1(0, TD_OUT, 1, 0, 0), item1(0, TD_IN, 2, 0, 0)};
  td_analyze(1, mixed, 2, &d);
  CHECK(!d.affine && strstr(d.why_not, "coefficients"));
  mixed[1] = item1(0, TD_IN, 1, 0, 0);
  mixed[1].sub[0].sym = "m";
  td_analyze(1, mixed, 2, &d);
  CHECK(!d.affine && strstr(d.why_not, "symbolic"));
  mixed[0].sub[0].sym = "m";
  td_analyze(1, mixed, 2, &d);
  CHECK(d.affine && d.ndist == 0);
  TdItem scalar = {0};
  scalar.kind = TD_INOUT;
  td_analyze(1, &scalar, 1, &d);
  CHECK(!d.affine && d.why_not);
  td_analyze(4, &scalar, 1, &d);
  CHECK(!d.affine && d.why_not);
  /* Reversed and strided: x[-i] out, x[-i+2] in -> distance 2. */
  TdItem rev[2] = {item1(0, TD_OUT, -1, 0, 0), item1(0, TD_IN, -1, 0, 2)};
  td_analyze(1, rev, 2, &d);
  CHECK(d.affine && d.ndist == 1 && d.dist[0][0] == 2);
  /* Constants whose difference overflows: refused, not wrapped. */
  TdItem big[2] = {item1(0, TD_OUT, 1, 0, LLONG_MAX), item1(0, TD_IN, 1, 0, -2)};
  td_analyze(1, big, 2, &d);
  CHECK(!d.affine && strstr(d.why_not, "too large"));
  TdItem huge[2] = {item1(0, TD_OUT, -1, 0, LLONG_MIN + 1), item1(0, TD_IN, -1, 0, 0)};
  td_analyze(1, huge, 2, &d);
  CHECK(d.affine && d.ndist == 1 && d.dist[0][0] == LLONG_MAX);
  long long n1[1] = {5}, k1[1] = {4};
  CHECK(td_npred(&d, 1, n1, k1) == 0);
}

int main(void) {
  test_parse_accepts();
  test_parse_rejects();
  test_delinearize();
  test_normalise();
  test_fixed();
  test_parse_random();
  test_random_nests();
  test_random_tiles();
  return unit_result();
}
