/* CollectiveDP kernels for `outer { Before; inner parallel loop; After }`
 * (transform/nested.c decided the shape). Emitted per region:
 *   - a context struct: outer index, inner bounds, the Before locals;
 *   - an executor, run by a warp or a block over (part of) one context's
 *     inner loop, with the reduction and After;
 *   - the next-level kernel (NLK): one block per buffered work item;
 *   - the parent kernel: warp-uniform grid-stride over the outer loop; each
 *     lane runs Before, then the inner loop itself (short), or the warp runs
 *     it together (medium), or it saves a context for the NLK (long);
 *   - the launch stub, whose host interface is the flat kernel's.
 * docs/collectivedp.md explains the tiers and the launch variants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg_util.h"
#include "../frontend/cxx_fixes.h"

/* The type of v without a top-level const (context fields are assigned). */
static char *field_type(const CVar *v) {
  char *r = xstrdup(v->type);
  size_t n = strlen(r);
  if (strchr(r, '*')) { /* T *const restrict: the pointer's own qualifiers go */
    cg_blank_pointer_qualifiers(r);
    for (n = strlen(r); n > 0 && r[n - 1] == ' '; n--) r[n - 1] = '\0';
  } else if (n > 5 && !strcmp(r + n - 5, "const") && r[n - 6] == ' ') { /* T const */
    r[n - 6] = '\0';
  } else if (!strncmp(r, "const ", 6)) { /* const T */
    memmove(r, r + 6, n - 5);
  }
  return r;
}

/* A context field, or its copy in an executor: a pointer to rows of
 * constant size is held as a view (C++ spells no `T (*)[N] name` from the
 * type's text), which converts back where C's pointer type is needed; a
 * function pointer's type is named through gtrt_type. */
static char *ctx_decl(const CVar *v) {
  if (v->tkind == VT_VLA_POINTER) return cg_pointer_decl(v, v->name);
  char *t = field_type(v), *r = xasprintf(v->is_fn_pointer ? "gtrt_type<%s> %s" : "%s %s", t, v->name);
  free(t);
  return r;
}

/* The context field of collapsed loop l's index: gt_iv, gt_iv1, gt_iv2. */
static void iv_field(char field[16], int l) {
  if (l) snprintf(field, 16, "gt_iv%d", l);
  else strcpy(field, "gt_iv");
}

/* Stage n's suffix of its struct, kernels and buffers: "" for the first, "_2", "_3", ... */
static const char *stage_sfx(const Nested *n, char buf[16]) {
  if (n->stage > 1) snprintf(buf, 16, "_%d", n->stage);
  else buf[0] = '\0';
  return buf;
}

/* Resident threads per SM the kernels must fit (of 2048), which caps their
 * registers: the parent 1280 (51 registers), the NLK 1024 (64). Measured
 * in docs/collectivedp.md: the parent's warp tiers want the extra warps
 * (uniform rows +11 %), the NLK's long loops the registers. */
enum { PARENT_THREADS_PER_SM = 1280, NLK_THREADS_PER_SM = 1024 };

/* sm_90 keeps at most 32 blocks on an SM: a larger minimum (blocks of 32 threads) only makes ptxas warn */
enum { MAX_BLOCKS_PER_SM = 32 };

static int min_blocks(const Kernel *k, int threads) {
  int b = k->block >= threads ? 1 : threads / k->block;
  return b > MAX_BLOCKS_PER_SM ? MAX_BLOCKS_PER_SM : b;
}

/* The minimum resident blocks of a kernel's __launch_bounds__, as a macro
 * NAME_minb: the user's -DMACRO=N where given, else enough blocks for
 * threads per SM. Per kernel, since kernels of one file may differ in block
 * size. */
static void emit_min_blocks(StrBuf *sb, const Kernel *k, const char *macro, const char *what, int threads) {
  sb_printf(sb, "#ifdef %s\n#define %s_%s_minb %s\n#else\n#define %s_%s_minb %d\n#endif\n", macro, k->name, what, macro,
            k->name, what, min_blocks(k, threads));
}

/* The inner loop's step as the executors multiply by it: a constant step
 * (the usual `j++`) is printed as a literal so that nvcc folds it, instead
 * of a 64-bit multiply by the context's gt_ist per iteration (ctx NULL: the
 * parent's local gt_ist). */
static void print_inner_step(StrBuf *sb, const ForLoop *in, const char *ctx, const char *sfx) {
  if (in->step_is_const) sb_printf(sb, "%lldLL", in->step_value);
  else if (ctx) sb_printf(sb, "%s.gt_ist%s", ctx, sfx);
  else sb_printf(sb, "gt_ist%s", sfx);
}

/* The suffix of collapsed inner loop l's bounds (gt_ilb, gt_ilb1, gt_ilb2; gt_ist..., gt_itc...). */
static const char *bound_sfx(int l, char buf[8]) {
  if (l) snprintf(buf, 8, "%d", l % 10); /* l < 3 */
  else buf[0] = '\0';
  return buf;
}

/* Declares the inner index (with an inner collapse, each collapsed loop's) of flat inner iteration
 * `flat`, the innermost loop's varying fastest (one division per loop). ctx: the context the bounds
 * come from ("gt_ctx"), or NULL for the parent's locals. */
static void emit_inner_indices(StrBuf *sb, const Nested *n, const char *ctx, const char *flat, const char *indent) {
  const char *dot = ctx ? "." : "", *from = ctx ? ctx : "";
  if (n->icollapse > 1) sb_printf(sb, "%slong long gt_fq = %s;\n", indent, flat);
  for (int l = n->icollapse - 1; l >= 0; l--) {
    const ForLoop *in = n->iloops[l]->loop;
    char sx[8];
    bound_sfx(l, sx);
    sb_printf(sb, "%s%s %s = (%s)(%s%sgt_ilb%s + ", indent, in->iv->type, in->iv->name, in->iv->type, from, dot, sx);
    if (n->icollapse == 1) sb_printf(sb, "%s * ", flat);
    else if (l) sb_printf(sb, "(gt_fq %% %s%sgt_itc%s) * ", from, dot, sx);
    else sb_puts(sb, "gt_fq * ");
    print_inner_step(sb, in, ctx, sx);
    sb_printf(sb, ");\n%s(void)%s; /* a body need not use it */\n", indent, in->iv->name);
    if (l) sb_printf(sb, "%sgt_fq /= %s%sgt_itc%s;\n", indent, from, dot, sx);
  }
}

/* Copies stage n's inner bounds into context variable `var`. */
static void emit_ctx_bounds(StrBuf *sb, const Nested *n, const char *var, const char *indent) {
  for (int l = 0; l < n->icollapse; l++) {
    char sx[8];
    bound_sfx(l, sx);
    sb_printf(sb, "%s%s.gt_ilb%s = gt_ilb%s; %s.gt_ist%s = gt_ist%s; %s.gt_itc%s = gt_itc%s;\n", indent, var, sx, sx,
              var, sx, sx, var, sx, sx);
  }
}

/* The inner index has the name of the outer index or of a context local
 * (which the warp-flat tier declares in the same scope). */
static bool inner_iv_clashes(const Kernel *k) {
  const Nested *n = k->nested;
  for (int c = 0; c < n->icollapse; c++) {
    const char *name = n->iloops[c]->loop->iv->name;
    for (int l = 0; l < k->collapse; l++)
      if (!strcmp(name, k->loops[l]->iv->name)) return true;
    for (int i = 0; i < n->nctx; i++)
      if (!strcmp(name, n->ctx[i]->name)) return true;
  }
  return false;
}

/* Does a statement of the outer body before the inner loop use v? */
static bool before_uses(const Stmt *body, const Stmt *inner, const CVar *v) {
  for (int i = 0; i < body->nkids && body->kids[i]->begin < inner->begin; i++)
    if (xf_subtree_uses(body->kids[i], v, false, NULL)) return true;
  return false;
}

/* The inner loop's private variables (scalars and pointers: nested.c), a
 * copy per iteration in every tier that runs the inner loop. */
static void inner_privates(StrBuf *sb, const Nested *n, const char *indent) {
  for (int i = 0; i < n->nprivs; i++) sb_printf(sb, "%s%s %s;\n", indent, n->privs[i]->type, n->privs[i]->name);
}

static bool is_red(const Nested *n, const CVar *v) {
  for (int i = 0; i < n->nreds; i++)
    if (n->reds[i].var == v) return true;
  return false;
}

