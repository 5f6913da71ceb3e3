/* Atomic constructs (`acc atomic`, `omp atomic`): checks the statement's
 * form and records, as edits of the .gt.cu's text (TranslationUnit.
 * cxx_fixes), its rewrite into calls of the runtime's gtrt_atomic helpers
 * (runtime/gtrt_device.cuh). The edits only wrap and join what the user
 * wrote, so the C++ edits inside x and expr still apply:
 *
 *   x += e;             ->  gtrt_atomic<GTRT_AOP_ADD, 1, 0>(&(x), (e));
 *   v = x++;            ->  v = gtrt_atomic<GTRT_AOP_ADD, 0, 0>(&(x), 1);
 *   x = e - x;          ->  gtrt_atomic_r<GTRT_AOP_SUB, 1, 0>((e), &(x));
 *   {v = x; x *= e;}    ->  {v = gtrt_atomic<GTRT_AOP_MUL, 0, 0>(&(x), (e));}
 *   {x++; v = x;}       ->  {auto gt_atomic_v = gtrt_atomic<GTRT_AOP_ADD, 1, 0>(&(x), 1); v = gt_atomic_v;}
 *   x = e < x ? e : x;  ->  gtrt_atomic<GTRT_AOP_MIN, 1, 0>(&(x), (e));        (atomic compare)
 *
 * The host build (.gt.c) keeps the pragma and the statement as written.
 * Whether a scalar x must be shared with the device is the transform's
 * question (transform/capture.c), from the AtomicSite recorded here. */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "cxx_fixes.h"
#include "strbuf.h"

typedef enum AtomicKind { AK_UPDATE, AK_READ, AK_WRITE, AK_CAPTURE, AK_COMPARE } AtomicKind;

/* Edits of one atomic statement, in the order they are made. */
typedef struct Rewrite {
  const TranslationUnit *tu;
  TextFix *fixes;
  int n, cap;
  int order; /* the memory-order argument of the helpers */
} Rewrite;

static void add(Rewrite *rw, unsigned b, unsigned e, const char *text, int order) {
  /* a replaced range keeps its line breaks, so the lines after stay where #line says */
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, text);
  for (unsigned i = b; i < e; i++)
    if (rw->tu->file->text[i] == '\n') sb_putc(&sb, '\n');
  for (int i = 0; i < rw->n; i++) /* two insertions at one place: one edit, in the order made */
    if (b == e && rw->fixes[i].begin == b && rw->fixes[i].end == b) {
      char *joined = xasprintf("%s%s", rw->fixes[i].text, sb.data ? sb.data : "");
      free(rw->fixes[i].text);
      sb_free(&sb);
      rw->fixes[i].text = joined;
      return;
    }
  TextFix f = {b, e, sb_take(&sb), order};
  VEC_PUSH(rw->fixes, rw->n, rw->cap, f);
}

/* Undoes the edits made since the first `mark`. */
static void drop_from(Rewrite *rw, int mark) {
  while (rw->n > mark) free(rw->fixes[--rw->n].text);
}

static void insert_open(Rewrite *rw, unsigned at, const char *text) { add(rw, at, at, text, -1); }
static void insert_close(Rewrite *rw, unsigned at, const char *text) { add(rw, at, at, text, 1); }
/* An empty range replaced is an insertion that closes (the parentheses after an operand). */
static void replace(Rewrite *rw, unsigned b, unsigned e, const char *text) { add(rw, b, e, text, b == e ? 1 : 0); }

/* Do two lvalues read the same (whitespace aside)? */
static bool same_text(const TranslationUnit *tu, const ExprShape *a, const ExprShape *b) {
  const char *t = tu->file->text;
  unsigned i = a->begin, j = b->begin;
  for (;;) {
    while (i < a->end && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) i++;
    while (j < b->end && (t[j] == ' ' || t[j] == '\t' || t[j] == '\n' || t[j] == '\r')) j++;
    if (i >= a->end || j >= b->end) return i >= a->end && j >= b->end;
    if (t[i++] != t[j++]) return false;
  }
}

