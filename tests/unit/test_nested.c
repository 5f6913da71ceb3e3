/* Unit tests of the nested-loop decision (transform/nested.c): which loop
 * nests become CollectiveDP kernels, what their contexts and reductions
 * are, which settings apply, and why the others keep a sequential inner
 * loop. Each case is a small C file parsed and lowered in memory; the
 * emitted .gt.cu is checked for the pieces each shape must have. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codegen.h"
#include "frontend.h"
#include "lir.h"
#include "strbuf.h"
#include "lower.h"
#include "unit.h"

static bool has_ctx(const Kernel *k, const char *name) {
  for (int i = 0; k->nested && i < k->nested->nctx; i++)
    if (!strcmp(k->nested->ctx[i]->name, name)) return true;
  return false;
}

#define SPMV_HEAD                                                                                             \
  "void f(int n, const int *rp, const int *col, const double *val, const double *x, double *y, double s) {\n" \
  "  #pragma acc parallel loop copyin(rp[0:n+1], col[0:rp[n]], val[0:rp[n]], x[0:n]) copyout(y[0:n])\n"

static void test_spmv_shape(void) {
  Lowered r = lower(SPMV_HEAD
                    "  for (int i = 0; i < n; i++) {\n"
                    "    double sum = 0.0;\n"
                    "    int start = rp[i], unused = 3;\n"
                    "    #pragma acc loop reduction(+:sum)\n"
                    "    for (int j = start; j < rp[i+1]; j++) sum += val[j] * x[col[j]];\n"
                    "    y[i] = s * sum + unused;\n"
                    "  }\n}\n",
                    NULL);
  const Kernel *k = kernel0(&r);
  CHECK(k && k->shape == KS_NESTED);
  if (k && k->nested) {
    CHECK(k->nested->mode == CDP_HOST); /* the documented default */
    CHECK(k->nested->warp_threshold == 32);
    CHECK(k->nested->threshold == 2048);
    CHECK(k->nested->nreds == 1 && !strcmp(k->nested->reds[0].var->name, "sum") && k->nested->reds[0].op == RED_ADD);
    CHECK(has_ctx(k, "sum"));    /* the reduction's initial value */
    CHECK(has_ctx(k, "start"));  /* used by the inner loop's bounds */
    CHECK(has_ctx(k, "unused")); /* used by After */
    CHECK(k->nested->inner_index == 2);
  }
  CHECK(r.out.cu && strstr(r.out.cu, "_nlk(") != NULL);
  CHECK(r.out.cu && strstr(r.out.cu, "gtrt_cdp_reserve(") != NULL);
  CHECK(r.out.cu && strstr(r.out.cu, "gtrt_segment_reduce<gtrt_red_add>") != NULL);
  CHECK(r.out.cu && strstr(r.out.cu, "cudaStreamTailLaunch") == NULL); /* host variant */
  lowered_free(&r);
}

/* An inner loop that is an if's whole then branch: the if is the guard, its condition's
 * locals are not saved unless the inner loop or After uses them, and the parent evaluates
 * the bounds only when the condition holds. */
static void test_guarded(void) {
  Lowered r = lower(SPMV_HEAD
                    "  for (int i = 0; i < n; i++) {\n"
                    "    double sum = 0.0;\n"
                    "    int len = rp[i+1] - rp[i], lim = 4;\n"
                    "    if (len > lim)\n"
                    "      #pragma acc loop reduction(+:sum)\n"
                    "      for (int j = rp[i]; j < rp[i+1]; j++) sum += val[j] * x[col[j]];\n"
                    "    else\n"
                    "      sum = -1.0;\n"
                    "    y[i] = sum + len;\n"
                    "  }\n}\n",
                    NULL);
  const Kernel *k = kernel0(&r);
  CHECK(k && k->shape == KS_NESTED);
  if (k && k->nested) {
    CHECK(k->nested->guard && k->nested->guard->kind == ST_IF && k->nested->inner->kind == ST_FOR);
    CHECK(k->nested->inner_index == 2);
    CHECK(has_ctx(k, "len") && !has_ctx(k, "lim")); /* lim: only the condition reads it */
  }
  CHECK(r.out.cu && strstr(r.out.cu, "gt_take ? gtrt_trip(") != NULL);
  lowered_free(&r);
}

