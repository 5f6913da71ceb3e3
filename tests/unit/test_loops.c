/* Unit tests of loop recognition (frontend/loops.c) through the frontend
 * API: a C file is written to a temporary file, parsed with fe_parse, and
 * the ForLoop of its for statements is checked. Also checks directive
 * attachment (Stmt.dirs) and the write flags of VarUse. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend.h"
#include "strbuf.h"
#include "unit.h"

/* ---- helpers ------------------------------------------------------------ */

typedef struct Parsed {
  TranslationUnit *tu;
  char *diags; /* everything reported while parsing */
  int nerr;
} Parsed;

/* Writes src to a temporary .c file and parses it, capturing diagnostics. */
static Parsed parse(const char *src) {
  Parsed r = {NULL, NULL, 0};
  char path[] = "/tmp/gtcc_test_loops_XXXXXX.c";
  int fd = mkstemps(path, 2);
  if (fd < 0) {
    perror("mkstemps");
    exit(2);
  }
  size_t len = strlen(src);
  if (write(fd, src, len) != (ssize_t)len) {
    perror("write");
    exit(2);
  }
  close(fd);
  size_t size = 0;
  FILE *fp = open_memstream(&r.diags, &size);
  diag_reset();
  diag_set_stream(fp);
  r.tu = fe_parse(path, NULL);
  r.nerr = diag_error_count();
  diag_set_stream(NULL);
  fclose(fp);
  unlink(path);
  return r;
}

static void parsed_free(Parsed *r) {
  if (r->tu) fe_free(r->tu);
  free(r->diags);
}

/* The k-th statement of kind kind (0-based), pre-order over all functions. */
static Stmt *find_kind(Stmt *s, StmtKind kind, int *k) {
  if (!s) return NULL;
  if (s->kind == kind && (*k)-- == 0) return s;
  for (int i = 0; i < s->nkids; i++) {
    Stmt *r = find_kind(s->kids[i], kind, k);
    if (r) return r;
  }
  return NULL;
}

static Stmt *nth_stmt(const Parsed *r, StmtKind kind, int k) {
  if (!r->tu) return NULL;
  for (int f = 0; f < r->tu->nfuncs; f++) {
    Stmt *s = find_kind(r->tu->funcs[f]->body, kind, &k);
    if (s) return s;
  }
  return NULL;
}

static ForLoop *nth_loop(const Parsed *r, int k) {
  Stmt *s = nth_stmt(r, ST_FOR, k);
  return s ? s->loop : NULL;
}

/* Parses `void f(int n, int k, double *x) { <header> x[0] = 0; }` and
 * returns the loop of the first for statement (r keeps the unit alive). */
static ForLoop *loop_of(Parsed *r, const char *header) {
  char *src = xasprintf("#include <stddef.h>\n#define N 100\n"
                        "void f(int n, int k, double *x) {\n  %s\n    x[0] = 0;\n}\n", header);
  *r = parse(src);
  free(src);
  return nth_loop(r, 0);
}

/* Checks a canonical loop's fields; returns 1 if all match. */
static int canon(const char *header, const char *iv, const char *lb, RelOp rel, const char *ub,
                 const char *step, int step_const, long long step_value, int declared) {
  Parsed r;
  ForLoop *L = loop_of(&r, header);
  int ok = L && L->canonical && r.nerr == 0 && L->iv && !strcmp(L->iv->name, iv) && L->lb.text &&
           !strcmp(L->lb.text, lb) && L->relop == rel && L->ub.text && !strcmp(L->ub.text, ub) &&
           L->step.text && !strcmp(L->step.text, step) && L->step_is_const == (step_const != 0) &&
           (!step_const || L->step_value == step_value) && L->iv_declared == (declared != 0);
  if (!ok) {
    fprintf(stderr, "  '%s': ", header);
    if (!L) fprintf(stderr, "no loop; %s\n", r.diags);
    else if (!L->canonical) fprintf(stderr, "not canonical: %s\n", L->why_not);
    else
      fprintf(stderr, "iv=%s lb=%s rel=%d ub=%s step=%s const=%d value=%lld declared=%d\n",
              L->iv ? L->iv->name : "?", L->lb.text, (int)L->relop, L->ub.text, L->step.text,
              (int)L->step_is_const, L->step_value, (int)L->iv_declared);
  }
  parsed_free(&r);
  return ok;
}

/* Checks that the loop is not canonical and the reason contains why; when
 * line > 0, also that why_loc is at line:col of the file loop_of makes (the
 * loop header is on line 4, starting at column 3). */