static const char *op_name(const char *op) {
  static const struct { const char *op, *name; } ops[] = {
      {"+", "ADD"}, {"-", "SUB"}, {"*", "MUL"}, {"/", "DIV"}, {"&", "AND"}, {"|", "OR"}, {"^", "XOR"},
      {"<<", "SHL"}, {">>", "SHR"}, {"+=", "ADD"}, {"-=", "SUB"}, {"*=", "MUL"}, {"/=", "DIV"}, {"&=", "AND"},
      {"|=", "OR"}, {"^=", "XOR"}, {"<<=", "SHL"}, {">>=", "SHR"}, {"++", "ADD"}, {"--", "SUB"}};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (!strcmp(op, ops[i].op)) return ops[i].name;
  return NULL;
}

static char *helper(const Rewrite *rw, const char *fn, const char *op, int ret, const char *open) {
  return xasprintf("%s<GTRT_AOP_%s, %d, %d>(%s", fn, op, ret, rw->order, open);
}

/* u is an update of x (x++, ++x, x op= e, x = x op e, x = e op x): rewritten
 * in place into a helper call whose value is x's old value (ret 0) or its
 * new one (ret 1; -1: as the C expression's value). Returns x, or NULL if u
 * has no such form. */
static const ExprShape *rewrite_update(Rewrite *rw, const ExprShape *u, int ret) {
  if (!u) return NULL;
  const char *op = op_name(u->op);
  char *h = NULL;
  const ExprShape *x = NULL;
  if ((u->form == EF_POST || u->form == EF_PRE) && u->a && u->a->form == EF_LVALUE && op) {
    x = u->a;
    h = helper(rw, "gtrt_atomic", op, ret >= 0 ? ret : u->form == EF_PRE, "&(");
    if (u->form == EF_POST) {
      insert_open(rw, x->begin, h);
      replace(rw, u->op_begin, u->op_end, "), 1)");
    } else {
      replace(rw, u->op_begin, u->op_end, h);
      insert_close(rw, x->end, "), 1)");
    }
  } else if (u->form == EF_OPASSIGN && u->a && u->a->form == EF_LVALUE && u->b && op) {
    x = u->a;
    h = helper(rw, "gtrt_atomic", op, ret >= 0 ? ret : 1, "&(");
    insert_open(rw, x->begin, h);
    replace(rw, u->op_begin, u->op_end, "), (");
    insert_close(rw, u->b->end, "))");
  } else if (u->form == EF_ASSIGN && u->a && u->a->form == EF_LVALUE && u->b && u->b->form == EF_BINARY &&
             (op = op_name(u->b->op)) != NULL && u->b->a && u->b->b) {
    const ExprShape *bin = u->b;
    if (same_text(rw->tu, u->a, bin->a)) { /* x = x op e */
      x = u->a;
      h = helper(rw, "gtrt_atomic", op, ret >= 0 ? ret : 1, "&(");
      replace(rw, u->a->begin, bin->a->begin, h);
      replace(rw, bin->op_begin, bin->op_end, "), (");
      replace(rw, bin->b->end, bin->end, "))");
    } else if (same_text(rw->tu, u->a, bin->b)) { /* x = e op x */
      x = u->a;
      h = helper(rw, "gtrt_atomic_r", op, ret >= 0 ? ret : 1, "(");
      replace(rw, u->a->begin, bin->a->begin, h);
      replace(rw, bin->op_begin, bin->op_end, "), &(");
      replace(rw, bin->b->end, bin->end, "))");
    }
  }
  free(h);
  return x;
}

/* `x = e` (capture's write form): x's old value. */
static const ExprShape *rewrite_exchange(Rewrite *rw, const ExprShape *w) {
  if (!w || w->form != EF_ASSIGN || !w->a || w->a->form != EF_LVALUE || !w->b) return NULL;
  char *h = helper(rw, "gtrt_atomic", "SET", 0, "&(");
  insert_open(rw, w->a->begin, h);
  replace(rw, w->op_begin, w->op_end, "), (");
  insert_close(rw, w->b->end, "))");
  free(h);
  return w->a;
}

/* The operand of comparison cmp that is not x (NULL unless exactly one is x). */
static const ExprShape *other_operand(const Rewrite *rw, const ExprShape *cmp, const ExprShape *x) {
  bool a = same_text(rw->tu, cmp->a, x), b = same_text(rw->tu, cmp->b, x);
  return a == b ? NULL : a ? cmp->b : cmp->a;
}

/* Which of min and max `cmp ? chosen : x` keeps, by the comparison's operator
 * and whether x is its left operand ("MIN", "MAX" or NULL). */
