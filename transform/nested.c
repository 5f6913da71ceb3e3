/* Nested parallel loops -> CollectiveDP (Ozen et al., PACT'16).
 *
 * An outer parallel loop whose body is `Before; inner parallel loop; After`
 * is lowered so that the parent thread runs Before, computes the inner trip
 * count and then either runs the inner loop itself (short), hands it to its
 * warp (medium) or saves a context for the next-level kernel (long). The
 * context holds the Before locals that the inner loop or After use. When a
 * loop nest does not fit this shape, the inner loop stays sequential and
 * the reason is kept for the .gt.cu note. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lir.h"
#include "strbuf.h"

/* Defaults, chosen by the threshold and chunk sweeps in docs/collectivedp.md. */
enum { DEFAULT_WARP_THRESHOLD = 32, DEFAULT_THRESHOLD = 2048, DEFAULT_CHUNK = 65536, MAX_WARP_THRESHOLD = 1 << 20 };

static const char *const mode_names[] = {"default", "off", "host", "tail", "cta", "warp"};

int xf_parse_cdp_mode(const char *s) {
  for (int i = 1; i < (int)(sizeof mode_names / sizeof *mode_names); i++)
    if (!strcmp(s, mode_names[i])) return i;
  return -1;
}

const char *xf_cdp_mode_name(CdpMode m) { return mode_names[m]; }

static bool is_parallel_loop_dir(const Directive *d) {
  return (dir_flags(d->kind) & DF_LOOP) && d->kind != DIR_OMP_SIMD && !dir_find_clause(d, CL_SEQ);
}

static const Directive *parallel_loop_dir(const Stmt *s) {
  for (int i = 0; i < s->ndirs; i++)
    if (is_parallel_loop_dir(s->dirs[i])) return s->dirs[i];
  return NULL;
}

void xf_check_gtcc_clauses(const Directive *d) {
  const Clause *c = dir_find_clause(d, CL_GTCC_CDP);
  if (c && xf_parse_cdp_mode(c->expr.text) < 0)
    diag_error(c->expr.loc, "unknown gtcc_cdp mode '%s' (use off, host, tail, cta or warp)", c->expr.text);
  c = dir_find_clause(d, CL_GTCC_THRESHOLD);
  long long v;
  if (c && (!fe_expr_int(&c->expr, &v) || v < 0))
    diag_error(c->expr.loc, "'gtcc_threshold' needs a non-negative integer constant");
}

/* The CdpMode for k: a gtcc_cdp clause (outer directive, its construct,
 * or the inner loop's) wins over --cdp. */
static CdpMode kernel_mode(const Program *p, const Kernel *k) {
  const Directive *ds[3] = {k->dir, k->outer, NULL};
  for (int s = 0; s < k->nseq_inner; s++)
    for (int d = 0; d < k->seq_inner[s]->ndirs && !ds[2]; d++)
      if (dir_find_clause(k->seq_inner[s]->dirs[d], CL_GTCC_CDP)) ds[2] = k->seq_inner[s]->dirs[d];
  for (int i = 0; i < 3; i++) {
    const Clause *c = ds[i] ? dir_find_clause(ds[i], CL_GTCC_CDP) : NULL;
    int m = c ? xf_parse_cdp_mode(c->expr.text) : -1;
    if (m >= 0) return (CdpMode)m;
  }
  return p->opts.cdp_mode == CDP_DEFAULT ? CDP_HOST : p->opts.cdp_mode;
}

static long long clause_number(const Kernel *k, ClauseKind kind, long long dflt) {
  const Directive *ds[2] = {k->dir, k->outer};
  for (int i = 0; i < 2; i++) {
    const Clause *c = ds[i] ? dir_find_clause(ds[i], kind) : NULL;
    if (!c) continue;
    long long v;
    return !fe_expr_int(&c->expr, &v) || v < 0 ? dflt : v; /* xf_check_gtcc_clauses reported it */
  }
  return dflt;
}

static bool is_reduction(const Nested *n, const CVar *v) {
  for (int i = 0; i < n->nreds; i++)
    if (n->reds[i].var == v) return true;
  return false;
}

static bool is_private(const Nested *n, const CVar *v) {
  for (int i = 0; i < n->nprivs; i++)
    if (n->privs[i] == v) return true;
  return false;
}

/* A pointer to rows of constant size (`double (*q)[4] = Q + i;`): the
 * context holds it as a view (gtrt_vla1/2), which converts back. */