static void emit_ctx_struct(StrBuf *sb, const Kernel *k, const Nested *n) {
  char sx[16];
  sb_printf(sb, "struct %s%s_ctx {\n  long long gt_ilb, gt_ist, gt_itc", k->name, stage_sfx(n, sx));
  for (int l = 1; l < n->icollapse; l++) sb_printf(sb, ", gt_ilb%d, gt_ist%d, gt_itc%d", l, l, l); /* gt_itc: all of them */
  sb_puts(sb, ";\n  unsigned gt_first, gt_nchunks;\n");
  for (int l = 0; l < k->collapse; l++) { /* the outer index; with collapse, one per loop (gt_iv, gt_iv1, ...) */
    char *t = field_type(k->loops[l]->iv);
    char field[16];
    iv_field(field, l);
    sb_printf(sb, "  %s %s;\n", t, field);
    free(t);
  }
  for (int i = 0; i < n->nctx; i++) {
    char *t = ctx_decl(n->ctx[i]);
    sb_printf(sb, "  %s;\n", t);
    free(t);
  }
  sb_puts(sb, "  int gt_pad;\n};\n\n");
}

/* Capture parameters / arguments shared by the parent, the NLK and the executor. */
static void capture_params(StrBuf *sb, const Kernel *k) {
  for (int i = 0; i < k->ncaps; i++) {
    const Capture *c = &k->caps[i];
    char *decl = NULL;
    if (c->kind == CAP_VALUE) decl = cg_value_decl(c->var, c->var->name);
    else if (c->kind == CAP_MAPPED || c->kind == CAP_DEVICEPTR) decl = cg_pointer_decl(c->var, c->var->name);
    else if (c->kind == CAP_SHARED) decl = cg_shared_param(c->var);
    else continue;
    sb_printf(sb, ", %s", decl);
    free(decl);
  }
}

static void capture_args(StrBuf *sb, const Kernel *k, const char *prefix) {
  for (int i = 0; i < k->ncaps; i++) {
    const Capture *c = &k->caps[i];
    if (c->kind == CAP_VALUE) sb_printf(sb, ", %s", c->var->name);
    else if (c->kind == CAP_MAPPED || c->kind == CAP_DEVICEPTR) sb_printf(sb, ", %s%s", prefix, c->var->name);
    else if (c->kind == CAP_SHARED) sb_printf(sb, ", %s%s", *prefix ? prefix : "gt_sp_", c->var->name);
  }
}

/* Buffers of the context machinery, as parameters and as arguments. */
/* The outer loop's reductions: a copy per parent thread (the block's sum
 * in gt_opart_X[block]) and one slot the NLK's blocks combine into
 * (gt_oslot_X); the stub adds both to the host's value. */
static void cdp_params(StrBuf *sb, const Kernel *k) {
  sb_printf(sb, ", %s_ctx *gt_ctxs, unsigned *gt_items, unsigned *gt_remaining, unsigned *gt_counts", k->name);
  for (int r = 0; r < k->nested->nreds; r++)
    sb_printf(sb, ", %s *gt_part_%s", k->nested->reds[r].var->type, k->nested->reds[r].var->name);
  /* later stages: their buffers and capacities (any stage's After may save a context for them) */
  for (const Nested *n = k->nested->next; n; n = n->next) {
    char sx[16];
    stage_sfx(n, sx);
    sb_printf(sb, ", %s%s_ctx *gt_ctxs%s, unsigned *gt_items%s, unsigned *gt_remaining%s, unsigned *gt_counts%s, "
                  "unsigned gt_ctx_cap%s, unsigned gt_item_cap%s",
              k->name, sx, sx, sx, sx, sx, sx, sx);
    for (int r = 0; r < n->nreds; r++) sb_printf(sb, ", %s *gt_part%s_%s", n->reds[r].var->type, sx, n->reds[r].var->name);
  }
  for (int i = 0; i < k->ncaps; i++)
    if (k->caps[i].kind == CAP_REDUCTION)
      sb_printf(sb, ", %s *gt_opart_%s, %s *gt_oslot_%s", k->caps[i].var->type, k->caps[i].var->name,
                k->caps[i].var->type, k->caps[i].var->name);
}

static void cdp_args(StrBuf *sb, const Kernel *k) {
  sb_puts(sb, ", gt_ctxs, gt_items, gt_remaining, gt_counts");
  for (int r = 0; r < k->nested->nreds; r++) sb_printf(sb, ", gt_part_%s", k->nested->reds[r].var->name);
  for (const Nested *n = k->nested->next; n; n = n->next) {
    char sx[16];
    stage_sfx(n, sx);
    sb_printf(sb, ", gt_ctxs%s, gt_items%s, gt_remaining%s, gt_counts%s, gt_ctx_cap%s, gt_item_cap%s", sx, sx, sx, sx, sx, sx);
    for (int r = 0; r < n->nreds; r++) sb_printf(sb, ", gt_part%s_%s", sx, n->reds[r].var->name);
  }
  for (int i = 0; i < k->ncaps; i++)
    if (k->caps[i].kind == CAP_REDUCTION) sb_printf(sb, ", gt_opart_%s, gt_oslot_%s", k->caps[i].var->name, k->caps[i].var->name);
}

/* The executor's accumulators of the outer reductions, which its After adds
 * to: `&X` (the parent thread's copy) or `&gt_oacc_X` (the NLK block's). */
static void outer_acc_params(StrBuf *sb, const Kernel *k) {
  for (int i = 0; i < k->ncaps; i++)
    if (k->caps[i].kind == CAP_REDUCTION) sb_printf(sb, ", %s *gt_oacc_%s", k->caps[i].var->type, k->caps[i].var->name);
}

static void outer_acc_args(StrBuf *sb, const Kernel *k, const char *prefix) {
  for (int i = 0; i < k->ncaps; i++)
    if (k->caps[i].kind == CAP_REDUCTION) sb_printf(sb, ", %s%s", prefix, k->caps[i].var->name);
}

/* `T name = Op::identity<T>();` for each outer reduction, named prefix + variable. */
static void outer_acc_locals(StrBuf *sb, const Kernel *k, const char *indent, const char *prefix) {
  for (int i = 0; i < k->ncaps; i++) {
    const Capture *c = &k->caps[i];
    if (c->kind == CAP_REDUCTION)
      sb_printf(sb, "%s%s %s%s = %s::identity<%s>();\n", indent, c->var->type, prefix, c->var->name,
                cg_red_op(c->red_op), c->var->type);
  }
}

/* The guard of stage n (`if (c) inner-loop [else E]`): the thread evaluates c, and E when c is
 * false, once, into gt_take (gt_take_2, ... for later stages). */
static void emit_guard_take(StrBuf *sb, const Program *p, const Nested *n, const char *indent) {
  const Stmt *then = n->guard->kids[0];
  char sx[16];
  stage_sfx(n, sx);
  cg_line_directive(sb, p->tu, n->guard->loc.line);
  sb_printf(sb, "%sbool gt_take%s = false; ", indent, sx);
  cg_copy_source(sb, p->tu, n->guard->begin, then->begin);
  sb_printf(sb, "gt_take%s = true;", sx);
  cg_copy_source(sb, p->tu, then->end, n->guard->end);
  sb_putc(sb, '\n');
}

/* gt_ilb, gt_ist and gt_itc of stage n's inner loop; under a guard, no iterations and the bounds
 * unread when it is false. */
static void emit_trip_count(StrBuf *sb, const Nested *n, const char *indent) {
  for (int l = 0; l < n->icollapse; l++) {
    const ForLoop *in = n->iloops[l]->loop;
    /* with an inner collapse, gt_itc is the product; a loop's bounds are not read when a loop around
     * it has no iterations, as in the source */
    char sx[8], tc[8], take[32] = "";
    bound_sfx(l, sx);
    snprintf(tc, sizeof tc, "%s", l == 0 && n->icollapse > 1 ? "0" : sx);
    if (l) snprintf(take, sizeof take, "gt_itc%d > 0 ? ", l - 1);
    else if (n->guard) {
      char st[16];
      snprintf(take, sizeof take, "gt_take%s ? ", stage_sfx(n, st));
    }
    sb_printf(sb,
              "%sconst long long gt_ilb%s = %s(long long)(%s)%s, gt_ist%s = %s(long long)(%s)%s;\n"
              "%sconst long long gt_itc%s = %sgtrt_trip(gt_ilb%s, (long long)(%s), gt_ist%s, %s)%s;\n",
              indent, sx, take, in->lb.text, *take ? " : 0LL" : "", sx, take, in->step.text, *take ? " : 1LL" : "",
              indent, tc, take, sx, in->ub.text, sx, cg_rel_const(in->relop), *take ? " : 0LL" : "");
  }
  if (n->icollapse > 1) {
    sb_printf(sb, "%sconst long long gt_itc = gt_itc0", indent);
    for (int l = 1; l < n->icollapse; l++) sb_printf(sb, " * gt_itc%d", l);
    sb_puts(sb, ";\n");
  }
}