static const char *min_or_max(const ExprShape *cmp, bool x_left, bool chosen_is_e) {
  bool lt = !strcmp(cmp->op, "<");
  if (!lt && strcmp(cmp->op, ">")) return NULL;
  bool e_smaller = lt != x_left; /* the condition says e < x */
  return e_smaller == chosen_is_e ? "MIN" : "MAX";
}

/* `x = e < x ? e : x;` and the like: x's new value is the minimum or the maximum. */
static const ExprShape *rewrite_compare_expr(Rewrite *rw, const ExprShape *s) {
  if (!s || s->form != EF_ASSIGN || !s->a || s->a->form != EF_LVALUE || !s->b || s->b->form != EF_COND) return NULL;
  const ExprShape *x = s->a, *cond = s->b->a, *t = s->b->b, *f = s->b->c;
  if (cond->form != EF_BINARY || !cond->a || !cond->b) return NULL;
  const ExprShape *e = other_operand(rw, cond, x);
  if (!e) return NULL;
  if (!strcmp(cond->op, "==")) { /* x = x == e ? d : x: a compare-and-swap */
    if (!same_text(rw->tu, f, x)) return NULL;
    char *h = xasprintf("gtrt_atomic_cas_eq<%d>(&(", rw->order);
    insert_open(rw, x->begin, h);
    free(h);
    replace(rw, x->end, e->begin, "), (");
    replace(rw, e->end, t->begin, "), (");
    replace(rw, t->end, s->end, "))");
    return x;
  }
  bool t_is_e = same_text(rw->tu, t, e) && same_text(rw->tu, f, x), t_is_x = same_text(rw->tu, t, x) && same_text(rw->tu, f, e);
  const char *op = (t_is_e || t_is_x) ? min_or_max(cond, e == cond->b, t_is_e) : NULL;
  if (!op) return NULL;
  char *h = helper(rw, "gtrt_atomic", op, 1, "&(");
  insert_open(rw, x->begin, h);
  replace(rw, x->end, e->begin, "), (");
  replace(rw, e->end, s->end, "))");
  free(h);
  return x;
}

/* `if (e < x) x = e;` (a min or max) and `if (x == e) x = d;` (a compare-and-swap). */
static const ExprShape *rewrite_compare_if(Rewrite *rw, const Stmt *s) {
  const ExprShape *cond = s->shape;
  if (s->kind != ST_IF || s->nkids != 1 || !cond || cond->form != EF_BINARY || !cond->a || !cond->b) return NULL;
  const Stmt *then = s->kids[0];
  if (then->kind == ST_COMPOUND && then->nkids == 1) then = then->kids[0];
  const ExprShape *w = then->shape;
  if (then->kind != ST_EXPR || !w || w->form != EF_ASSIGN || !w->a || w->a->form != EF_LVALUE || !w->b) return NULL;
  const ExprShape *x = w->a, *e = other_operand(rw, cond, x);
  if (!e) return NULL;
  if (!strcmp(cond->op, "==")) { /* e is evaluated once, in the condition's place */
    if (e == cond->b) {
      replace(rw, cond->begin, e->begin, "const auto gt_atomic_e = (");
      insert_close(rw, e->end, "); true");
    } else {
      insert_open(rw, e->begin, "const auto gt_atomic_e = (");
      replace(rw, e->end, cond->end, "); true");
    }
    char *h = xasprintf("gtrt_atomic_cas_if<%d>(gt_atomic_e, &(", rw->order);
    insert_open(rw, x->begin, h);
    free(h);
  } else {
    const char *op = same_text(rw->tu, w->b, e) ? min_or_max(cond, e == cond->b, true) : NULL;
    if (!op) return NULL;
    replace(rw, cond->begin, cond->end, "true");
    char *h = helper(rw, "gtrt_atomic", op, 1, "&(");
    insert_open(rw, x->begin, h);
    free(h);
  }
  replace(rw, w->op_begin, w->op_end, "), (");
  insert_close(rw, w->b->end, "))");
  return x;
}

static bool is_capture_read(const ExprShape *e) {
  return e && e->form == EF_ASSIGN && e->a && e->a->form == EF_LVALUE && e->b && e->b->form == EF_LVALUE;
}