static bool constant_rows(const CVar *v) {
  if (v->tkind != VT_VLA_POINTER || v->is_vla || v->ndims < 1 || v->ndims > 2) return false;
  for (int d = 0; d < v->ndims; d++)
    if (v->dims[d] < 0) return false;
  return true;
}

/* A struct or union local the context can hold by value: a named type of file scope (the context
 * struct is declared there), of known size, not volatile (C++ does not copy a volatile struct). */
static bool context_record(const CVar *v) {
  return v->tkind == VT_RECORD && v->elem_size > 0 && !(v->type_ref && v->type_ref->kind == NR_LOCAL_TYPE) &&
         !strchr(v->type, '(') && !strstr(v->type, "volatile");
}

/* The index of s if s is a canonical for loop (`int j;`, then `for (j = ...)` in several loops,
 * parallel or not): the loop sets it before it reads it, so the index's value does not flow into
 * it, and After declares it again where it runs (find_after_decls). NULL for other statements. */
static const CVar *loop_index(const Stmt *s) {
  return s->kind == ST_FOR && s->loop && s->loop->canonical ? s->loop->iv : NULL;
}

/* Does an if's condition or else branch use v? */
static bool if_parts_use(const Stmt *s, const CVar *v) {
  for (int i = 0; i < s->nuses; i++)
    if (s->uses[i].var == v) return true;
  return s->nkids > 1 && xf_subtree_uses(s->kids[1], v, false, NULL);
}

/* Does a statement of kids [from, to) of s use v? Loops of index v do not count (loop_index). */
static bool kids_use(const Stmt *s, int from, int to, const CVar *v) {
  for (int i = from; i < to; i++)
    if (loop_index(s->kids[i]) != v && xf_subtree_uses(s->kids[i], v, false, NULL)) return true;
  return false;
}

/* Does a statement of the outer body other than stage n's inner loop use v (the guard's or block's
 * condition and else branch, and the block's other statements, included)? Other stages' loops of
 * index v do not count. */
static bool outside_inner(const Stmt *body, const Nested *n, const CVar *v) {
  if (kids_use(body, 0, n->inner_index, v) || kids_use(body, n->inner_index + 1, body->nkids, v)) return true;
  if (n->guard) return if_parts_use(n->guard, v);
  if (!n->block) return false;
  if (n->block->kind == ST_IF && if_parts_use(n->block, v)) return true;
  return kids_use(n->scope, 0, n->scope_index, v) || kids_use(n->scope, n->scope_index + 1, n->scope->nkids, v);
}

/* `if (c) inner-loop` or `if (c) { inner-loop } [else ...]`: the parallel loop of the then branch. */
static Stmt *guarded_loop(Stmt *s) {
  if (s->kind != ST_IF || s->nkids < 1) return NULL;
  Stmt *then = s->kids[0];
  if (then->kind == ST_COMPOUND && then->nkids == 1) then = then->kids[0];
  return then->kind == ST_FOR && parallel_loop_dir(then) ? then : NULL;
}

/* `{ B; inner-loop; A }` or `if (c) { B; inner-loop; A } [else ...]`: the block's one parallel
 * loop among its statements (*scope: the block, *at: its index there), or NULL. */
static Stmt *scoped_loop(Stmt *s, Stmt **scope, int *at) {
  Stmt *blk = s->kind == ST_COMPOUND ? s : s->kind == ST_IF && s->nkids >= 1 && s->kids[0]->kind == ST_COMPOUND ? s->kids[0] : NULL;
  if (!blk) return NULL;
  *at = -1;
  for (int i = 0; i < blk->nkids; i++)
    if (blk->kids[i]->kind == ST_FOR && parallel_loop_dir(blk->kids[i])) {
      if (*at >= 0) return NULL; /* two in one block: the count in try_nested says so */
      *at = i;
    }
  *scope = blk;
  return *at >= 0 ? blk->kids[*at] : NULL;
}

/* Is v the index of one of stage n's collapsed inner loops (the inner loop's own included)? */
static bool is_inner_index(const Nested *n, const CVar *v) {
  for (int l = 0; l < n->icollapse; l++)
    if (n->iloops[l]->loop->iv == v) return true;
  return false;
}

/* A `break` in s that leaves s (not taken by a loop or switch inside it). */
static bool break_leaves(const Stmt *s, bool taken) {
  if (s->kind == ST_BREAK && !taken) return true;
  taken |= s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO || s->kind == ST_SWITCH;
  for (int i = 0; i < s->nkids; i++)
    if (break_leaves(s->kids[i], taken)) return true;
  return false;
}