/* Where After of an earlier stage reaches stage t's inner loop (one thread runs it): a long
 * loop is saved for stage t's NLK, which runs it and the rest of the body, so this After stops
 * (break); a short one, or one that finds the buffer full, runs here in this thread. */
static void emit_stage_decision(StrBuf *sb, const Kernel *k, const Nested *t, const char *indent) {
  char sx[16], inner_indent[64];
  stage_sfx(t, sx);
  snprintf(inner_indent, sizeof inner_indent, "%s  ", indent);
  sb_printf(sb, "%s{ /* stage %d: a long inner loop goes to its next-level kernel, with the rest of the body */\n", indent,
            t->stage);
  emit_trip_count(sb, t, inner_indent);
  sb_printf(sb,
            "%s  unsigned gt_s_slot, gt_s_first;\n"
            "%s  const unsigned gt_nch = gt_itc > %lldLL ? gtrt_cdp_nchunks(gt_itc, GTCC_CDP_CHUNK, GTCC_CDP_MIN_CHUNK, GTCC_CDP_SPLIT) : 0u;\n"
            "%s  if (gt_nch && gtrt_cdp_reserve(__activemask(), gt_nch, gt_counts%s, gt_ctx_cap%s, gt_item_cap%s, &gt_s_slot, &gt_s_first)) {\n"
            "%s    %s%s_ctx gt_m;\n",
            indent, indent, t->threshold, indent, sx, sx, sx, indent, k->name, sx);
  char fill_indent[64];
  snprintf(fill_indent, sizeof fill_indent, "%s    ", indent);
  emit_ctx_bounds(sb, t, "gt_m", fill_indent);
  sb_printf(sb, "%s    gt_m.gt_first = gt_s_first; gt_m.gt_nchunks = gt_nch;\n", indent);
  for (int l = 0; l < k->collapse; l++) {
    char field[16];
    iv_field(field, l);
    sb_printf(sb, "%s    gt_m.%s = %s;\n", indent, field, k->loops[l]->iv->name);
  }
  for (int i = 0; i < t->nctx; i++) sb_printf(sb, "%s    gt_m.%s = %s;\n", indent, t->ctx[i]->name, t->ctx[i]->name);
  sb_printf(sb,
            "%s    gt_ctxs%s[gt_s_slot] = gt_m;\n"
            "%s    gt_remaining%s[gt_s_slot] = gt_nch;\n"
            "%s    for (unsigned gt_q = 0; gt_q < gt_nch; gt_q++) gt_items%s[gt_s_first + gt_q] = gt_s_slot;\n"
            "%s    break;\n%s  }\n%s}\n",
            indent, sx, indent, sx, indent, sx, indent, indent, indent);
}

/* After: the outer body's statements after stage n's inner loop, in a do-while(0) that the
 * source's `continue` (and a later stage's saved context) leaves. With block_rest, first the
 * statements after the loop in its block (`{ B; loop; A }`: the tiers run `{ A }`; the parent
 * thread copies the block's text itself). A later stage in a block is decided after its B. */
static void emit_after(StrBuf *sb, const Program *p, const Kernel *k, const Nested *n, const char *indent,
                       bool block_rest) {
  const Stmt *body = k->body;
  const unsigned after = xf_nested_holder(n)->end;
  if (n->nafter_decls) sb_printf(sb, "%s{\n", indent); /* loop indices and privates of its own (transform/nested.c) */
  for (int i = 0; i < n->nafter_decls; i++)
    sb_printf(sb, "%s%s %s;\n%s(void)%s;\n", indent, n->after_decls[i]->type, n->after_decls[i]->name, indent,
              n->after_decls[i]->name);
  sb_printf(sb, "%sdo {\n", indent);
  if (block_rest && n->block && n->scope_index + 1 < n->scope->nkids) { /* the block's condition held */
    cg_line_directive(sb, p->tu, n->scope->kids[n->scope_index + 1]->loc.line);
    sb_printf(sb, "%s{\n", indent);
    cg_copy_source(sb, p->tu, n->inner->end, n->scope->end - 1);
    sb_printf(sb, "\n%s}\n", indent);
  }
  if (n->inner_index + 1 < body->nkids) {
    unsigned at = after;
    for (const Nested *t = n->next; t; t = t->next) {
      cg_line_directive(sb, p->tu, srcfile_loc(p->tu->file, at).line);
      cg_copy_source(sb, p->tu, at, t->guard ? t->guard->begin : t->inner->begin);
      sb_putc(sb, '\n');
      if (t->guard) emit_guard_take(sb, p, t, indent); /* `if (c) L [else E]`: c and E run here */
      emit_stage_decision(sb, k, t, indent);
      if (t->guard) { /* the loop alone; the text goes on after the whole if */
        char sx[16];
        stage_sfx(t, sx);
        cg_line_directive(sb, p->tu, t->inner->loc.line);
        sb_printf(sb, "%sif (gt_take%s) {\n", indent, sx);
        cg_copy_source(sb, p->tu, t->inner->begin, t->inner->end);
        sb_printf(sb, "\n%s}\n", indent);
        at = t->guard->end;
      } else
        at = t->inner->begin;
    }
    cg_line_directive(sb, p->tu, srcfile_loc(p->tu->file, at).line);
    cg_copy_source(sb, p->tu, at, body->end - 1);
    sb_putc(sb, '\n');
  }
  sb_printf(sb, "%s} while (0);\n", indent);
  if (n->nafter_decls) sb_printf(sb, "%s}\n", indent);
}

/* Declarations of the context variables (outer index, Before locals) from
 * the context `cx`; reduction variables are left to the caller. */
static void ctx_locals(StrBuf *sb, const Program *p, const Kernel *k, const Nested *n, const char *cx, const char *indent) {
  for (int l = 0; l < k->collapse; l++) {
    const CVar *iv = k->loops[l]->iv;
    char field[16];
    iv_field(field, l);
    sb_printf(sb, "%s%s %s = %s.%s;\n%s(void)%s;\n", indent, iv->type, iv->name, cx, field, indent, iv->name);
  }
  for (int i = 0; i < n->nstatics; i++) { /* constant tables: declared again, not saved */
    sb_puts(sb, indent);
    cg_copy_source(sb, p->tu, n->statics[i]->begin, n->statics[i]->end);
    sb_putc(sb, '\n');
    for (int d = 0; d < n->statics[i]->ndecls; d++) sb_printf(sb, "%s(void)%s;\n", indent, n->statics[i]->decls[d]->name);
  }
  for (int i = 0; i < n->nctx; i++) {
    const CVar *v = n->ctx[i];
    if (is_red(n, v)) continue;
    if (v->has_value) /* a constant: `double t[K]` in the inner body needs it as one */
      sb_printf(sb, "%s%s %s = %lld;\n%s(void)%s;\n", indent, v->type, v->name, v->value, indent, v->name);
    else {
      /* the declared type (a const pointer stays const here), or the view of a pointer to rows */
      char *d = v->tkind == VT_VLA_POINTER ? ctx_decl(v)
                : xasprintf(v->is_fn_pointer ? "gtrt_type<%s> %s" : "%s %s", v->type, v->name);
      sb_printf(sb, "%s%s = %s.%s;\n%s(void)%s;\n", indent, d, cx, v->name, indent, v->name);
      free(d);
    }
  }
}

/* `T name = Op::identity<T>();` for reduction r, under the given name. */
static void red_identity(StrBuf *sb, const Nested *n, int r, const char *indent, const char *name) {
  sb_printf(sb, "%s%s %s = %s::identity<%s>();\n", indent, n->reds[r].var->type, name, cg_red_op(n->reds[r].op),
            n->reds[r].var->type);
}

/* The executor: threads t = 0..nt-1 of a warp (GT_WARP) or block run inner
 * iterations [lo, hi) of one context; the reduction goes through partials
 * when the context is split over several blocks, and the last one runs
 * After. */