/* An inner loop that is one statement of a block (an if's then block, or a bare one): the block's
 * locals before it that it or the rest of the block use are saved like Before's; the parent copies
 * the block's text around its decision, and the tiers run the rest of the block in its own scope.
 * A second block with a local of the same name is a second stage. */
static void test_scoped(void) {
  Lowered r = lower(SPMV_HEAD
                    "  for (int i = 0; i < n; i++) {\n"
                    "    int len = rp[i+1] - rp[i], lim = 4;\n"
                    "    double r = 0.0;\n"
                    "    if (len > lim) {\n"
                    "      double sum = s, unused = 2.0;\n"
                    "      const int lo = rp[i];\n"
                    "      #pragma acc loop reduction(+:sum)\n"
                    "      for (int j = lo; j < rp[i+1]; j++) sum += val[j] * x[col[j]];\n"
                    "      double t = sum * 2.0;\n"
                    "      r = t;\n"
                    "    } else\n"
                    "      r = -1.0;\n"
                    "    {\n"
                    "      double sum = r;\n"
                    "      #pragma acc loop reduction(max:sum)\n"
                    "      for (int j = rp[i]; j < rp[i+1]; j++) sum = sum > val[j] ? sum : val[j];\n"
                    "      y[i] = sum;\n"
                    "    }\n"
                    "  }\n}\n",
                    NULL);
  const Kernel *k = kernel0(&r);
  CHECK(k && k->shape == KS_NESTED);
  const Nested *n = k ? k->nested : NULL;
  if (n) {
    CHECK(n->block && n->block->kind == ST_IF && !n->guard && n->inner_index == 2 && n->scope_index == 2);
    CHECK(has_ctx(k, "sum") && has_ctx(k, "lo") && has_ctx(k, "r"));
    CHECK(!has_ctx(k, "unused") && !has_ctx(k, "lim") && !has_ctx(k, "len") && !has_ctx(k, "t")); /* only B or c reads them; A declares t */
    const Nested *b = n->next;
    CHECK(b && b->stage == 2 && b->block && b->block->kind == ST_COMPOUND && b->scope == b->block && b->scope_index == 1);
    CHECK(b && b->nctx == 1 && !strcmp(b->ctx[0]->name, "sum") && b->nreds == 1 && b->reds[0].op == RED_MAX);
  }
  CHECK(r.out.cu && strstr(r.out.cu, "if (len > lim) {") != NULL); /* the parent copies the block */
  CHECK(r.out.cu && strstr(r.out.cu, "gt_take") == NULL);          /* no guard: c is the block's own */
  CHECK(r.out.cu && strstr(r.out.cu, "_2_nlk(") != NULL);
  lowered_free(&r);
}

/* Two inner loops one after the other: two stages. The second one's context holds what it and
 * After use (a, reduced by the first loop, and m of the code between); `int j;` declared before
 * the outer loop is both loops' index and saved by neither. */