/* Why the loops below stage n's inner loop cannot run as one range with it for its collapse(c):
 * they must be perfectly nested canonical for loops without directives of their own, each with
 * bounds fixed across the nest (no outer index of it, nothing the nest assigns: the parent
 * computes every trip count once), and no `break` may end the innermost one early. */
static const char *collapse_obstacle(Nested *n, int c) {
  const Stmt *loops[3] = {n->inner, NULL, NULL};
  for (int l = 1; l < c; l++) {
    const Stmt *t = xf_only_stmt(loops[l - 1]->kids[0]);
    if (!t || t->kind != ST_FOR || !t->loop || !t->loop->canonical)
      return "the loops below it are not perfectly nested canonical for loops";
    if (t->ndirs) return "a directive stands between the collapsed loops";
    loops[l] = t;
  }
  for (int l = 1; l < c; l++)
    for (int u = 0; u < loops[l]->nuses; u++) {
      const CVar *v = loops[l]->uses[u].var;
      for (int e = 0; e < l; e++)
        if (v == loops[e]->loop->iv) return "the bounds of a collapsed loop use the index of a loop around it";
      if (v != loops[l]->loop->iv && xf_subtree_uses(n->inner->kids[0], v, true, NULL))
        return "the bounds of a collapsed loop use a variable that the loops assign";
    }
  if (break_leaves(loops[c - 1]->kids[0], false)) return "a 'break' ends the innermost collapsed loop early";
  for (int l = 0; l < c; l++) n->iloops[l] = loops[l];
  n->icollapse = c;
  n->ibody = loops[c - 1]->kids[0];
  return NULL;
}

/* collapse(c) on stage n's inner directive: applied when collapse_obstacle finds nothing; else
 * only the first loop runs in parallel (right for any nest), and the .gt.cu says why. */
static void inner_collapse(Nested *n) {
  const Clause *c = dir_find_clause(n->inner_dir, CL_COLLAPSE);
  long long want;
  if (!c || !fe_expr_int(&c->expr, &want) || want < 2 || want > 3) return; /* regions.c reported a bad one */
  n->collapse_note = collapse_obstacle(n, (int)want);
}

/* Fills n from the inner directive's clauses; returns a reason on failure. */
static const char *inner_clauses(Program *p, Nested *n, CVar **before, int nbefore) {
  const Directive *d = n->inner_dir;
  for (int c = 0; c < d->nclauses; c++) {
    const Clause *cl = &d->clauses[c];
    for (int j = 0; j < cl->nitems; j++) {
      CVar *v = xf_lookup_var(p, cl->items[j].name, d->loc.offset);
      if (cl->kind == CL_REDUCTION) {
        if (v && is_reduction(n, v)) {
          diag_error(cl->items[j].loc, "'%s' is already in a 'reduction' clause of this construct", v->name);
          return "a variable is in two reduction clauses";
        }
        bool local = false;
        for (int b = 0; b < nbefore; b++) local |= before[b] == v;
        if (!v || !local || v->tkind != VT_SCALAR)
          return "its reduction variable is not a scalar declared in the outer loop body before it";
        if (v->elem_size != 4 && v->elem_size != 8) return "its reduction variable is not 4 or 8 bytes wide";
        InnerReduction r = {v, cl->u.red_op};
        VEC_PUSH(n->reds, n->nreds, n->reds_cap, r);
      } else if (cl->kind == CL_PRIVATE && v) {
        if (v->tkind != VT_SCALAR && v->tkind != VT_POINTER) return "a private variable of it is not a scalar";
        VEC_PUSH(n->privs, n->nprivs, n->privs_cap, v);
      }
    }
  }
  return NULL;
}

/* The inner loop's bounds change with the outer iteration: its header reads
 * the outer index, a saved Before local or memory (CSR: rp[i], rp[i+1]). */
static bool bounds_follow_outer(const Kernel *k, const Nested *n) {
  const Stmt *in = n->inner;
  for (int i = 0; i < in->nuses; i++) {
    const CVar *v = in->uses[i].var;
    if (v == in->loop->iv) continue;
    for (int l = 0; l < k->collapse; l++)
      if (v == k->loops[l]->iv) return true;
    if (v->tkind == VT_POINTER || v->tkind == VT_ARRAY || v->tkind == VT_VLA_POINTER) return true;
    for (int c = 0; c < n->nctx; c++)
      if (n->ctx[c] == v) return true;
  }
  return false;
}