/* `{v = x; update-or-write of x;}` or `{update of x; v = x;}`. */
static const ExprShape *rewrite_capture_block(Rewrite *rw, const Stmt *s) {
  if (s->kind != ST_COMPOUND || s->nkids != 2 || !s->kids[0]->shape || !s->kids[1]->shape) return NULL;
  const Stmt *s0 = s->kids[0], *s1 = s->kids[1];
  const ExprShape *e0 = s0->shape, *e1 = s1->shape;
  if (is_capture_read(e0)) { /* v = x; then x changes: v gets the old value */
    int mark = rw->n;
    replace(rw, e0->b->begin, s1->begin, ""); /* `x;` goes: the update's value is v's */
    const ExprShape *x = rewrite_update(rw, e1, 0);
    if (!x) x = rewrite_exchange(rw, e1);
    if (x && same_text(rw->tu, x, e0->b)) return x;
    drop_from(rw, mark);
  }
  if (is_capture_read(e1)) { /* x changes; then v = x: v gets the new value */
    int mark = rw->n;
    insert_open(rw, s0->begin, "auto gt_atomic_v = ");
    const ExprShape *x = rewrite_update(rw, e0, 1);
    replace(rw, e1->b->begin, e1->b->end, "gt_atomic_v");
    if (x && same_text(rw->tu, x, e1->b)) return x;
    drop_from(rw, mark);
  }
  return NULL;
}

static const char *kind_forms(AtomicKind k) {
  switch (k) {
  case AK_READ: return "the form 'v = x;' (x and v lvalues)";
  case AK_WRITE: return "the form 'x = expr;'";
  case AK_UPDATE:
    return "one of the forms 'x++;', 'x--;', '++x;', '--x;', 'x op= expr;', 'x = x op expr;' and 'x = expr op x;' "
           "(op one of + - * / & | ^ << >>)";
  case AK_CAPTURE:
    return "one of the forms 'v = x++;', 'v = ++x;' (or --), 'v = x op= expr;', 'v = x = x op expr;' and "
           "'v = x = expr op x;', or a block of two statements: {v = x; x op= expr;}, {x op= expr; v = x;}, "
           "{v = x; x = expr;} (or x++, ++x, x = x op expr in them)";
  case AK_COMPARE:
    return "one of the forms 'x = expr < x ? expr : x;' (or >, or x first in the comparison, or the branches "
           "swapped), 'if (expr < x) x = expr;' (or >, or x first), 'x = x == e ? d : x;' and 'if (x == e) x = d;'";
  }
  return "";
}

static const char *kind_word(AtomicKind k) {
  static const char *w[] = {"update", "read", "write", "capture", "compare"};
  return w[k];
}

/* The access kind and memory order from the clauses; false after an error. */
static bool read_clauses(const Directive *d, AtomicKind *kind, int *order) {
  static const struct { ClauseKind c; AtomicKind k; } kinds[] = {{CL_UPDATE, AK_UPDATE}, {CL_READ, AK_READ},
                                                                   {CL_WRITE, AK_WRITE}, {CL_CAPTURE, AK_CAPTURE},
                                                                   {CL_COMPARE, AK_COMPARE}};
  const Clause *seen = NULL, *order_seen = NULL;
  *kind = AK_UPDATE, *order = 0;
  for (int i = 0; i < d->nclauses; i++) {
    const Clause *c = &d->clauses[i];
    bool is_order = c->kind == CL_SEQ_CST || c->kind == CL_ACQ_REL || c->kind == CL_ACQUIRE ||
                    c->kind == CL_RELEASE || c->kind == CL_RELAXED;
    if (is_order && order_seen) {
      diag_error(c->loc, "'%s' may have only one memory-order clause ('%s' came first)", dir_name(d->kind),
                 clause_spelling(order_seen->kind));
      return false;
    }
    if (is_order) order_seen = c;

    /* 1: a fence before and after (seq_cst, acq_rel); 2: after (acquire); 3: before (release) */
    if (c->kind == CL_SEQ_CST || c->kind == CL_ACQ_REL) *order = 1;
    if (c->kind == CL_ACQUIRE) *order = 2;
    if (c->kind == CL_RELEASE) *order = 3;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
      if (c->kind != kinds[k].c) continue;
      if (seen) {
        diag_error(c->loc, "'%s' may have only one of read, write, update, capture and compare ('%s' came first; "
                           "gtcc does not support 'compare' with 'capture')",
                   dir_name(d->kind), clause_spelling(seen->kind));
        return false;
      }
      seen = c;
      *kind = kinds[k].k;
    }
  }
  return true;
}

static const char *value_types(void) {
  return "int, unsigned, long, unsigned long, long long, unsigned long long, float and double are";
}