static void emit_executor(StrBuf *sb, const Program *p, const Kernel *k, const Nested *n) {
  char sx[16];
  stage_sfx(n, sx);
  sb_printf(sb, "template <int GT_WARP>\n__device__ __forceinline__ void %s%s_exec(const %s%s_ctx &gt_ctx, unsigned gt_item, "
                "unsigned gt_slot, long long gt_lo, long long gt_hi",
            k->name, sx, k->name, sx);
  cdp_params(sb, k);
  capture_params(sb, k);
  outer_acc_params(sb, k);
  sb_puts(sb, ") {\n");
  cg_shared_aliases(sb, k, "  ");
  sb_puts(sb, "  { /* a scope below the parameters': the context's locals may shadow captures */\n"
              "  const int gt_t = GT_WARP ? (int)(threadIdx.x & 31u) : (int)threadIdx.x;\n"
              "  const int gt_nt = GT_WARP ? 32 : (int)blockDim.x;\n");
  ctx_locals(sb, p, k, n, "gt_ctx", "  ");
  for (int r = 0; r < n->nreds; r++) red_identity(sb, n, r, "  ", n->reds[r].var->name);
  /* unrolled: several independent loads in flight per thread; on the H200
   * 8 took giant rows from 1703 to 2836 GB/s (docs/collectivedp.md). The
   * parent's own inline loop is left to nvcc: a pragma there cost 10-20%. */
  sb_puts(sb, "  GTRT_UNROLL((GT_WARP ? GTCC_CDP_UNROLL : GTCC_CDP_NLK_UNROLL))\n  for (long long gt_j = gt_lo + gt_t; gt_j < gt_hi; gt_j += gt_nt) {\n");
  emit_inner_indices(sb, n, "gt_ctx", "gt_j", "    ");
  inner_privates(sb, n, "    ");
  cg_line_directive(sb, p->tu, n->ibody->loc.line);
  sb_puts(sb, "    ");
  cg_copy_source(sb, p->tu, n->ibody->begin, n->ibody->end);
  sb_puts(sb, "\n  }\n");
  for (int r = 0; r < n->nreds; r++) {
    const char *v = n->reds[r].var->name, *op = cg_red_op(n->reds[r].op);
    sb_printf(sb, "  %s = GT_WARP ? gtrt_warp_reduce<%s>(%s) : gtrt_block_reduce<%s>(%s);\n", v, op, v, op, v);
  }
  /* After (one thread) reads what every thread of the inner loop wrote */
  sb_puts(sb, "  if (GT_WARP) __syncwarp(); else __syncthreads();\n");
  sb_puts(sb, "  if (gt_t != 0) return;\n  bool gt_last = true;\n  if (gt_ctx.gt_nchunks > 1) {\n");
  for (int r = 0; r < n->nreds; r++)
    sb_printf(sb, "    gt_part%s_%s[gt_item] = %s;\n", sx, n->reds[r].var->name, n->reds[r].var->name);
  sb_printf(sb, "    __threadfence();\n    gt_last = atomicSub(&gt_remaining%s[gt_slot], 1u) == 1u;\n"
                "    if (gt_last) {\n      __threadfence();\n", sx);
  for (int r = 0; r < n->nreds; r++) {
    const CVar *v = n->reds[r].var;
    const char *op = cg_red_op(n->reds[r].op);
    sb_printf(sb, "      %s = %s::identity<%s>();\n", v->name, op, v->type);
    sb_printf(sb, "      for (unsigned gt_c = 0; gt_c < gt_ctx.gt_nchunks; gt_c++)\n"
                  "        %s = %s::apply(%s, ((volatile %s *)gt_part%s_%s)[gt_ctx.gt_first + gt_c]);\n",
              v->name, op, v->name, v->type, sx, v->name);
  }
  sb_puts(sb, "    }\n  }\n  if (!gt_last) return;\n");
  for (int r = 0; r < n->nreds; r++)
    sb_printf(sb, "  %s = %s::apply(gt_ctx.%s, %s);\n", n->reds[r].var->name, cg_red_op(n->reds[r].op),
              n->reds[r].var->name, n->reds[r].var->name);
  for (int i = 0; i < k->ncaps; i++) /* After adds to the caller's copy of an outer reduction */
    if (k->caps[i].kind == CAP_REDUCTION)
      sb_printf(sb, "  %s %s = *gt_oacc_%s;\n", k->caps[i].var->type, k->caps[i].var->name, k->caps[i].var->name);
  emit_after(sb, p, k, n, "  ", true);
  for (int i = 0; i < k->ncaps; i++)
    if (k->caps[i].kind == CAP_REDUCTION) sb_printf(sb, "  *gt_oacc_%s = %s;\n", k->caps[i].var->name, k->caps[i].var->name);
  sb_puts(sb, "  }\n}\n\n");
}

/* Executor call for work item gt_item of the buffer. */
static void emit_item_call(StrBuf *sb, const Kernel *k, const Nested *n, const char *warp, const char *indent,
                           const char *acc) {
  char sx[16];
  stage_sfx(n, sx);
  sb_printf(sb,
            "%sconst unsigned gt_slot = gt_items%s[gt_item];\n"
            "%sconst %s%s_ctx gt_c = gt_ctxs%s[gt_slot];\n"
            "%sconst long long gt_chunk = gtrt_cdp_chunk(gt_c.gt_itc, gt_c.gt_nchunks);\n"
            "%sconst long long gt_lo = (long long)(gt_item - gt_c.gt_first) * gt_chunk;\n"
            "%sconst long long gt_hi = gt_lo + gt_chunk < gt_c.gt_itc ? gt_lo + gt_chunk : gt_c.gt_itc;\n"
            "%s%s%s_exec<%s>(gt_c, gt_item, gt_slot, gt_lo, gt_hi",
            indent, sx, indent, k->name, sx, sx, indent, indent, indent, indent, k->name, sx, warp);
  cdp_args(sb, k);
  capture_args(sb, k, "");
  outer_acc_args(sb, k, acc);
  sb_puts(sb, ");\n");
}

/* NLK: blocks take the work items of segment gt_seg in turn. */
/* Stage n's NLK; a later stage's is launched by the host after the one before it, with the
 * item capacity of its own buffer (gt_nlk_cap). */
static void emit_nlk(StrBuf *sb, const Kernel *k, const Nested *n) {
  char sx[16], what[24];
  stage_sfx(n, sx);
  snprintf(what, sizeof what, "nlk%s", sx);
  emit_min_blocks(sb, k, "GTCC_CDP_NLK_MIN_BLOCKS", what, NLK_THREADS_PER_SM);
  sb_printf(sb, "__global__ void __launch_bounds__(%d, %s_%s_minb) %s%s_nlk(unsigned gt_seg, unsigned gt_%s",
            k->block, k->name, what, k->name, sx, n->stage > 1 ? "nlk_cap" : "item_cap");
  cdp_params(sb, k);
  capture_params(sb, k);
  sb_printf(sb, ") {\n"
                "  const unsigned gt_n = ::min(gt_counts%s[2 * gt_seg + 1], gt_%s);\n",
            sx, n->stage > 1 ? "nlk_cap" : "item_cap");
  outer_acc_locals(sb, k, "  ", "gt_oacc_");
  sb_printf(sb, "  for (unsigned gt_it = blockIdx.x; gt_it < gt_n; gt_it += gridDim.x) {\n"
                "    const unsigned gt_item = gt_seg * gt_%s + gt_it;\n",
            n->stage > 1 ? "nlk_cap" : "item_cap");
  emit_item_call(sb, k, n, "0", "    ", "&gt_oacc_");
  sb_puts(sb, "  }\n");
  for (int i = 0; i < k->ncaps; i++) /* thread 0 ran After: one swap per block */
    if (k->caps[i].kind == CAP_REDUCTION)
      sb_printf(sb, "  if (threadIdx.x == 0 && blockIdx.x < gt_n) gtrt_red_atomic<%s>(gt_oslot_%s, gt_oacc_%s);\n",
                cg_red_op(k->caps[i].red_op), k->caps[i].var->name, k->caps[i].var->name);
  sb_puts(sb, "}\n\n");
}

/* NLK launch from the device (tail, cta, warp variants). */
static void emit_device_launch(StrBuf *sb, const Kernel *k, const char *grid, const char *stream, const char *indent) {
  sb_printf(sb, "%s%s_nlk<<<%s, %d, 0, %s>>>(gt_seg, gt_item_cap", indent, k->name, grid, k->block, stream);
  cdp_args(sb, k);
  capture_args(sb, k, "");
  sb_puts(sb, ");\n");
}

/* The inner body's text with the streamed reads a[j] (transform/nested.c)
 * as streaming loads: in the warp-flat tier a warp reads them coalesced,
 * once, and evict-first keeps the gathered x[col[j]] in L2 (H200, uniform
 * rows of 16: 1068 -> 1215 GB/s; in the other tiers it cost, docs). */
static void copy_body_streamed(StrBuf *sb, const Program *p, const Nested *n) {
  const Stmt *b = n->ibody;
  /* edits applied with the C++ ones (and an atomic's): innermost at their places */
  TextFix *ed = xmalloc(sizeof *ed * (size_t)(2 * n->nstreamed + 1));
  int ned = 0;
  for (int i = 0; i < n->nstreamed; i++) {
    if (n->streamed[i]->begin < b->begin || n->streamed[i]->end > b->end) continue;
    ed[ned++] = (TextFix){n->streamed[i]->begin, n->streamed[i]->begin, (char *)"gtrt_ld_stream(&(", 2};
    ed[ned++] = (TextFix){n->streamed[i]->end, n->streamed[i]->end, (char *)"))", -2};
  }
  qsort(ed, (size_t)ned, sizeof *ed, fe_fix_order);
  cg_copy_source_edited(sb, p->tu, b->begin, b->end, ed, ned);
  free(ed);
}