/* Reads a[j] (j the inner index) of a one-dimensional array of scalars
 * that the region never writes, in loops whose range follows the outer
 * iteration: each element is read once (CSR values and columns). A range
 * fixed across outer iterations (dense x[j]) is reused and stays cached. */
static void find_streamed(const Kernel *k, Nested *n, const Stmt *s) {
  for (int i = 0; i < s->nelem_reads; i++) {
    const ElemRead *r = &s->elem_reads[i];
    const CVar *a = r->base;
    bool one_dim = (a->tkind == VT_POINTER && a->elem_type && !strchr(a->elem_type, '*')) ||
                   (a->tkind == VT_ARRAY && a->ndims == 1);
    if (r->index == n->inner->loop->iv && one_dim && !xf_find_use(k->body, a, XF_USE_WRITE | XF_USE_ELEM_WRITE))
      VEC_PUSH(n->streamed, n->nstreamed, n->streamed_cap, r);
  }
  for (int i = 0; i < s->nkids; i++) find_streamed(k, n, s->kids[i]);
}

/* Does After (the block's statements after stage n's inner loop, and the outer body's after the
 * block) use v? Later stages' loops of index v do not count: the executors declare such an index
 * for them. */
static bool used_after(const Stmt *body, const Nested *n, const CVar *v) {
  return kids_use(body, n->inner_index + 1, body->nkids, v) ||
         (n->block && kids_use(n->scope, n->scope_index + 1, n->scope->nkids, v));
}

/* Does the inner loop or After use v? */
static bool inner_or_after(const Stmt *body, const Nested *n, const CVar *v) {
  return xf_subtree_uses(n->inner, v, false, NULL) || used_after(body, n, v);
}

/* `&p[i]` or `&p->f` of a pointer p at offset at: the address of what p points to, not of p. */
static bool address_of_pointee(const char *text, const CVar *v, unsigned at) {
  if (v->tkind != VT_POINTER || !xf_unary_before(text, at, '&')) return false;
  const char *after = text + at + strlen(v->name);
  while (*after == ' ' || *after == '\t') after++;
  return after[0] == '[' || (after[0] == '-' && after[1] == '>');
}

/* The address of v at use u (`&v`, `&(v)`, `(T *)&v`, `&v[i]` of an array), or an array of v
 * becoming a pointer value (`p = w`, `f(w)`, `f(s.a)`). */
static bool use_takes_address(const Program *p, const VarUse *u) {
  const char *text = p->tu->file->text;
  return (u->addr_taken || u->decays || xf_unary_before(text, u->loc.offset, '&')) &&
         !address_of_pointee(text, u->var, u->loc.offset);
}

/* `f(a, &lo, &hi);`: a statement that is one call and assigns nothing, so an address in its
 * arguments reaches only the callee (an out-parameter) and is gone when it returns. */
static bool call_statement(const Program *p, const Stmt *s) {
  if (s->kind != ST_EXPR || s->ncalls < 1) return false;
  const char *t = p->tu->file->text;
  size_t at = s->begin;
  while (at < s->end && isspace((unsigned char)t[at])) at++;
  if (at >= s->end || !(isalpha((unsigned char)t[at]) || t[at] == '_')) return false;
  while (at < s->end && (isalnum((unsigned char)t[at]) || t[at] == '_')) at++;
  size_t open, close, semi[2] = {0, 0};
  if (!xf_paren_at(t, s->end, at, &open, &close, semi)) return false;
  for (at = close + 1; at < s->end && (isspace((unsigned char)t[at]) || t[at] == ';'); at++) {}
  if (at != s->end) return false; /* `f(&v) + 1;`, `f(&v)(x);` */
  for (int i = 0; i < s->nuses; i++)
    if (s->uses[i].write && !use_takes_address(p, &s->uses[i])) return false; /* `f(q = &v)` */
  return true;
}

/* May a pointer to v reach the inner loop or After? Every `&v` below s counts, except in the
 * arguments of a call statement outside the inner loop. */
static bool subtree_takes_address(const Program *p, const Stmt *s, const Stmt *inner, bool in_inner, const CVar *v) {
  in_inner |= s == inner;
  bool out_param = !in_inner && call_statement(p, s);
  for (int i = 0; i < s->nuses; i++)
    if (s->uses[i].var == v && use_takes_address(p, &s->uses[i]) && !out_param) return true;
  for (int i = 0; i < s->nkids; i++)
    if (subtree_takes_address(p, s->kids[i], inner, in_inner, v)) return true;
  return false;
}