static int noncanon(const char *header, const char *why, int line, int col) {
  Parsed r;
  ForLoop *L = loop_of(&r, header);
  int ok = L && !L->canonical && L->why_not && strstr(L->why_not, why) &&
           (line <= 0 || (L->why_loc.line == line && L->why_loc.col == col));
  if (!ok) {
    fprintf(stderr, "  '%s': ", header);
    if (!L) fprintf(stderr, "no loop; %s\n", r.diags);
    else if (L->canonical) fprintf(stderr, "canonical, expected '%s'\n", why);
    else fprintf(stderr, "'%s' at %d:%d\n", L->why_not, L->why_loc.line, L->why_loc.col);
  }
  parsed_free(&r);
  return ok;
}

/* The first use of variable name in s, or NULL. */
static const VarUse *use_of(const Stmt *s, const char *name) {
  for (int i = 0; s && i < s->nuses; i++)
    if (!strcmp(s->uses[i].var->name, name)) return &s->uses[i];
  return NULL;
}

/* ---- canonical loops ---------------------------------------------------- */

static void test_canonical(void) {
  CHECK(canon("for (int i = 0; i < n; i++)", "i", "0", REL_LT, "n", "1", 1, 1, 1));
  CHECK(canon("for (int i = 0; i < n; ++i)", "i", "0", REL_LT, "n", "1", 1, 1, 1));
  CHECK(canon("for (int i = n - 1; i >= 0; i--)", "i", "n - 1", REL_GE, "0", "-1", 1, -1, 1));
  CHECK(canon("for (int i = n; i > 0; --i)", "i", "n", REL_GT, "0", "-1", 1, -1, 1));
  CHECK(canon("for (int i = 0; i < n; i += 2)", "i", "0", REL_LT, "n", "2", 1, 2, 1));
  CHECK(canon("for (int i = n; i > 0; i -= k)", "i", "n", REL_GT, "0", "-(long long)(k)", 0, 0, 1));
  CHECK(canon("for (int i = 0; i < n; i += k)", "i", "0", REL_LT, "n", "(k)", 0, 0, 1));
  CHECK(canon("for (int i = 1; i < n; i = i + 3)", "i", "1", REL_LT, "n", "3", 1, 3, 1));
  CHECK(canon("for (int i = 1; i < n; i = 4 + i)", "i", "1", REL_LT, "n", "4", 1, 4, 1));
  CHECK(canon("for (int i = n; i > 0; i = i - 2)", "i", "n", REL_GT, "0", "-2", 1, -2, 1));
  CHECK(canon("for (int i = 0; i < n; i += 8u)", "i", "0", REL_LT, "n", "8", 1, 8, 1));
  /* Flipped comparisons: `n > i` is i < n. */
  CHECK(canon("for (int i = 0; n > i; i++)", "i", "0", REL_LT, "n", "1", 1, 1, 1));
  CHECK(canon("for (int i = 0; n - 1 >= i; i++)", "i", "0", REL_LE, "n - 1", "1", 1, 1, 1));
  CHECK(canon("for (int i = n; 0 < i; i--)", "i", "n", REL_GT, "0", "-1", 1, -1, 1));
  CHECK(canon("for (int i = 0; i <= n - 1; i++)", "i", "0", REL_LE, "n - 1", "1", 1, 1, 1));
  CHECK(canon("for (int i = n; i >= 1; i -= 3)", "i", "n", REL_GE, "1", "-3", 1, -3, 1));
  /* Bounds are kept as source text. */
  CHECK(canon("for (int i = k * 2; i < (n + k) / 2; i++)", "i", "k * 2", REL_LT, "(n + k) / 2", "1", 1, 1, 1));
  CHECK(canon("for (int i = 0; i < N; i++)", "i", "0", REL_LT, "N", "1", 1, 1, 1));
  /* Loop variable declared outside the loop. */
  CHECK(canon("int i; for (i = 0; i < n; i++)", "i", "0", REL_LT, "n", "1", 1, 1, 0));
  CHECK(canon("long j; for (j = n; j > 0; j--)", "j", "n", REL_GT, "0", "-1", 1, -1, 0));
  /* Integer types other than int. */
  CHECK(canon("for (unsigned u = 0; u < (unsigned)n; u++)", "u", "0", REL_LT, "(unsigned)n", "1", 1, 1, 1));
  CHECK(canon("for (long l = 0; l < n; l += 4)", "l", "0", REL_LT, "n", "4", 1, 4, 1));
  CHECK(canon("for (size_t s = 0; s < (size_t)n; ++s)", "s", "0", REL_LT, "(size_t)n", "1", 1, 1, 1));
  CHECK(canon("for (unsigned long long q = 0; q < 10; q++)", "q", "0", REL_LT, "10", "1", 1, 1, 1));

  /* The iv is the CVar of the declaration, with its type. */
  Parsed r;
  ForLoop *L = loop_of(&r, "for (size_t s = 0; s < 4; s++)");
  CHECK(L && L->iv && L->iv->tkind == VT_SCALAR && !L->iv->is_float);
  CHECK(L && L->lb.loc.line == 4 && L->lb.loc.col == 19); /* "0" in `  for (size_t s = 0;` */
  CHECK(L && L->ub.loc.line == 4 && L->ub.loc.col == 26);
  parsed_free(&r);
}