/* What fe_plan_atomics gathers: the edits go to tu->cxx_fixes, the sites to tu->atomics. */
typedef struct Plans {
  TranslationUnit *tu;
  int fixes_cap, atomics_cap;
} Plans;

static void plan(Plans *ps, Directive *d, Stmt *s) {
  TranslationUnit *tu = ps->tu;
  AtomicKind kind;
  Rewrite rw = {tu, NULL, 0, 0, 0};
  if (!read_clauses(d, &kind, &rw.order)) return;
  const ExprShape *e = s->shape, *x = NULL;
  switch (kind) {
  case AK_READ:
    if (is_capture_read(e)) {
      x = e->b;
      char *h = xasprintf("gtrt_atomic_read<%d>(&(", rw.order);
      insert_open(&rw, x->begin, h);
      insert_close(&rw, x->end, "))");
      free(h);
    }
    break;
  case AK_WRITE:
    if (e && e->form == EF_ASSIGN && e->a && e->a->form == EF_LVALUE && e->b) {
      x = e->a;
      char *h = xasprintf("gtrt_atomic_write<%d>(&(", rw.order);
      insert_open(&rw, x->begin, h);
      replace(&rw, e->op_begin, e->op_end, "), (");
      insert_close(&rw, e->b->end, "))");
      free(h);
    }
    break;
  case AK_UPDATE: x = rewrite_update(&rw, e, -1); break;
  case AK_CAPTURE:
    if (s->kind == ST_COMPOUND) x = rewrite_capture_block(&rw, s);
    else if (e && e->form == EF_ASSIGN && e->a && e->a->form == EF_LVALUE) x = rewrite_update(&rw, e->b, -1);
    break;
  case AK_COMPARE: x = s->kind == ST_IF ? rewrite_compare_if(&rw, s) : rewrite_compare_expr(&rw, e); break;
  }
  if (!x && e && e->form == EF_OTHER && e->macro) {
    diag_error(s->loc, "the statement after '%s %s' is written through macro '%s': gtcc rewrites the statement as "
               "written, so its operator must be in the file (write out what the macro stands for)",
               dir_name(d->kind), kind_word(kind), e->macro);
  } else if (!x) {
    diag_error(s->loc, "the statement after '%s %s' must have %s", dir_name(d->kind), kind_word(kind),
               kind_forms(kind));
  } else if (x->vclass == VC_OTHER) {
    char *xt = fe_text(tu, x->begin, x->end);
    diag_error(srcfile_loc(tu->file, x->begin), "atomic access to '%s' of type '%s' is not supported by gtcc (%s)", xt,
               x->type ? x->type : "?", value_types());
    free(xt);
  } else {
    for (int i = 0; i < rw.n; i++) VEC_PUSH(tu->cxx_fixes, tu->ncxx_fixes, ps->fixes_cap, rw.fixes[i]);
    AtomicSite a = {d, s, x->root, x->root_storage, srcfile_loc(tu->file, x->begin)};
    VEC_PUSH(tu->atomics, tu->natomics, ps->atomics_cap, a);
    rw.n = 0; /* the texts now belong to tu */
  }
  drop_from(&rw, 0);
  free(rw.fixes);
}

static bool is_atomic(const Directive *d) { return d->kind == DIR_ACC_ATOMIC || d->kind == DIR_OMP_ATOMIC; }

static void walk(Plans *ps, Stmt *s) {
  if (!s) return;
  for (int i = 0; i < s->ndirs; i++) {
    if (!is_atomic(s->dirs[i])) continue;
    if (i + 1 < s->ndirs)
      diag_error(s->dirs[i + 1]->loc, "'%s' after '%s': an atomic construct applies to the statement after it",
                 dir_name(s->dirs[i + 1]->kind), dir_name(s->dirs[i]->kind));
    else
      plan(ps, s->dirs[i], s);
  }
  for (int i = 0; i < s->nkids; i++) walk(ps, s->kids[i]);
}

void fe_plan_atomics(TranslationUnit *tu) {
  /* the edits join the C++ ones, which the .gt.cu's copies of device code apply */
  Plans ps = {tu, tu->ncxx_fixes, 0};
  int before = tu->ncxx_fixes;
  for (int i = 0; i < tu->nfuncs; i++) walk(&ps, tu->funcs[i]->body);
  if (tu->ncxx_fixes > before) qsort(tu->cxx_fixes, (size_t)tu->ncxx_fixes, sizeof *tu->cxx_fixes, fe_fix_order);
}