/* `static const int w[4] = {...};` declared in Before: static storage the parent and the
 * executors can each declare (the same values), so no context slot. Every variable of the
 * declaration must be such a table. */
static bool static_table(const Stmt *decl) {
  for (int d = 0; d < decl->ndecls; d++) {
    const CVar *v = decl->decls[d];
    bool is_const = v->is_const || (v->tkind == VT_ARRAY && !strncmp(v->type, "const ", 6));
    if (!v->is_static || !is_const || v->holds_pointer || v->is_fn_pointer ||
        (v->type_ref && v->type_ref->kind == NR_LOCAL_TYPE))
      return false;
  }
  return decl->kind == ST_DECL;
}

/* A goto or a label of one (not case/default) below s. */
static bool has_label(const Program *p, const Stmt *s) {
  if (s->kind == ST_GOTO) return true;
  if (s->kind == ST_LABEL) {
    const char *t = p->tu->file->text + s->begin;
    size_t w = 0;
    while (isalnum((unsigned char)t[w]) || t[w] == '_') w++;
    if (!(w == 4 && !strncmp(t, "case", 4)) && !(w == 7 && !strncmp(t, "default", 7))) return true;
  }
  for (int i = 0; i < s->nkids; i++)
    if (has_label(p, s->kids[i])) return true;
  return false;
}

/* The parent keeps one context per thread in shared memory (gt_cq in
 * codegen/emit_nested.c): 48 KB of static shared memory at most, a little
 * kept for the counters. */
#define GTCC_CDP_SHARED_MAX (46 * 1024)

/* sizeof(K_ctx) as the device compiler lays it out (codegen/emit_nested.c,
 * emit_ctx_struct): the fixed fields, the outer index (one per collapsed loop), one field per saved
 * local (scalars and pointers, each aligned to its size), an int pad, the
 * whole aligned to 8. It once rounded every field to 8 bytes and kept loops
 * with many small locals sequential that fit. */
static long long ctx_field(long long at, long long size) {
  long long align = size >= 8 ? 8 : size > 0 ? size : 8;
  return (at + align - 1) / align * align + (size > 0 ? size : 8);
}

static long long ctx_bytes(const Kernel *k, const Nested *n) {
  long long b = 3 * 8 * n->icollapse + 2 * 4; /* the bounds of each collapsed inner loop */
  for (int l = 0; l < k->collapse; l++) b = ctx_field(b, k->loops[l]->iv->elem_size); /* the outer indices */
  for (int i = 0; i < n->nctx; i++) {
    const CVar *v = n->ctx[i];
    /* a pointer to rows goes as a view: the pointer and the row sizes; a struct may be aligned to 16 */
    b = ctx_field(b, v->tkind == VT_POINTER ? 8 : v->tkind == VT_VLA_POINTER ? 8 * (1 + v->ndims) : v->elem_size);
    if (v->tkind == VT_RECORD) b += 8;
  }
  b = ctx_field(b, 4);
  return (b + 7) / 8 * 8;
}

/* Finds the inner loops: each a statement of the outer body, the only statement of an if's then
 * branch there, or one statement of a block there (or of an if's then block), one stage each,
 * chained from n. Returns the number. */
static int find_stages(Stmt *body, Nested *n) {
  Nested *last = NULL;
  int nstages = 0;
  n->inner_index = -1;
  for (int i = 0; i < body->nkids; i++) {
    Stmt *scope = NULL;
    int scope_at = -1;
    Stmt *guarded = guarded_loop(body->kids[i]), *scoped = guarded ? NULL : scoped_loop(body->kids[i], &scope, &scope_at);
    if (!(body->kids[i]->kind == ST_FOR && parallel_loop_dir(body->kids[i])) && !guarded && !scoped) continue;
    Nested *s = n;
    if (last) {
      s = xcalloc(1, sizeof *s);
      last->next = s;
    }
    s->stage = last ? last->stage + 1 : 1;
    s->inner_index = i;
    s->inner = guarded ? guarded : scoped ? scoped : body->kids[i];
    s->guard = guarded ? body->kids[i] : NULL;
    s->block = scoped ? body->kids[i] : NULL;
    s->scope = scoped ? scope : NULL;
    s->scope_index = scoped ? scope_at : -1;
    s->inner_dir = (Directive *)parallel_loop_dir(s->inner);
    s->icollapse = 1;
    s->iloops[0] = s->inner;
    s->ibody = s->inner->kids[0];
    last = s;
    nstages++;
  }
  return nstages;
}