static void test_stages(void) {
  Lowered r = lower("void f(int n, const int *rp, const int *col, const double *val, const double *x, double *y) {\n"
                    "  int j;\n"
                    "  #pragma acc parallel loop copyin(rp[0:n+1], col[0:rp[n]], val[0:rp[n]], x[0:n]) copyout(y[0:n]) private(j)\n"
                    "  for (int i = 0; i < n; i++) {\n"
                    "    double a = 0.0;\n"
                    "    #pragma acc loop reduction(+:a)\n"
                    "    for (j = rp[i]; j < rp[i+1]; j++) a += val[j];\n"
                    "    double m = a * 2.0, b = 0.0;\n"
                    "    #pragma acc loop reduction(max:b)\n"
                    "    for (j = rp[i]; j < rp[i+1]; j++) b = b > m * x[col[j]] ? b : m * x[col[j]];\n"
                    "    y[i] = a + b;\n"
                    "  }\n}\n",
                    NULL);
  const Kernel *k = kernel0(&r);
  CHECK(k && k->shape == KS_NESTED);
  const Nested *n = k ? k->nested : NULL;
  CHECK(n && n->stage == 1 && n->next && n->next->stage == 2 && !n->next->next);
  if (n && n->next) {
    const Nested *s = n->next;
    CHECK(n->nctx == 1 && !strcmp(n->ctx[0]->name, "a"));
    CHECK(s->nctx == 3 && s->nreds == 1 && s->reds[0].op == RED_MAX && !strcmp(s->reds[0].var->name, "b"));
    CHECK(s->threshold == n->warp_threshold && s->mode == n->mode);
  }
  CHECK(r.out.cu && strstr(r.out.cu, "_2_nlk<<<") && strstr(r.out.cu, "gt_counts_2, gt_ctx_cap_2, gt_item_cap_2"));
  lowered_free(&r);
  /* gang / worker / vector: the worker loop is the inner loop; the vector loop is part of its body */
  r = lower(SPMV_HEAD
            "  for (int i = 0; i < n; i++) {\n"
            "    double sum = 0.0;\n"
            "    #pragma acc loop worker reduction(+:sum)\n"
            "    for (int j = rp[i]; j < rp[i+1]; j++) {\n"
            "      double t = 0.0;\n"
            "      #pragma acc loop vector reduction(+:t)\n"
            "      for (int k = 0; k < 4; k++) t += val[j] * k;\n"
            "      sum += t;\n"
            "    }\n"
            "    y[i] = sum;\n"
            "  }\n}\n",
            NULL);
  k = kernel0(&r);
  CHECK(k && k->shape == KS_NESTED && k->nested && !k->nested->next && k->nested->inner->loc.line == 6);
  CHECK(r.out.cu && strstr(r.out.cu, "parallel loop at") && strstr(r.out.cu, "runs sequentially in each iteration of the inner loop"));
  lowered_free(&r);
}

/* Modes and thresholds from options and from gtcc_* clauses. */
static void test_modes(void) {
  const char *body = "  for (int i = 0; i < n; i++) {\n"
                     "    double sum = 0.0;\n"
                     "    #pragma omp parallel for reduction(max:sum)\n"
                     "    for (int j = rp[i]; j < rp[i+1]; j++) sum = sum > val[j] ? sum : val[j];\n"
                     "    y[i] = sum;\n"
                     "  }\n}\n";
  char *src = xasprintf("%s%s", SPMV_HEAD, body);
  XfOptions tail = {.cdp_mode = CDP_TAIL, .cdp_threshold = 100, .cdp_warp_threshold = 10};
  Lowered r = lower(src, &tail);
  const Kernel *k = kernel0(&r);
  CHECK(k && k->nested && k->nested->mode == CDP_TAIL && k->nested->threshold == 100 &&
        k->nested->warp_threshold == 10 && k->nested->reds[0].op == RED_MAX);
  CHECK(r.out.cu && strstr(r.out.cu, "cudaStreamTailLaunch") != NULL);
  lowered_free(&r);

  XfOptions cta = {.cdp_mode = CDP_CTA, .cdp_threshold = -1, .cdp_warp_threshold = -1};
  r = lower(src, &cta);
  CHECK(r.out.cu && strstr(r.out.cu, "cudaStreamFireAndForget") != NULL && strstr(r.out.cu, "gt_seg = blockIdx.x") != NULL);
  lowered_free(&r);

  XfOptions off = {.cdp_mode = CDP_OFF, .cdp_threshold = -1, .cdp_warp_threshold = -1};
  r = lower(src, &off);
  k = kernel0(&r);
  CHECK(k && k->shape == KS_FLAT && k->flat_reason && strstr(k->flat_reason, "off"));
  CHECK(r.out.cu && strstr(r.out.cu, "_nlk(") == NULL && strstr(r.out.cu, "runs sequentially") != NULL);
  lowered_free(&r);
  free(src);

  /* the clause on the outer directive wins over the option */
  r = lower("void f(int n, const int *rp, const double *val, double *y) {\n"
            "  #pragma acc parallel loop copyin(rp[0:n+1], val[0:rp[n]]) copyout(y[0:n]) gtcc_cdp(warp) gtcc_threshold(4096)\n"
            "  for (int i = 0; i < n; i++) {\n"
            "    double sum = 0.0;\n"
            "    #pragma acc loop reduction(+:sum)\n"
            "    for (int j = rp[i]; j < rp[i+1]; j++) sum += val[j];\n"
            "    y[i] = sum;\n"
            "  }\n}\n",
            &cta);
  k = kernel0(&r);
  CHECK(k && k->nested && k->nested->mode == CDP_WARP && k->nested->threshold == 4096);
  lowered_free(&r);
}