/* The warp-flat tier: the short loops of the warp's lanes are flattened
 * (exclusive scan of their trip counts) and run 32 iterations at a time, so
 * consecutive lanes take consecutive iterations (coalesced when the loops
 * cover consecutive data, as CSR rows do). Each iteration finds its owner
 * by a binary search over the lanes' offsets, runs the body with the
 * owner's context, and a segmented reduction hands each owner its part;
 * then every lane runs After for its own outer iteration. */
static void emit_warp_flat(StrBuf *sb, const Program *p, const Kernel *k) {
  const Nested *n = k->nested;
  sb_puts(sb, "    __syncwarp();\n"
              "    if (__any_sync(0xffffffffu, gt_short)) {\n"
              "      int gt_so = gt_scnt;\n"
              "      for (int gt_o = 1; gt_o < 32; gt_o <<= 1) {\n"
              "        const int gt_y = __shfl_up_sync(0xffffffffu, gt_so, gt_o);\n"
              "        if (gt_lane >= gt_o) gt_so += gt_y;\n"
              "      }\n"
              "      const int gt_stot = __shfl_sync(0xffffffffu, gt_so, 31);\n"
              "      gt_so -= gt_scnt; /* exclusive offset of this lane's iterations */\n");
  for (int r = 0; r < n->nreds; r++) {
    char name[32];
    snprintf(name, sizeof name, "gt_acc%d", r);
    red_identity(sb, n, r, "      ", name);
  }
  sb_puts(sb, "#if GTCC_CDP_FLAT_UNROLL > 1\n      GTRT_UNROLL(GTCC_CDP_FLAT_UNROLL)\n#endif\n"
              "      for (int gt_sb = 0; gt_sb < gt_stot; gt_sb += 32) {\n"
              "        const int gt_f = gt_sb + gt_lane;\n"
              "        const int gt_r = gtrt_lane_owner(gt_so, gt_f);\n"
              "        const int gt_ro = __shfl_sync(0xffffffffu, gt_so, gt_r);\n");
  for (int r = 0; r < n->nreds; r++) {
    char name[32];
    snprintf(name, sizeof name, "gt_v%d", r);
    red_identity(sb, n, r, "        ", name);
  }
  sb_printf(sb, "        if (gt_f < gt_stot) {\n          const %s_ctx &gt_cx = gt_cq[gt_warp][gt_r];\n", k->name);
  ctx_locals(sb, p, k, n, "gt_cx", "          ");
  for (int r = 0; r < n->nreds; r++) red_identity(sb, n, r, "          ", n->reds[r].var->name);
  /* `for (int i = ...)` inside the outer `i` loop (or named like a local of Before): a scope of its own */
  bool clash = inner_iv_clashes(k);
  if (clash) sb_puts(sb, "          {\n");
  emit_inner_indices(sb, n, "gt_cx", "(long long)(gt_f - gt_ro)", "          ");
  sb_puts(sb, "          do {\n"); /* its own scope: a private may share a context local's name */
  inner_privates(sb, n, "            ");
  cg_line_directive(sb, p->tu, n->ibody->loc.line);
  sb_puts(sb, "            ");
  copy_body_streamed(sb, p, n);
  sb_puts(sb, "\n          } while (0);\n");
  if (clash) sb_puts(sb, "          }\n");
  for (int r = 0; r < n->nreds; r++) sb_printf(sb, "          gt_v%d = %s;\n", r, n->reds[r].var->name);
  sb_puts(sb, "        }\n");
  if (n->nreds)
    sb_puts(sb, "        /* where this lane's iterations start in this round: the head of its segment */\n"
                "        const int gt_h = gt_so > gt_sb ? gt_so - gt_sb : 0;\n"
                "        const bool gt_mine_here = gt_scnt > 0 && gt_so < gt_sb + 32 && gt_so + gt_scnt > gt_sb;\n");
  for (int r = 0; r < n->nreds; r++) {
    const char *op = cg_red_op(n->reds[r].op);
    sb_printf(sb,
              "        gt_v%d = gtrt_segment_reduce<%s>(gt_v%d, gt_f < gt_stot ? gt_r : -1);\n"
              "        {\n          const %s gt_part = gtrt_shfl_idx(gt_v%d, gt_h < 32 ? gt_h : 0);\n"
              "          if (gt_mine_here) gt_acc%d = %s::apply(gt_acc%d, gt_part);\n        }\n",
              r, op, r, n->reds[r].var->type, r, r, op, r);
  }
  sb_printf(sb, "      }\n      __syncwarp(); /* After reads what the other lanes wrote */\n"
                "      if (gt_short) {\n        const %s_ctx &gt_cx = gt_cq[gt_warp][gt_lane];\n", k->name);
  ctx_locals(sb, p, k, n, "gt_cx", "        ");
  for (int r = 0; r < n->nreds; r++)
    sb_printf(sb, "        %s %s = %s::apply(gt_cx.%s, gt_acc%d);\n", n->reds[r].var->type, n->reds[r].var->name,
              cg_red_op(n->reds[r].op), n->reds[r].var->name, r);
  emit_after(sb, p, k, n, "        ", true);
  sb_puts(sb, "      }\n    }\n");
}