/* Does a statement below s use a variable named like v, other than v and other than one declared
 * in [lo, hi)? */
static bool uses_namesake(const Stmt *s, const CVar *v, unsigned lo, unsigned hi) {
  for (int i = 0; i < s->nuses; i++) {
    const CVar *u = s->uses[i].var;
    if (u != v && !strcmp(u->name, v->name) && !(u->decl_offset >= lo && u->decl_offset < hi)) return true;
  }
  for (int i = 0; i < s->nkids; i++)
    if (uses_namesake(s->kids[i], v, lo, hi)) return true;
  return false;
}

/* v, a local of the block before stage n's inner loop: where a tier runs the loop, it is declared
 * beside the outer index and Before's locals, and After follows. Another variable of its name
 * among those, or one that After reads from outside After, would be hidden or declared twice. */
static bool block_local_clashes(const Stmt *body, const Kernel *k, const Nested *n, const CVar *v, CVar **before,
                                int nouter) {
  for (int l = 0; l < k->collapse; l++)
    if (!strcmp(k->loops[l]->iv->name, v->name)) return true;
  for (int b = 0; b < nouter; b++)
    if (!strcmp(before[b]->name, v->name)) return true;
  for (int a = n->inner_index + 1; a < body->nkids; a++)
    if (uses_namesake(body->kids[a], v, xf_nested_holder(n)->end, body->end)) return true;
  return false;
}

/* Stage n's locals: which Before locals (declared before its inner loop, in the outer body)
 * its context saves, its reductions, privates and static tables; returns a reason on failure. */
static const char *stage_locals(Program *p, Kernel *k, Nested *n) {
  Stmt *body = k->body;
  CVar **before = NULL;
  const Stmt **decl_of = NULL;
  int nbefore = 0, cap = 0, dcap = 0, ndecl = 0;
  for (int i = 0; i < n->inner_index; i++)
    for (int d = 0; d < body->kids[i]->ndecls; d++) {
      VEC_PUSH(before, nbefore, cap, body->kids[i]->decls[d]);
      VEC_PUSH(decl_of, ndecl, dcap, body->kids[i]);
    }
  const int nouter = nbefore; /* then the block's locals before the loop */
  for (int i = 0; n->block && i < n->scope_index; i++)
    for (int d = 0; d < n->scope->kids[i]->ndecls; d++) {
      VEC_PUSH(before, nbefore, cap, n->scope->kids[i]->decls[d]);
      VEC_PUSH(decl_of, ndecl, dcap, n->scope->kids[i]);
    }
  const char *why = inner_clauses(p, n, before, nbefore);
  for (int b = 0; !why && b < nbefore; b++) {
    CVar *v = before[b];
    if (b >= nouter && block_local_clashes(body, k, n, v, before, nouter)) {
      why = "a local declared in the block around the inner loop has the name of the outer index, of a local "
            "before the block or of a variable that the statements after the block use (where a tier runs the "
            "loop, the block's locals are declared beside those)";
      break;
    }
    if (is_inner_index(n, v)) { /* `int j; ... for (j = ...)`: the tiers declare j only in the inner loop */
      if (used_after(body, n, v))
        why = "the inner loop's index is declared before the loop and used after it (the next-level kernel "
              "has the index only inside the inner loop)";
      continue;
    }
    if (v->is_static) {
      if (!inner_or_after(body, n, v)) continue;
      if (!static_table(decl_of[b])) {
        why = "a static local declared before the inner loop and used in it or after it is not a constant "
              "table (the parent kernel and the next-level kernel would each have a copy)";
        break;
      }
      bool listed = false;
      for (int t = 0; t < n->nstatics; t++) listed |= n->statics[t] == decl_of[b];
      if (!listed) VEC_PUSH(n->statics, n->nstatics, n->statics_cap, decl_of[b]);
      continue;
    }
    if (subtree_takes_address(p, body, n->inner, false, v)) { /* a pointer to it may reach the inner loop or After */
      why = "the address of a local declared before the inner loop is taken (the next-level kernel cannot reach "
            "the parent thread's locals)";
      break;
    }
    if (!inner_or_after(body, n, v)) continue;
    bool member_written = v->tkind == VT_RECORD && xf_find_use(n->inner->kids[0], v, XF_USE_ELEM_WRITE);
    if (!is_reduction(n, v) && !is_private(n, v) && (member_written || xf_subtree_uses(n->inner->kids[0], v, true, NULL)))
      why = "a local declared before the inner loop is assigned inside it without a reduction clause";
    else if (v->tkind != VT_SCALAR && v->tkind != VT_POINTER && !v->is_fn_pointer && !constant_rows(v) &&
             !context_record(v))
      why = "a local saved in the context is not a scalar, pointer or struct";
    else if (v->tkind == VT_RECORD && v->const_member)
      why = "a struct saved in the context has a const member (the context is assigned as a whole)";
    else if (strstr(v->type, "long double"))
      why = "a local saved in the context is a long double (the device has no such type)";
    else if (!is_private(n, v) || used_after(body, n, v)) /* private to the inner loop: After sees Before's value */
      VEC_PUSH(n->ctx, n->nctx, n->ctx_cap, v);
  }
  free(before), free(decl_of);
  return why;
}