/* Shapes that keep the inner loop sequential, each with its reason. */
static void test_fallbacks(void) {
  static const struct {
    const char *body;
    const char *reason;
  } cases[] = {
      {"  for (int i = 0; i < n; i++) {\n    double sum = 0.0;\n    for (int r = 0; r < 2; r++) {\n      sum = 1.0;\n      #pragma acc loop reduction(+:sum)\n"
       "      for (int j = rp[i]; j < rp[i+1]; j++) sum += val[j];\n    }\n    y[i] = sum;\n  }\n}\n",
       "nor of a block or an if's then branch"},
      {"  for (int i = 0; i < n; i++) {\n    double sum = 0.0;\n    if (i > 2) {\n      #pragma acc loop reduction(+:sum)\n"
       "      for (int j = rp[i]; j < rp[i+1]; j++) sum += val[j];\n    } else {\n      #pragma acc loop reduction(+:sum)\n"
       "      for (int j = rp[i]; j < rp[i+1]; j++) sum -= val[j];\n    }\n    y[i] = sum;\n  }\n}\n",
       "several inner parallel loops"},
      {"  for (int i = 0; i < n; i++) {\n    double a = 0, b = 0;\n    #pragma acc loop reduction(+:a)\n"
       "    for (int j = rp[i]; j < rp[i+1]; j++) a += val[j];\n    if (a > 0) {\n    b = 1;\n    #pragma acc loop reduction(+:b)\n"
       "    for (int j = rp[i]; j < rp[i+1]; j++) b += val[j];\n    #pragma acc loop reduction(+:b)\n"
       "    for (int j = rp[i]; j < rp[i+1]; j++) b += val[j];\n    }\n    y[i] = a + b;\n  }\n}\n",
       "not all of them statements of the body"},
      /* a block's local named like a Before local, or like a variable that After reads from outside */
      {"  for (int i = 0; i < n; i++) {\n    double sum = 0.0;\n    if (i > 2) {\n      double sum = 1.0;\n      #pragma acc loop reduction(+:sum)\n"
       "      for (int j = rp[i]; j < rp[i+1]; j++) sum += val[j];\n      y[i] = sum;\n    }\n    y[i] += sum;\n  }\n}\n",
       "has the name of"},
      {"  for (int i = 0; i < n; i++) {\n    {\n      int n = rp[i+1];\n      double t = 0.0;\n      #pragma acc loop reduction(+:t)\n"
       "      for (int j = rp[i]; j < n; j++) t += val[j];\n      y[i] = t;\n    }\n    y[i] += n;\n  }\n}\n",
       "has the name of"},
      {"  for (int i = 0; i < n; i++) {\n    double sum = 0.0;\n    #pragma acc loop\n"
       "    for (int j = rp[i]; j < rp[i+1]; j++) sum += val[j];\n    y[i] = sum;\n  }\n}\n",
       "assigned inside it without a reduction"},
      {"  for (int i = 0; i < n; i++) {\n    char c = 0;\n    #pragma acc loop reduction(+:c)\n"
       "    for (int j = rp[i]; j < rp[i+1]; j++) c += 1;\n    y[i] = c;\n  }\n}\n",
       "4 or 8 bytes"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *src = xasprintf("void f(int n, const int *rp, const double *val, double *y) {\n"
                          "  #pragma acc parallel loop copyin(rp[0:n+1], val[0:rp[n]]) copyout(y[0:n])\n%s",
                          cases[i].body);
    Lowered r = lower(src, NULL);
    const Kernel *k = kernel0(&r);
    CHECK(k && k->shape == KS_FLAT);
    CHECK(k && k->flat_reason && strstr(k->flat_reason, cases[i].reason));
    if (!(k && k->flat_reason && strstr(k->flat_reason, cases[i].reason)))
      fprintf(stderr, "  case %zu: reason '%s', diagnostics: %s\n", i, k && k->flat_reason ? k->flat_reason : "(none)",
              r.diags);
    lowered_free(&r);
    free(src);
  }
}

/* A struct local goes into the context by value; one whose member the inner loop writes, one with
 * a const member (C++ cannot assign it) and one of a type declared in the function do not. */
static void test_struct_locals(void) {
  static const struct {
    const char *type, *init, *inner, *reason;
  } cases[] = {
      {"struct seg { int lo, hi; double w; };", "struct seg q = {rp[i], rp[i+1], 0.5};", "s += val[j] * q.w;", NULL},
      {"struct seg { int lo, hi; double w; };", "struct seg q = {rp[i], rp[i+1], 0.5};", "q.w += val[j];",
       "assigned inside it without a reduction"},
      {"struct seg { int lo, hi; const double w; };", "struct seg q = {rp[i], rp[i+1], 0.5};", "s += val[j] * q.w;",
       "has a const member"},
      {"", "struct seg { int lo, hi; double w; } q = {rp[i], rp[i+1], 0.5};", "s += val[j] * q.w;",
       "not a scalar, pointer or struct"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *src = xasprintf("%s\nvoid f(int n, const int *rp, const double *val, double *y) {\n"
                          "  #pragma acc parallel loop copyin(rp[0:n+1], val[0:rp[n]]) copyout(y[0:n])\n"
                          "  for (int i = 0; i < n; i++) {\n    %s\n    double s = 0.0;\n"
                          "    #pragma acc loop reduction(+:s)\n    for (int j = q.lo; j < q.hi; j++) %s\n"
                          "    y[i] = s + q.w;\n  }\n}\n",
                          cases[i].type, cases[i].init, cases[i].inner);
    Lowered r = lower(src, NULL);
    const Kernel *k = kernel0(&r);
    if (!cases[i].reason) {
      CHECK(k && k->shape == KS_NESTED && has_ctx(k, "q"));
      CHECK(r.out.cu && strstr(r.out.cu, "  struct seg q;\n") != NULL); /* the context's member */
    } else {
      CHECK(k && k->shape == KS_FLAT && k->flat_reason && strstr(k->flat_reason, cases[i].reason));
      if (!(k && k->flat_reason && strstr(k->flat_reason, cases[i].reason)))
        fprintf(stderr, "  case %zu: reason '%s', diagnostics: %s\n", i, k && k->flat_reason ? k->flat_reason : "(none)",
                r.diags);
    }
    lowered_free(&r);
    free(src);
  }
}

/* collapse(n) on the inner directive: rectangular nests run as one range (icollapse, the
 * innermost body, the bounds of each loop in the context); other nests keep the collapse off,
 * with the reason, and still run CollectiveDP over their first loop. */
static void test_inner_collapse(void) {
  static const struct {
    const char *pre, *loops;
    int icollapse;
    const char *note;
  } cases[] = {
      {"", "collapse(2) reduction(+:s)\n for (int a = 0; a < rp[i]; a++) for (int b = 0; b < w; b++) s += val[a * w + b];",
       2, NULL},
      {"long a, b, c;", "collapse(3) reduction(+:s)\n for (a = 0; a < rp[i]; a++) for (b = w; b > 0; b -= 2) { for (c = 0; c < 3; c++) s += val[a + b + c]; }",
       3, NULL},
      {"", "collapse(2) reduction(+:s)\n for (int a = 0; a < rp[i]; a++) for (int b = 0; b <= a; b++) s += val[a + b];",
       1, "the bounds of a collapsed loop use the index of a loop around it"},
      {"", "collapse(2) reduction(+:s)\n for (int a = 0; a < rp[i]; a++) { s += 1.0; for (int b = 0; b < w; b++) s += val[b]; }",
       1, "the loops below it are not perfectly nested canonical for loops"},
      {"", "collapse(2) reduction(+:s)\n for (int a = 0; a < rp[i]; a++)\n  #pragma acc loop seq\n  for (int b = 0; b < w; b++) s += val[b];",
       1, "a directive stands between the collapsed loops"},
      {"int m = w;", "collapse(2) reduction(+:s) private(m)\n for (int a = 0; a < rp[i]; a++) for (int b = 0; b < m; b++) { m = b; s += val[b]; }",
       1, "the bounds of a collapsed loop use a variable that the loops assign"},
      {"", "collapse(2) reduction(+:s)\n for (int a = 0; a < rp[i]; a++) for (int b = 0; b < w; b++) { if (val[b] < 0) break; s += val[b]; }",
       1, "a 'break' ends the innermost collapsed loop early"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    char *src = xasprintf("void f(int n, int w, const int *rp, const double *val, double *y) {\n"
                          "  #pragma acc parallel loop copyin(rp[0:n+1], val[0:rp[n]]) copyout(y[0:n])\n"
                          "  for (int i = 0; i < n; i++) {\n    double s = 0.0; %s\n    #pragma acc loop %s\n    y[i] = s;\n  }\n}\n",
                          cases[c].pre, cases[c].loops);
    Lowered r = lower(src, NULL);
    const Kernel *k = kernel0(&r);
    CHECK(k && k->shape == KS_NESTED);
    const Nested *n = k && k->shape == KS_NESTED ? k->nested : NULL;
    CHECK(n && n->icollapse == cases[c].icollapse);
    CHECK(n && (cases[c].note ? n->collapse_note && !strcmp(n->collapse_note, cases[c].note) : !n->collapse_note));
    CHECK(n && (n->icollapse > 1 ? n->ibody != n->inner->kids[0] : n->ibody == n->inner->kids[0]));
    CHECK(r.out.cu && (strstr(r.out.cu, "gt_ilb1") != NULL) == (cases[c].icollapse > 1));
    CHECK(r.out.cu && (strstr(r.out.cu, "gt_itc2") != NULL) == (cases[c].icollapse > 2));
    CHECK(r.out.cu && (strstr(r.out.cu, "is not applied") != NULL) == (cases[c].note != NULL));
    if (!k || !n || n->icollapse != cases[c].icollapse) fprintf(stderr, "  inner collapse case %zu\n", c);
    lowered_free(&r);
    free(src);
  }
  /* later stages over indices declared outside the region, in an if's block and collapsed: the
   * first stage's After (which may run them) declares a and b */
  Lowered st = lower("void f(int n, const int *na, double *y) {\n  int a, b;\n"
                     "  #pragma acc parallel loop copyin(na[0:n]) copyout(y[0:n])\n"
                     "  for (int i = 0; i < n; i++) {\n    double s = 0.0, t = 0.0, u = 0.0;\n"
                     "    #pragma acc loop reduction(+:s)\n    for (int r = 0; r < na[i]; r++) s += r;\n"
                     "    if (i % 3) {\n      #pragma acc loop reduction(+:t)\n      for (a = 0; a < na[i]; a++) t += a;\n    }\n"
                     "    #pragma acc loop collapse(2) reduction(+:u)\n"
                     "    for (a = 0; a < na[i]; a++) for (b = 0; b < 7; b++) u += a * b + t;\n"
                     "    y[i] = s + u;\n  }\n}\n",
                     NULL);
  const Kernel *sk = kernel0(&st);
  CHECK(sk && sk->shape == KS_NESTED);
  if (sk && sk->shape == KS_NESTED) {
    const Nested *s1 = sk->nested, *s3 = s1->next ? s1->next->next : NULL;
    bool has_a = false, has_b = false;
    for (int i = 0; i < s1->nafter_decls; i++) {
      has_a |= !strcmp(s1->after_decls[i]->name, "a");
      has_b |= !strcmp(s1->after_decls[i]->name, "b");
    }
    CHECK(has_a && has_b);
    CHECK(s3 && s3->stage == 3 && s3->icollapse == 2);
  }
  lowered_free(&st);
  /* a collapse that is no constant from 1 to 3 is an error, as on the outer loop */
  Lowered r = lower(SPMV_HEAD
                    "  for (int i = 0; i < n; i++) {\n"
                    "    double sum = 0.0;\n"
                    "    #pragma acc loop collapse(4) reduction(+:sum)\n"
                    "    for (int j = rp[i]; j < rp[i+1]; j++) sum += val[j];\n"
                    "    y[i] = sum;\n  }\n}\n",
                    NULL);
  CHECK(r.p == NULL && strstr(r.diags, ":5:") && strstr(r.diags, "collapse(4) is not supported"));
  lowered_free(&r);
}

/* A nested SpMV-like loop: what the outer directive maps after rp, and the
 * inner directive's data clauses. */
static const char *const inner_data_src =
    "void f(int n, const int *rp, const double *val, double *y) {\n"
    "  #pragma acc parallel loop copyin(rp[0:n+1]%s) copyout(y[0:n])\n"
    "  for (int i = 0; i < n; i++) {\n"
    "    double sum = 0.0;\n"
    "    #pragma acc parallel loop reduction(+:sum) %s\n"
    "    for (int j = rp[i]; j < rp[i+1]; j++) sum += val[j];\n"
    "    y[i] = sum;\n  }\n}\n";

/* Bad gtcc_* arguments and data clauses on inner loops that name data the
 * outer loop does not map are located errors. */
static void test_errors(void) {
  Lowered r = lower("void f(int n, double *y) {\n"
                    "  #pragma acc parallel loop copyout(y[0:n]) gtcc_cdp(bogus)\n"
                    "  for (int i = 0; i < n; i++) y[i] = i;\n}\n",
                    NULL);
  CHECK(r.p == NULL && strstr(r.diags, ":2:") && strstr(r.diags, "unknown gtcc_cdp mode 'bogus'"));
  lowered_free(&r);
  char src[512];
  snprintf(src, sizeof src, inner_data_src, "", "copyin(val[0:rp[n]])");
  r = lower(src, NULL);
  CHECK(r.p == NULL && strstr(r.diags, ":5:") && strstr(r.diags, "data clause 'copyin' on an inner loop names 'val'"));
  lowered_free(&r);
  /* data the outer construct maps is present: an inner clause naming it moves nothing */
  snprintf(src, sizeof src, inner_data_src, ", val[0:rp[n]]", "copyin(val[0:rp[n]]) present(rp)");
  r = lower(src, NULL);
  CHECK(r.p != NULL && r.p->nkernels == 1 && r.p->kernels[0]->shape == KS_NESTED);
  lowered_free(&r);
}

int main(void) {
  test_spmv_shape();
  test_guarded();
  test_scoped();
  test_stages();
  test_modes();
  test_fallbacks();
  test_struct_locals();
  test_inner_collapse();
  test_errors();
  return unit_result();
}