/* ---- non-canonical loops ------------------------------------------------ */

static void test_noncanonical(void) {
  /* The header "  for (" puts the init at column 8. */
  CHECK(noncanon("for (int i = 0; i != n; i++)", "<, <=, > or >=", 4, 19));
  CHECK(noncanon("int i = 0; for (; i < n; i++)", "initialise", 0, 0));
  CHECK(noncanon("int i, j; for (i = 0, j = 0; i < n; i++)", "more than one variable", 0, 0));
  CHECK(noncanon("for (int i = 1; i < n; i *= 2)", "increment", 4, 26));
  CHECK(noncanon("for (int i = 0; i < n; i = 2 * i)", "increment", 0, 0));
  CHECK(noncanon("for (int i = 0; i < n; )", "increment", 0, 0));
  CHECK(noncanon("int j = 0; for (int i = 0; i < n; j++)", "increment", 0, 0));
  CHECK(noncanon("for (double t = 0; t < n; t += 0.5)", "integer type", 4, 15));
  CHECK(noncanon("for (float t = 0; t < n; t++)", "integer type", 0, 0));
  CHECK(noncanon("for (int *p = x; p < x + n; p++)", "integer type", 0, 0));
  CHECK(noncanon("for (int i = 0; ; i++)", "condition", 0, 0));
  CHECK(noncanon("int j = 0; for (int i = 0; j < n; i++)", "with a bound", 0, 0));
  CHECK(noncanon("for (int i = 0; i < n; i += 0)", "zero", 4, 31));
  CHECK(noncanon("for (int i = 0; i < n; i++) if (x[i] > 0) i++;", "modified in the loop body", 4, 45));
  CHECK(noncanon("for (int i = 0; i < n; i++) { int *p = &i; *p = 0; }", "modified in the loop body", 0, 0));
  CHECK(noncanon("for (int i = 0; i < n; i++) i = n;", "modified in the loop body", 0, 0));

  /* A non-canonical loop without a directive is no error... */
  Parsed r;
  ForLoop *L = loop_of(&r, "for (int i = 0; i != n; i++)");
  CHECK(L && !L->canonical && r.nerr == 0);
  parsed_free(&r);
  /* ...but after a loop directive it is, at why_loc. */
  r = parse("void f(int n, double *x) {\n"
            "#pragma acc parallel loop copy(x[0:n])\n"
            "  for (int i = 0; i != n; i++) x[i] = 1;\n"
            "}\n");
  CHECK(r.nerr == 1);
  CHECK(strstr(r.diags, ":3:19: error: loop after 'acc parallel loop' is not in canonical form") != NULL);
  parsed_free(&r);
  /* A while loop after a loop directive. */
  r = parse("void f(int n, double *x) {\n  int i = 0;\n"
            "#pragma omp target teams distribute parallel for map(tofrom: x[0:n])\n"
            "  while (i < n) x[i++] = 1;\n"
            "}\n");
  CHECK(r.nerr == 1 && strstr(r.diags, ":4:3: error: 'omp target teams distribute parallel for' must be followed by a for loop"));
  parsed_free(&r);
}

/* ---- nested loops --------------------------------------------------------- */

static void test_nested(void) {
  Parsed r = parse("void f(int n, int m, double *x) {\n"
                   "  for (int i = 0; i < n; i++)\n"
                   "    for (int j = m; j > i; j--)\n"
                   "      x[i * m + j] = 0;\n"
                   "}\n");
  ForLoop *outer = nth_loop(&r, 0), *inner = nth_loop(&r, 1);
  CHECK(outer && outer->canonical && !strcmp(outer->iv->name, "i"));
  CHECK(inner && inner->canonical && !strcmp(inner->iv->name, "j") && !strcmp(inner->ub.text, "i") &&
        inner->relop == REL_GT);
  /* The inner loop is the outer loop's body. */
  Stmt *s = nth_stmt(&r, ST_FOR, 0);
  CHECK(s && s->nkids == 1 && s->kids[0]->kind == ST_FOR && s->kids[0]->loop == inner);
  CHECK(nth_loop(&r, 2) == NULL);
  parsed_free(&r);
}

/* ---- directive attachment ----------------------------------------------- */