static void add_after_decl(Nested *n, const CVar *v) {
  for (int i = 0; i < n->nafter_decls; i++)
    if (n->after_decls[i] == v) return;
  VEC_PUSH(n->after_decls, n->nafter_decls, n->after_decls_cap, v);
}

/* What After of stage n declares for itself: the index of a loop of After declared before After
 * and not saved (loop_index: the loop sets it), and a later stage's private from outside the
 * region (`long t;`, private(t)), which the thread running that loop here needs a copy of. */
static void after_loop_decl(Nested *n, const Stmt *s, unsigned after) {
  const CVar *iv = loop_index(s);
  if (!iv) return;
  bool saved = false;
  for (int i = 0; i < n->nctx; i++) saved |= n->ctx[i] == iv;
  if (iv->decl_offset < after && !saved) add_after_decl(n, iv);
}

static void find_after_decls(const Stmt *body, Nested *n) {
  for (int b = n->inner_index + 1; b < body->nkids; b++) after_loop_decl(n, body->kids[b], xf_nested_holder(n)->end);
  for (int b = n->scope_index + 1; n->block && b < n->scope->nkids; b++) after_loop_decl(n, n->scope->kids[b], n->inner->end);
  for (const Nested *t = n->next; t; t = t->next) {
    for (int i = 0; i < t->nprivs; i++)
      if (t->privs[i]->decl_offset < body->begin) add_after_decl(n, t->privs[i]);
    /* a later stage's loops (in a block, under an if, collapsed ones) over indices declared before After */
    for (int l = 0; l < t->icollapse; l++) after_loop_decl(n, t->iloops[l], xf_nested_holder(n)->end);
  }
}

/* The stage whose inner loop has index v, or NULL. */
static const Nested *stage_of_index(const Nested *first, const CVar *v) {
  for (const Nested *s = first; s; s = s->next)
    if (is_inner_index(s, v)) return s;
  return NULL;
}