static void emit_parent(StrBuf *sb, const Program *p, const Kernel *k) {
  const Nested *n = k->nested;
  const Stmt *body = k->body;
  /* Occupancy floor: without a bound the kernel takes ~90 registers (1/4
   * occupancy), which cost a third of the bandwidth on short inner loops;
   * docs/collectivedp.md has the measurements. -DGTCC_CDP_MIN_BLOCKS=N
   * overrides it. */
  emit_min_blocks(sb, k, "GTCC_CDP_MIN_BLOCKS", "parent", PARENT_THREADS_PER_SM);
  sb_printf(sb, "template <class gt_idx>\n__global__ void __launch_bounds__(%d, %s_parent_minb) %s_kernel(", k->block,
            k->name, k->name);
  cg_loop_params(sb, k);
  sb_puts(sb, ", unsigned gt_ctx_cap, unsigned gt_item_cap, unsigned *gt_done");
  cdp_params(sb, k);
  capture_params(sb, k);
  sb_puts(sb, ") {\n  const int gt_lane = (int)(threadIdx.x & 31u), gt_warp = (int)(threadIdx.x >> 5);\n");
  cg_shared_aliases(sb, k, "  ");
  outer_acc_locals(sb, k, "  ", ""); /* this thread's copies of the outer reductions */
  switch (n->mode) {
  case CDP_CTA: sb_puts(sb, "  const unsigned gt_seg = blockIdx.x;\n"); break;
  case CDP_WARP: sb_puts(sb, "  const unsigned gt_seg = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;\n"); break;
  default: sb_puts(sb, "  const unsigned gt_seg = 0;\n"); break;
  }
  /* A lane's short or medium loop waits for its warp in the lane's slot in
   * shared memory: holding contexts in registers across the whole body would
   * cost occupancy. One slot per lane, not a queue per tier: shared memory
   * shrinks L1, and a second array (28 KB per block for SpMV) cost inline
   * rows a fifth of their bandwidth (docs/collectivedp.md). */
  sb_printf(sb, "  __shared__ %s_ctx gt_cq[%d][32];\n", k->name, k->block / 32);
  sb_puts(sb, "  (void)gt_done;\n  const gt_idx gt_m0 = (gt_idx)");
  if (k->collapse > 1) sb_putc(sb, '('); /* the collapsed iteration space, one index */
  cg_trip_product(sb, k);
  if (k->collapse > 1) sb_putc(sb, ')');
  sb_puts(sb, ";\n"
              "  /* warp-uniform grid-stride loop: lanes stay together for the warp tier */\n"
              "  for (gt_idx gt_base = (gt_idx)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); gt_base < gt_m0;\n"
              "       gt_base += (gt_idx)gridDim.x * blockDim.x) {\n"
              "    const gt_idx gt_c0 = gt_base + gt_lane;\n"
              "    int gt_scnt = 0;        /* iterations of this lane's short loop */\n"
              "    bool gt_short = false;  /* this lane's loop is short */\n"
              "    bool gt_medium = false; /* ... or medium (or the NLK's buffer was full) */\n"
              "    do {\n      if (gt_c0 >= gt_m0) break;\n");
  /* the outer indices, the innermost collapsed loop's varying fastest (one division per loop) */
  if (k->collapse > 1) sb_puts(sb, "      gt_idx gt_r = gt_c0;\n");
  for (int l = k->collapse - 1; l > 0; l--) {
    const CVar *iv = k->loops[l]->iv;
    sb_printf(sb, "      %s %s = (%s)(gt_lb%d + (long long)(gt_r %% (gt_idx)gt_n%d) * gt_st%d);\n      gt_r /= (gt_idx)gt_n%d;\n",
              iv->type, iv->name, iv->type, l, l, l, l);
  }
  const CVar *iv = k->loops[0]->iv;
  sb_printf(sb, "      %s %s = (%s)(gt_lb0 + %s * gt_st0);\n", iv->type, iv->name, iv->type, k->collapse > 1 ? "gt_r" : "gt_c0");
  /* the outer loop's privates that Before uses (only Before may: nested.c) */
  for (int i = 0; i < k->ncaps; i++)
    if (k->caps[i].kind == CAP_PRIVATE && before_uses(body, n->inner, k->caps[i].var))
      cg_private_local(sb, k->caps[i].var, "      ");
  /* Before (and a block's text up to the inner loop: `if (c) { B`) */
  cg_line_directive(sb, p->tu, srcfile_loc(p->tu->file, body->begin + 1).line);
  cg_copy_source(sb, p->tu, body->begin + 1, n->guard ? n->guard->begin : n->inner->begin);
  sb_putc(sb, '\n');
  if (n->guard) emit_guard_take(sb, p, n, "      "); /* its condition, and its else branch when it is false */
  /* a local of Before that only the inner loop uses, as its private: each tier has its own copy */
  for (int i = 0; i < n->nprivs; i++)
    if (n->privs[i]->decl_offset > body->begin && n->privs[i]->decl_offset < n->inner->begin)
      sb_printf(sb, "      (void)%s;\n", n->privs[i]->name);
  /* ... and the inner index declared there (`int j;`): the inline loop declares its own */
  for (int l = 0; l < n->icollapse; l++) {
    const CVar *jv = n->iloops[l]->loop->iv;
    if (jv->decl_offset > body->begin && jv->decl_offset < n->inner->begin) sb_printf(sb, "      (void)%s;\n", jv->name);
  }
  /* trip count and tier decision */
  sb_puts(sb, "      {\n");
  emit_trip_count(sb, n, "        ");
  sb_printf(sb,
            "        if (gt_itc > GTCC_CDP_INLINE) { /* very short loops stay in the thread (below) */\n"
            "        %s_ctx gt_mine;\n",
            k->name);
  emit_ctx_bounds(sb, n, "gt_mine", "        ");
  sb_printf(sb, "        gt_mine.gt_iv = %s;\n", iv->name);
  for (int l = 1; l < k->collapse; l++) sb_printf(sb, "        gt_mine.gt_iv%d = %s;\n", l, k->loops[l]->iv->name);
  for (int i = 0; i < n->nctx; i++) sb_printf(sb, "        gt_mine.%s = %s;\n", n->ctx[i]->name, n->ctx[i]->name);
  sb_printf(sb,
            "        if (gt_itc <= %lldLL) { /* short: the warp runs its lanes' short loops together */\n"
            "          gt_cq[gt_warp][gt_lane] = gt_mine;\n"
            "          gt_scnt = (int)gt_itc;\n"
            "          gt_short = true;\n"
            "          break;\n"
            "        }\n"
            "        {\n",
            n->warp_threshold);
  /* long: save the context for the NLK, one reservation per converged group */
  sb_printf(sb,
            "          bool gt_saved = false;\n"
            "          if (gt_itc > %lldLL) {\n"
            "            const unsigned gt_nch = gtrt_cdp_nchunks(gt_itc, GTCC_CDP_CHUNK, GTCC_CDP_MIN_CHUNK, GTCC_CDP_SPLIT);\n"
            "            unsigned gt_slot, gt_first;\n"
            "            if (gtrt_cdp_reserve(__activemask(), gt_nch, &gt_counts[2 * gt_seg], gt_ctx_cap, gt_item_cap, &gt_slot, &gt_first)) {\n"
            "              gt_slot += gt_seg * gt_ctx_cap;\n"
            "              gt_first += gt_seg * gt_item_cap;\n"
            "              gt_mine.gt_first = gt_first;\n"
            "              gt_mine.gt_nchunks = gt_nch;\n"
            "              gt_ctxs[gt_slot] = gt_mine;\n"
            "              gt_remaining[gt_slot] = gt_nch;\n"
            "              for (unsigned gt_c = 0; gt_c < gt_nch; gt_c++) gt_items[gt_first + gt_c] = gt_slot;\n"
            "              gt_saved = true;\n"
            "            }\n"
            "          }\n"
            "          /* medium, or the buffer is full: the warp runs it after this round */\n"
            "          if (!gt_saved) gt_cq[gt_warp][gt_lane] = gt_mine, gt_medium = true;\n"
            "          break;\n"
            "        }\n"
            "      }\n",
            n->threshold);
  /* Very short: this thread runs the inner loop. Its iterations are unrolled
   * under guards, so the loads of all of them issue together: CSR rows of 5
   * went from 3355-3438 to 3675 GB/s (docs/collectivedp.md). */
  sb_printf(sb, "        GTRT_UNROLL(GTCC_CDP_INLINE)\n"
                "        for (int gt_k = 0; gt_k < GTCC_CDP_INLINE; gt_k++) {\n"
                "          if (gt_k >= gt_itc) continue; /* a guard, not a break: no exit between the loads */\n");
  emit_inner_indices(sb, n, NULL, "(long long)gt_k", "          ");
  /* the inner loop's privates get copies of their own: one may be a local of Before that After reads */
  sb_puts(sb, "          do {\n");
  inner_privates(sb, n, "            ");
  cg_line_directive(sb, p->tu, n->ibody->loc.line);
  sb_puts(sb, "            ");
  cg_copy_source(sb, p->tu, n->ibody->begin, n->ibody->end);
  sb_puts(sb, "\n          } while (0);\n        }\n      }\n");
  if (n->block) { /* `{ B; loop; A }`: the rest of the block's text (and its if's else branch) */
    cg_line_directive(sb, p->tu, srcfile_loc(p->tu->file, n->inner->end).line);
    cg_copy_source(sb, p->tu, n->inner->end, n->block->end);
    sb_putc(sb, '\n');
  }
  emit_after(sb, p, k, n, "      ", false);
  sb_puts(sb, "    } while (0);\n"
              "    if (!__any_sync(0xffffffffu, gt_short || gt_medium)) continue; /* every loop ran inline */\n");
  emit_warp_flat(sb, p, k);
  /* the warp tier */
  sb_printf(sb,
            "    __syncwarp();\n"
            "    for (unsigned gt_mq = __ballot_sync(0xffffffffu, gt_medium); gt_mq; gt_mq &= gt_mq - 1) {\n"
            "      %s_ctx gt_c = gt_cq[gt_warp][__ffs(gt_mq) - 1];\n"
            "      gt_c.gt_nchunks = 1;\n"
            "      %s_exec<1>(gt_c, 0u, 0u, 0LL, gt_c.gt_itc",
            k->name, k->name);
  cdp_args(sb, k);
  capture_args(sb, k, "");
  outer_acc_args(sb, k, "&");
  sb_puts(sb, ");\n    }\n    __syncwarp(); /* the next round refills the slots */\n  }\n");
  /* launch variants that start the NLK from the device */
  switch (n->mode) {
  case CDP_TAIL:
    sb_puts(sb, "  /* the last parent block tail-launches one NLK for all buffered work */\n"
                "  __syncthreads();\n"
                "  if (threadIdx.x == 0) {\n"
                "    __threadfence();\n"
                "    if (atomicAdd(gt_done, 1u) == gridDim.x - 1) {\n"
                "      const unsigned gt_n = ::min(atomicAdd(&gt_counts[1], 0u), gt_item_cap);\n"
                "      if (gt_n) {\n");
    emit_device_launch(sb, k, "gt_n", "cudaStreamTailLaunch", "        ");
    sb_puts(sb, "        if (cudaGetLastError() != cudaSuccess) atomicExch(gt_done, 0xffffffffu); /* reported by the stub */\n"
                "      }\n    }\n  }\n");
    break;
  case CDP_CTA:
    sb_puts(sb, "  /* CTA master: this block's buffered work in one NLK; if the launch fails the block runs it */\n"
                "  __shared__ int gt_fail;\n"
                "  __syncthreads();\n"
                "  const unsigned gt_n = ::min(gt_counts[2 * gt_seg + 1], gt_item_cap);\n"
                "  if (threadIdx.x == 0) {\n    gt_fail = 0;\n    if (gt_n) {\n");
    emit_device_launch(sb, k, "gt_n", "cudaStreamFireAndForget", "      ");
    sb_puts(sb, "      gt_fail = cudaGetLastError() != cudaSuccess;\n    }\n  }\n  __syncthreads();\n"
                "  if (gt_fail)\n    for (unsigned gt_it = 0; gt_it < gt_n; gt_it++) {\n"
                "      const unsigned gt_item = gt_seg * gt_item_cap + gt_it;\n");
    emit_item_call(sb, k, k->nested, "0", "      ", "&");
    sb_puts(sb, "    }\n");
    break;
  case CDP_WARP:
    sb_puts(sb, "  /* warp master: this warp's buffered work in one NLK; if the launch fails the warp runs it */\n"
                "  __syncwarp();\n"
                "  const unsigned gt_n = ::min(gt_counts[2 * gt_seg + 1], gt_item_cap);\n"
                "  int gt_fail = 0;\n"
                "  if (gt_lane == 0 && gt_n) {\n");
    emit_device_launch(sb, k, "gt_n", "cudaStreamFireAndForget", "    ");
    sb_puts(sb, "    gt_fail = cudaGetLastError() != cudaSuccess;\n  }\n"
                "  if (__shfl_sync(0xffffffffu, gt_fail, 0))\n    for (unsigned gt_it = 0; gt_it < gt_n; gt_it++) {\n"
                "      const unsigned gt_item = gt_seg * gt_item_cap + gt_it;\n");
    emit_item_call(sb, k, k->nested, "1", "      ", "&");
    sb_puts(sb, "    }\n");
    break;
  default: break;
  }
  cg_block_partials(sb, k, "gt_opart_");
  sb_puts(sb, "}\n\n");
}