static void test_attachment(void) {
  Parsed r = parse("void f(int n, double *x) {\n"                   /* 1 */
                   "#pragma acc data copy(x[0:n])\n"                 /* 2 */
                   "  /* comment between */\n"                       /* 3 */
                   "#pragma acc parallel loop present(x[0:n])\n"     /* 4 */
                   "  for (int i = 0; i < n; i++) x[i] = 1;\n"       /* 5 */
                   "  x[0] = 2;\n"                                   /* 6 */
                   "#pragma acc update self(x[0:n])\n"               /* 7 */
                   "  {\n"                                           /* 8 */
                   "#pragma acc parallel loop present(x[0:n])\n"     /* 9 */
                   "    for (int i = 0; i < n; i++) x[i] += 1;\n"    /* 10 */
                   "  }\n"                                           /* 11 */
                   "}\n");
  CHECK(r.nerr == 0);
  CHECK(r.tu && r.tu->ndirs == 4);
  Stmt *loop1 = nth_stmt(&r, ST_FOR, 0), *loop2 = nth_stmt(&r, ST_FOR, 1);
  CHECK(loop1 && loop1->ndirs == 2);
  CHECK(loop1 && loop1->ndirs == 2 && loop1->dirs[0]->kind == DIR_ACC_DATA &&
        loop1->dirs[1]->kind == DIR_ACC_PARALLEL_LOOP);
  CHECK(loop1 && loop1->ndirs == 2 && loop1->dirs[1]->loc.line == 4);
  CHECK(loop2 && loop2->ndirs == 1 && loop2->dirs[0]->kind == DIR_ACC_PARALLEL_LOOP &&
        loop2->dirs[0]->loc.line == 9);
  /* Nothing else carries a directive: `x[0] = 2;` and the block after the
   * standalone update are bare. */
  int with_dirs = 0, k = 0;
  for (Stmt *s; (s = nth_stmt(&r, ST_EXPR, k)); k++) with_dirs += s->ndirs;
  for (k = 0; nth_stmt(&r, ST_COMPOUND, k); k++) with_dirs += nth_stmt(&r, ST_COMPOUND, k)->ndirs;
  CHECK(with_dirs == 0);
  /* The body of a loop has no directives of its own. */
  CHECK(loop1 && loop1->nkids == 1 && loop1->kids[0]->ndirs == 0);
  parsed_free(&r);

  /* A directive with nothing after it in its block. */
  r = parse("void f(int n, double *x) {\n  x[0] = n;\n#pragma acc parallel loop copy(x[0:n])\n}\n");
  CHECK(r.nerr == 1 && strstr(r.diags, ":3:1: error: 'acc parallel loop' must be followed by a statement"));
  parsed_free(&r);
}

/* ---- VarUse write flags ------------------------------------------------- */

static void test_var_uses(void) {
  Parsed r = parse("struct S { int f; };\n"
                   "void g(int *a, int x, int y, int *p, struct S s) {\n"
                   "  x = 1;\n"         /* expr 0 */
                   "  a[y] = 1;\n"      /* expr 1 */
                   "  p = &y;\n"        /* expr 2 */
                   "  x++;\n"           /* expr 3 */
                   "  y = x + a[0];\n"  /* expr 4 */
                   "  *p = 2;\n"        /* expr 5 */
                   "  s.f = 3;\n"       /* expr 6 */
                   "  --y;\n"           /* expr 7 */
                   "  x += y;\n"        /* expr 8 */
                   "}\n");
  CHECK(r.nerr == 0);
  const Stmt *e[9];
  for (int i = 0; i < 9; i++) e[i] = nth_stmt(&r, ST_EXPR, i);
  const VarUse *u;
  u = use_of(e[0], "x");
  CHECK(u && u->write && !u->elem_write);
  CHECK(u && u->loc.line == 3 && u->loc.col == 3);
  u = use_of(e[1], "a");
  CHECK(u && !u->write && u->elem_write);
  u = use_of(e[1], "y");
  CHECK(u && !u->write && !u->elem_write);
  u = use_of(e[2], "p");
  CHECK(u && u->write);
  u = use_of(e[2], "y"); /* &y: its address is taken */
  CHECK(u && u->write);
  u = use_of(e[3], "x");
  CHECK(u && u->write);
  u = use_of(e[4], "y");
  CHECK(u && u->write);
  u = use_of(e[4], "x");
  CHECK(u && !u->write && !u->elem_write);
  u = use_of(e[4], "a"); /* read of an element */
  CHECK(u && !u->write && !u->elem_write);
  u = use_of(e[5], "p");
  CHECK(u && !u->write && u->elem_write);
  u = use_of(e[6], "s");
  CHECK(u && !u->write && u->elem_write);
  u = use_of(e[7], "y");
  CHECK(u && u->write);
  u = use_of(e[8], "x");
  CHECK(u && u->write);
  u = use_of(e[8], "y");
  CHECK(u && !u->write);
  parsed_free(&r);
}

int main(void) {
  test_canonical();
  test_noncanonical();
  test_nested();
  test_attachment();
  test_var_uses();
  return unit_result();
}