/* Decides the shape; on success k->shape = KS_NESTED. */
static const char *try_nested(Program *p, Kernel *k, Nested *n) {
  Stmt *body = k->body;
  if (body->kind != ST_COMPOUND) return "the outer loop body is not a block";
  int nstages = find_stages(body, n);
  if (!nstages)
    return "the inner parallel loop is not a statement of the outer loop body itself, nor of a block or an if's "
           "then branch there";
  /* A parallel loop inside a stage's inner loop (gang / worker / vector nests) runs sequentially
   * in each inner iteration: it is part of the inner body. */
  int deeper = 0;
  for (int i = 0; i < k->nseq_inner; i++)
    for (const Nested *s = n; s; s = s->next)
      if (k->seq_inner[i] != s->inner && k->seq_inner[i]->begin >= s->inner->begin && k->seq_inner[i]->end <= s->inner->end) {
        deeper++;
        break;
      }
  if (k->nseq_inner != nstages + deeper)
    return "the outer loop body holds several inner parallel loops, not all of them statements of the body "
           "itself or of a block there (one in an else branch or in another loop, or two in one block)";
  for (Nested *s = n; s; s = s->next) {
    if (!s->inner->loop->canonical) return "the inner loop is not in canonical form";
    if (!xf_check_jumps(p, s->inner->kids[0], "the body of a parallel loop", true))
      return "a jump leaves the inner loop's body";
    inner_collapse(s);
  }
  if (has_label(p, body)) return "the outer loop body has a label (the tiers hold several copies of the inner loop and After)";
  /* The outer loop's reductions: each tier that runs After adds to its thread's copy (the
   * next-level kernel's blocks to one slot, by an atomic compare-and-swap of 4 or 8 bytes). */
  for (int i = 0; i < k->ncaps; i++) {
    const CVar *v = k->caps[i].var;
    if (k->caps[i].kind != CAP_REDUCTION) continue;
    if (v->elem_size != 4 && v->elem_size != 8)
      return "a reduction variable of the outer loop is not of 4 or 8 bytes (the next-level kernel combines "
             "them by an atomic compare-and-swap)";
    for (const Nested *s = n; s; s = s->next)
      if (xf_subtree_uses(s->inner, v, false, NULL)) return "a reduction variable of the outer loop is used in the inner loop";
  }
  const char *why;
  for (Nested *s = n; s; s = s->next)
    if ((why = stage_locals(p, k, s))) return why;
  /* Values captured from outside are firstprivate per outer iteration:
   * one assigned in the outer body would need a per-context copy (the
   * warp and NLK tiers see the launch value). Private ones are not
   * declared in the executors. */
  for (int i = 0; i < k->ncaps; i++) {
    Capture *c = &k->caps[i];
    const Nested *own = stage_of_index(n, c->var);
    if ((c->kind == CAP_VALUE || c->kind == CAP_PRIVATE) && own) { /* `int j;` before the region: the loop makes it private */
      if (outside_inner(body, own, c->var))
        return "the inner loop's index is declared outside the region and used outside the inner loop (the "
               "next-level kernel has the index only inside the inner loop)";
      c->kind = CAP_PRIVATE; /* not passed in: the host's j may be unset */
      continue;
    }
    bool private_of_one = false; /* `long t;` before the region, private(t) on the inner loop: the tiers declare it */
    for (const Nested *s = n; s; s = s->next) private_of_one |= is_private(s, c->var) && !outside_inner(body, s, c->var);
    if (c->kind == CAP_VALUE && private_of_one) {
      c->kind = CAP_PRIVATE;
      continue;
    }
    if (c->kind == CAP_VALUE && xf_subtree_uses(body, c->var, true, NULL))
      return "a variable from outside the region (firstprivate) is assigned in the outer loop body";
    if (c->kind == CAP_PRIVATE && inner_or_after(body, n, c->var))
      return "a private variable of the outer loop is used by the inner loop or after it";
  }
  if (ctx_bytes(k, n) * (long long)k->block > GTCC_CDP_SHARED_MAX)
    return "the context saved per inner loop is too large for the parent block's shared memory (fewer "
           "locals before the inner loop, or a smaller vector_length)";
  for (Nested *s = n; s; s = s->next) find_after_decls(body, s);
  return NULL;
}

void xf_free_nested(Nested *n) {
  while (n) {
    Nested *next = n->next;
    free(n->ctx), free(n->reds), free(n->privs), free(n->streamed), free(n->statics), free(n->after_decls), free(n);
    n = next;
  }
}

void xf_nested(Program *p, Kernel *k) {
  if (k->nseq_inner == 0) return;
  CdpMode mode = kernel_mode(p, k);
  if (mode == CDP_OFF) {
    k->flat_reason = "CollectiveDP is off (--cdp=off or gtcc_cdp(off))";
    return;
  }
  Nested *n = xcalloc(1, sizeof *n);
  const char *why = try_nested(p, k, n);
  if (why) {
    k->flat_reason = why;
    xf_free_nested(n);
    return;
  }
  n->mode = mode;
  long long t = p->opts.cdp_threshold >= 0 ? p->opts.cdp_threshold : DEFAULT_THRESHOLD;
  long long w = p->opts.cdp_warp_threshold >= 0 ? p->opts.cdp_warp_threshold : DEFAULT_WARP_THRESHOLD;
  n->threshold = clause_number(k, CL_GTCC_THRESHOLD, t);
  n->warp_threshold = w < n->threshold ? w : n->threshold;
  /* the warp-flat tier counts a warp's 32 short loops in an int */
  if (n->warp_threshold > MAX_WARP_THRESHOLD) n->warp_threshold = MAX_WARP_THRESHOLD;
  n->chunk = DEFAULT_CHUNK;
  for (Nested *s = n->next; s; s = s->next) /* later stages: one thread runs short loops, the NLK the rest */
    s->mode = mode, s->warp_threshold = s->threshold = n->warp_threshold, s->chunk = n->chunk;
  /* collapsed: a[j] is read once per inner loop below, not once in all */
  if (n->icollapse == 1 && bounds_follow_outer(k, n)) find_streamed(k, n, n->ibody);
  k->nested = n;
  k->shape = KS_NESTED;
}