static void emit_nested_stub(StrBuf *sb, const Kernel *k) {
  const Nested *n = k->nested;
  sb_printf(sb, "extern \"C\" void %s(", k->name);
  cg_stub_params(sb, k, 1);
  const char *trips = "gt_n0"; /* iterations of the (collapsed) outer loop */
  if (k->collapse > 1) {
    trips = "gt_total";
    sb_puts(sb, ") {\n  const long long gt_total = ");
    cg_trip_product(sb, k);
    sb_puts(sb, ";\n  if (gt_total <= 0) return;\n");
  } else
    sb_puts(sb, ") {\n  if (gt_n0 <= 0) return;\n");
  cg_stub_prologue(sb, k, trips);
  /* The parent's grid-stride loop over one wave of resident blocks: the
   * default grid assumed 2048 threads per SM, more than the occupancy
   * floor lets in, and the second wave cost 7 % on 2D Poisson. */
  sb_printf(sb,
            "#if GTCC_CDP_RESIDENT_GRID\n"
            "  static unsigned gt_resident = 0;\n"
            "  if (!gt_resident) gt_resident = gtrt_cdp_resident_grid(gt_site, (const void *)%s_kernel<int>, (const void *)%s_kernel<long long>, gt_block);\n"
            "  if (!gt_resident) gtrt_fatal();\n"
            "  if (gt_grid > gt_resident) gt_grid = gt_resident;\n"
            "#endif\n",
            k->name, k->name);
  const char *nseg = n->mode == CDP_CTA ? "gt_grid" : n->mode == CDP_WARP ? "gt_grid * (gt_block / 32)" : "1u";
  sb_printf(sb,
            "  /* context buffer: capacity split over %s segment(s); items are NLK blocks' work */\n"
            "  const unsigned gt_nseg = %s;\n"
            "  long long gt_cap = gtrt_cdp_capacity();\n"
            "  if (gt_cap > %s) gt_cap = %s;\n"
            "  if (gt_cap > (1LL << 28)) gt_cap = 1LL << 28;\n"
            "  const unsigned gt_ctx_cap = (unsigned)(gt_cap / gt_nseg);\n"
            "  const unsigned gt_item_cap = gt_ctx_cap ? 4 * gt_ctx_cap : 0;\n"
            "  const size_t gt_nctx = (size_t)gt_ctx_cap * gt_nseg, gt_nitem = (size_t)gt_item_cap * gt_nseg;\n"
            "  size_t gt_off = 0;\n",
            n->mode == CDP_CTA ? "block" : n->mode == CDP_WARP ? "warp" : "one", nseg, trips, trips);
  sb_printf(sb, "  const size_t gt_o_ctx = gt_off; gt_off += (gt_nctx * sizeof(%s_ctx) + 255) & ~(size_t)255;\n", k->name);
  sb_puts(sb, "  const size_t gt_o_items = gt_off; gt_off += (gt_nitem * 4 + 255) & ~(size_t)255;\n"
              "  const size_t gt_o_rem = gt_off; gt_off += (gt_nctx * 4 + 255) & ~(size_t)255;\n"
              "  const size_t gt_o_counts = gt_off; gt_off += ((size_t)gt_nseg * 8 + 4 + 255) & ~(size_t)255;\n");
  for (int r = 0; r < n->nreds; r++)
    sb_printf(sb, "  const size_t gt_o_part%d = gt_off; gt_off += (gt_nitem * sizeof(%s) + 255) & ~(size_t)255;\n", r,
              n->reds[r].var->type);
  for (const Nested *t = n->next; t; t = t->next) { /* a later stage: one segment, launched by the host */
    char sx[16];
    stage_sfx(t, sx);
    sb_printf(sb,
              "  const unsigned gt_ctx_cap%s = (unsigned)gt_cap, gt_item_cap%s = gt_ctx_cap%s ? 4 * gt_ctx_cap%s : 0;\n"
              "  const size_t gt_o_ctx%s = gt_off; gt_off += ((size_t)gt_ctx_cap%s * sizeof(%s%s_ctx) + 255) & ~(size_t)255;\n"
              "  const size_t gt_o_items%s = gt_off; gt_off += ((size_t)gt_item_cap%s * 4 + 255) & ~(size_t)255;\n"
              "  const size_t gt_o_rem%s = gt_off; gt_off += ((size_t)gt_ctx_cap%s * 4 + 255) & ~(size_t)255;\n"
              "  const size_t gt_o_counts%s = gt_off; gt_off += 256;\n",
              sx, sx, sx, sx, sx, sx, k->name, sx, sx, sx, sx, sx, sx);
    for (int r = 0; r < t->nreds; r++)
      sb_printf(sb, "  const size_t gt_o_part%s_%d = gt_off; gt_off += ((size_t)gt_item_cap%s * sizeof(%s) + 255) & ~(size_t)255;\n",
                sx, r, sx, t->reds[r].var->type);
  }
  for (int i = 0; i < k->ncaps; i++)
    if (k->caps[i].kind == CAP_REDUCTION)
      sb_printf(sb, "  const size_t gt_o_opart_%s = gt_off; gt_off += ((size_t)gt_grid * sizeof(%s) + 255) & ~(size_t)255;\n"
                    "  const size_t gt_o_oslot_%s = gt_off; gt_off += 256;\n",
                k->caps[i].var->name, k->caps[i].var->type, k->caps[i].var->name);
  sb_puts(sb, "  char *gt_mem = (char *)gtrt_scratch(gt_site, gt_off);\n  if (!gt_mem) gtrt_fatal();\n");
  sb_printf(sb, "  %s_ctx *gt_ctxs = (%s_ctx *)(gt_mem + gt_o_ctx);\n", k->name, k->name);
  sb_puts(sb, "  unsigned *gt_items = (unsigned *)(gt_mem + gt_o_items);\n"
              "  unsigned *gt_remaining = (unsigned *)(gt_mem + gt_o_rem);\n"
              "  unsigned *gt_counts = (unsigned *)(gt_mem + gt_o_counts);\n"
              "  unsigned *gt_done = gt_counts + 2 * (size_t)gt_nseg;\n");
  for (int r = 0; r < n->nreds; r++)
    sb_printf(sb, "  %s *gt_part_%s = (%s *)(gt_mem + gt_o_part%d);\n", n->reds[r].var->type, n->reds[r].var->name,
              n->reds[r].var->type, r);
  for (const Nested *t = n->next; t; t = t->next) {
    char sx[16];
    stage_sfx(t, sx);
    sb_printf(sb,
              "  %s%s_ctx *gt_ctxs%s = (%s%s_ctx *)(gt_mem + gt_o_ctx%s);\n"
              "  unsigned *gt_items%s = (unsigned *)(gt_mem + gt_o_items%s);\n"
              "  unsigned *gt_remaining%s = (unsigned *)(gt_mem + gt_o_rem%s);\n"
              "  unsigned *gt_counts%s = (unsigned *)(gt_mem + gt_o_counts%s);\n"
              "  GTRT_CUDA(gt_site, cudaMemsetAsync(gt_counts%s, 0, 8));\n",
              k->name, sx, sx, k->name, sx, sx, sx, sx, sx, sx, sx, sx, sx);
    for (int r = 0; r < t->nreds; r++)
      sb_printf(sb, "  %s *gt_part%s_%s = (%s *)(gt_mem + gt_o_part%s_%d);\n", t->reds[r].var->type, sx,
                t->reds[r].var->name, t->reds[r].var->type, sx, r);
  }
  for (int i = 0; i < k->ncaps; i++) {
    const Capture *c = &k->caps[i];
    if (c->kind != CAP_REDUCTION) continue;
    const char *v = c->var->name, *t = c->var->type;
    sb_printf(sb, "  %s *gt_opart_%s = (%s *)(gt_mem + gt_o_opart_%s);\n", t, v, t, v);
    sb_printf(sb, "  %s *gt_oslot_%s = (%s *)(gt_mem + gt_o_oslot_%s);\n", t, v, t, v);
    sb_printf(sb, "  { const %s gt_id = %s::identity<%s>();\n"
                  "    GTRT_CUDA(gt_site, cudaMemcpy(gt_oslot_%s, &gt_id, sizeof gt_id, cudaMemcpyHostToDevice)); }\n",
              t, cg_red_op(c->red_op), t, v);
  }
  sb_puts(sb, "  GTRT_CUDA(gt_site, cudaMemsetAsync(gt_counts, 0, (size_t)gt_nseg * 8 + 4));\n");
  if (n->mode == CDP_CTA || n->mode == CDP_WARP)
    sb_puts(sb, "  if (gtrt_cdp_pending_launches(gt_site, (size_t)gt_nseg + 2048) != GTRT_OK) gtrt_fatal();\n");
  sb_puts(sb, "  double gt_t0 = gtrt_profile_enabled() ? gtrt_now_ms() : 0.0;\n");
  sb_printf(sb, "  const bool gt_small = %s + (long long)gt_grid * gt_block < 2147483647LL;\n", trips);
  for (int v = 0; v < 2; v++) {
    sb_printf(sb, "  %s%s_kernel<%s><<<gt_grid, gt_block>>>(", v ? "else " : "if (gt_small) ", k->name, v ? "long long" : "int");
    cg_loop_args(sb, k);
    sb_puts(sb, ", gt_ctx_cap, gt_item_cap, gt_done");
    cdp_args(sb, k);
    capture_args(sb, k, "gt_d_");
    sb_puts(sb, ");\n");
  }
  sb_puts(sb, "  GTRT_CUDA(gt_site, cudaGetLastError());\n");
  if (n->mode == CDP_HOST || n->mode == CDP_DEFAULT) {
    sb_printf(sb, "  /* one NLK after the parent, in stream order; its blocks take the items in turn */\n"
                  "  const unsigned gt_nlk_grid = gtrt_grid_for(gt_nitem ? (long long)gt_nitem * gt_block : 1, gt_block);\n"
                  "  if (gt_nitem) %s_nlk<<<gt_nlk_grid, gt_block>>>(0u, gt_item_cap",
              k->name);
    cdp_args(sb, k);
    capture_args(sb, k, "gt_d_");
    sb_puts(sb, ");\n");
  }
  for (const Nested *t = n->next; t; t = t->next) { /* later stages, each after the one before */
    char sx[16];
    stage_sfx(t, sx);
    sb_printf(sb, "  /* stage %d: after every earlier kernel, in stream order */\n"
                  "  if (gt_item_cap%s) %s%s_nlk<<<gtrt_grid_for((long long)gt_item_cap%s * gt_block, gt_block), gt_block>>>(0u, gt_item_cap%s",
              t->stage, sx, k->name, sx, sx, sx);
    cdp_args(sb, k);
    capture_args(sb, k, "gt_d_");
    sb_puts(sb, ");\n");
  }
  sb_puts(sb, "  GTRT_LAUNCH_CHECK(gt_site);\n");
  if (n->mode == CDP_TAIL)
    sb_puts(sb, "  unsigned gt_done_h = 0;\n"
                "  GTRT_CUDA(gt_site, cudaMemcpy(&gt_done_h, gt_done, 4, cudaMemcpyDeviceToHost));\n"
                "  if (gt_done_h == 0xffffffffu) GTRT_CUDA(gt_site, cudaErrorLaunchFailure); /* tail launch failed */\n");
  for (int i = 0; i < k->ncaps; i++) { /* the parent blocks' partials, then the NLK's slot */
    const Capture *c = &k->caps[i];
    if (c->kind != CAP_REDUCTION) continue;
    const char *v = c->var->name, *t = c->var->type, *op = cg_red_op(c->red_op);
    sb_printf(sb, "  *%s = gtrt_reduce_partials<%s, %s>(gt_site, gt_opart_%s, gt_grid, *%s);\n", v, op, t, v, v);
    sb_printf(sb, "  *%s = gtrt_reduce_partials<%s, %s>(gt_site, gt_oslot_%s, 1u, *%s);\n", v, op, t, v, v);
    cg_reduction_to_present(sb, c->var);
  }
  sb_puts(sb, "  if (gtrt_profile_enabled()) gtrt_profile_region(gt_site, gtrt_now_ms() - gt_t0);\n}\n\n");
}

void cg_emit_nested(StrBuf *sb, const Program *p, const Kernel *k) {
  sb_puts(sb, "#ifndef GTCC_CDP_UNROLL\n#define GTCC_CDP_UNROLL 8\n#endif\n");
  /* the parent's grid: one wave of resident blocks (Poisson +7.6 %, docs/collectivedp.md) */
  sb_puts(sb, "#ifndef GTCC_CDP_RESIDENT_GRID\n#define GTCC_CDP_RESIDENT_GRID 1\n#endif\n");
  sb_puts(sb, "#ifndef GTCC_CDP_NLK_UNROLL\n#define GTCC_CDP_NLK_UNROLL GTCC_CDP_UNROLL\n#endif\n");
  sb_puts(sb, "#ifndef GTCC_CDP_FLAT_UNROLL\n#define GTCC_CDP_FLAT_UNROLL 1\n#endif\n");
  /* inner iterations per NLK work item (one block); longer loops get several */
  sb_printf(sb, "#ifndef GTCC_CDP_CHUNK\n#define GTCC_CDP_CHUNK %lldLL\n#endif\n", k->nested->chunk);
  /* a loop of fewer chunks is split into up to GTCC_CDP_SPLIT items of at
   * least GTCC_CDP_MIN_CHUNK iterations: one block per long row held up
   * the whole NLK on a small power-law matrix (docs/collectivedp.md) */
  sb_puts(sb, "#ifndef GTCC_CDP_MIN_CHUNK\n#define GTCC_CDP_MIN_CHUNK 2048LL\n#endif\n");
  sb_puts(sb, "#ifndef GTCC_CDP_SPLIT\n#define GTCC_CDP_SPLIT 8\n#endif\n");
  /* Inner loops this short run in the parent thread: 2D Poisson rows (5)
   * ran at 3212 GB/s so, against 1551 in the warp-flat tier. 7, not 8:
   * random rows of 8 are faster in the warp-flat tier (docs/collectivedp.md). */
  sb_puts(sb, "#ifndef GTCC_CDP_INLINE\n#define GTCC_CDP_INLINE 7\n#endif\n");
  sb_printf(sb, "/* ---- %s at %s:%d: nested parallel loop (CollectiveDP, %s launch of the next-level kernel) */\n",
            k->what, p->tu->file->path, k->loc.line, xf_cdp_mode_name(k->nested->mode));
  for (int i = 0; i < k->nseq_inner; i++) { /* a loop inside an inner loop (transform/nested.c) */
    bool stage = false;
    for (const Nested *n = k->nested; n; n = n->next) stage |= n->inner == k->seq_inner[i];
    if (!stage)
      sb_printf(sb, "/* gtcc: note: the parallel loop at %s:%d runs sequentially in each iteration of the inner loop around it */\n",
                p->tu->file->path, k->seq_inner[i]->loc.line);
  }
  for (const Nested *n = k->nested; n; n = n->next)
    if (n->collapse_note)
      sb_printf(sb, "/* gtcc: note: collapse on the inner loop at %s:%d is not applied (%s): its first loop runs in "
                    "parallel, the loops below it sequentially in each of its iterations */\n",
                p->tu->file->path, n->inner->loc.line, n->collapse_note);
  for (const Nested *n = k->nested; n; n = n->next) emit_ctx_struct(sb, k, n);
  for (const Nested *n = k->nested; n; n = n->next) emit_executor(sb, p, k, n);
  for (const Nested *n = k->nested; n; n = n->next) emit_nlk(sb, k, n);
  emit_parent(sb, p, k);
  emit_nested_stub(sb, k);
}
