/* Region formation: which statements become kernels, data regions and
 * runtime calls. Directives gtcc does not lower (host OpenMP: parallel,
 * for, task, ...) are left where they are, for the host compiler. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "lir.h"
#include "strbuf.h"

static bool is_loop(DirKind k) { return (dir_flags(k) & DF_LOOP) != 0; }

/* Directives that ask for parallel execution of the loop they precede. */
static bool is_parallel_loop(const Directive *d) {
  return is_loop(d->kind) && d->kind != DIR_OMP_SIMD && !dir_find_clause(d, CL_SEQ);
}

/* Clauses gtcc parses but does not implement on the constructs it lowers:
 * ignoring them could change results, so they are errors. */
static void check_supported(const Directive *d) {
  static const ClauseKind unsupported[] = {CL_LASTPRIVATE, CL_LINEAR, CL_ORDERED, CL_ATTACH, CL_DETACH,
                                           CL_NO_CREATE, CL_DEFAULTMAP, CL_DEVICE_NUM, CL_DEPEND, CL_ALIGNED};
  for (int i = 0; i < d->nclauses; i++)
    for (size_t u = 0; u < sizeof unsupported / sizeof *unsupported; u++)
      if (d->clauses[i].kind == unsupported[u])
        diag_error(d->clauses[i].loc, "clause '%s' on '%s' is not supported by gtcc", clause_spelling(d->clauses[i].kind),
                   dir_name(d->kind));
  xf_check_gtcc_clauses(d);
}

/* ---- kernels ------------------------------------------------------------- */

Stmt *xf_only_stmt(Stmt *s) {
  while (s && s->kind == ST_COMPOUND && s->nkids == 1) s = s->kids[0];
  return s;
}

/* A clause's constant argument; -1 when it is not a constant. */
static int const_int(const Expr *e, int dflt) {
  if (!e->text) return dflt;
  long long v;
  if (!fe_expr_int(e, &v) || v < 0) return -1;
  return v > INT_MAX ? INT_MAX : (int)v;
}

bool xf_stmt_uses(const Stmt *s, const CVar *v) {
  for (int i = 0; i < s->nuses; i++)
    if (s->uses[i].var == v) return true;
  return false;
}

static bool use_is(const VarUse *u, unsigned kinds) {
  return !kinds || ((kinds & XF_USE_WRITE) && u->write) || ((kinds & XF_USE_ELEM_WRITE) && u->elem_write) ||
         ((kinds & XF_USE_ADDR) && u->addr_taken) || ((kinds & XF_USE_DECAY) && u->decays);
}

const VarUse *xf_find_use(const Stmt *s, const CVar *v, unsigned kinds) {
  for (int i = 0; i < s->nuses; i++)
    if (s->uses[i].var == v && use_is(&s->uses[i], kinds)) return &s->uses[i];
  for (int i = 0; i < s->nkids; i++) {
    const VarUse *u = xf_find_use(s->kids[i], v, kinds);
    if (u) return u;
  }
  return NULL;
}

bool xf_subtree_uses(const Stmt *s, const CVar *v, bool writes_only, SrcLoc *where) {
  const VarUse *u = xf_find_use(s, v, writes_only ? XF_USE_WRITE : XF_USE_ANY);
  if (u && where) *where = u->loc;
  return u != NULL;
}

/* The sizes in OpenACC's tile(a, b, ...): one per loop of the nest. */
static int tile_depth(const Clause *t) {
  int n = 1, depth = 0;
  for (const char *c = t->expr.text ? t->expr.text : ""; *c; c++) {
    depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
    n += *c == ',' && depth == 0;
  }
  return n;
}

int xf_collapse_depth(const Clause *c) {
  int n = const_int(&c->expr, 1);
  if (n >= 1 && n <= 3) return n;
  diag_error(c->expr.loc, "collapse(%s) is not supported: use a constant from 1 to 3", c->expr.text);
  return -1;
}

/* collapse(n): n perfectly nested canonical loops with rectangular bounds.
 * OpenACC's tile(a, b) asks the same of its nest (one loop per size) and
 * only changes how the iterations are scheduled, so gtcc runs it as
 * collapse(2), whose kernel takes 2D tiles of its own (emit_cu.c). */
static int form_collapse(Kernel *k, const Directive *d) {
  const Clause *c = dir_find_clause(d, CL_COLLAPSE), *t = dir_find_clause(d, CL_TILE);
  if (c && t) {
    diag_error(t->loc, "'tile' and 'collapse' on one loop: OpenACC allows one of them");
    return 0;
  }
  int n = t ? tile_depth(t) : c ? xf_collapse_depth(c) : 1;
  if (n < 0) return 0;
  char what[48];
  if (t) snprintf(what, sizeof what, "tile with %d sizes", n);
  else snprintf(what, sizeof what, "collapse(%d)", n);
  if (t && n > 3) {
    diag_error(t->loc, "tile(%s) is not supported: gtcc tiles up to 3 loops", t->expr.text);
    return 0;
  }
  k->collapse = n;
  Stmt *s = k->stmt;
  for (int lvl = 0; lvl < n; lvl++) {
    if (!s || s->kind != ST_FOR) {
      diag_error(s ? s->loc : k->loc, "%s needs %d perfectly nested for loops", what, n);
      return 0;
    }
    if (!s->loop->canonical) {
      diag_error(s->loop->why_loc, "collapsed loop is not in canonical form: %s", s->loop->why_not);
      return 0;
    }
    for (int outer = 0; outer < lvl; outer++)
      if (xf_stmt_uses(s, k->loops[outer]->iv)) {
        diag_error(s->loc, "%s needs a rectangular loop nest: the bounds of this loop use '%s'", what,
                   k->loops[outer]->iv->name);
        return 0;
      }
    k->loops[lvl] = s->loop;
    k->loop_stmts[lvl] = s;
    k->body = s->kids[0];
    if (lvl + 1 < n) s = xf_only_stmt(s->kids[0]);
  }
  return 1;
}

/* A data clause on a loop directive inside a kernel: the data must already
 * be on the device for the kernel (its construct, an enclosing data region
 * or an enter data maps it, or it is a fixed-size array, mapped implicitly).
 * Then the clause finds it present and, as OpenACC and OpenMP say, moves
 * nothing; gtcc has nothing to do. Data that is not there would have to be
 * moved while the kernel runs: an error. */
static void check_inner_data_clause(Program *p, Kernel *k, const Directive *d, const Clause *c) {
  for (int i = 0; i < c->nitems; i++) {
    const CVar *v = xf_lookup_var(p, c->items[i].name, d->loc.offset);
    if (v && (v->tkind == VT_ARRAY || xf_has_mapping(p, k, v))) continue;
    if (!v)
      xf_unknown_clause_item(p, c, &c->items[i]);
    else
      diag_error(c->items[i].loc,
                 "data clause '%s' on an inner loop names '%s', which the outer '%s' does not map: map it there (or "
                 "in an enclosing data region); an inner data clause can only find data already on the device",
                 clause_spelling(c->kind), c->items[i].name, k->what);
    return;
  }
}

/* Inner directives of a kernel body: parallel loops are recorded for the
 * nested lowering (nested.c), or run sequentially with a note in the .cu;
 * anything else gtcc cannot run inside a kernel. */
static void check_inner(Program *p, Kernel *k, Stmt *s) {
  for (int i = 0; i < s->ndirs; i++) {
    Directive *d = s->dirs[i];
    if (is_loop(d->kind)) {
      check_supported(d);
      const Clause *t = dir_find_clause(d, CL_TILE);
      if (t) /* gtcc runs a tiled nest as collapse(n): not as an inner loop */
        diag_error(t->loc, "'tile' on a loop inside the '%s' region's loop is not supported by gtcc", k->what);
      const Clause *cc = dir_find_clause(d, CL_COLLAPSE); /* nested.c applies it where it can */
      if (cc) xf_collapse_depth(cc);
      for (int c = 0; c < d->nclauses; c++) {
        ClauseKind ck = d->clauses[c].kind;
        if (xf_misused_copyin(d, &d->clauses[c])) continue;
        if (ck == CL_COPY || ck == CL_COPYIN || ck == CL_COPYOUT || ck == CL_CREATE || ck == CL_PRESENT ||
            ck == CL_MAP || ck == CL_DEVICEPTR)
          check_inner_data_clause(p, k, d, &d->clauses[c]);
      }
      if (is_parallel_loop(d)) VEC_PUSH(k->seq_inner, k->nseq_inner, k->seq_inner_cap, s);
    } else if (d->kind == DIR_OMP_CRITICAL) { /* a lock around it in the copied text (frontend/critical.c) */
      xf_check_critical(p, s);
    } else if (!xf_is_atomic(d)) /* atomics: rewritten in the copied text (frontend/atomics.c) */
      diag_error(d->loc, "'%s' inside the '%s' region at line %d is not supported", dir_name(d->kind), k->what,
                 k->loc.line);
  }
  (void)p;
  for (int i = 0; i < s->nkids; i++) check_inner(p, k, s->kids[i]);
}

/* Standalone directives (barrier, taskwait, update, ...) inside a kernel
 * body attach to no statement; gtcc cannot run them there. */
static void check_standalone_inside(Program *p, Kernel *k) {
  for (int i = 0; i < p->tu->ndirs; i++) {
    const Directive *d = p->tu->dirs[i];
    if ((dir_flags(d->kind) & DF_STANDALONE) && d->loc.offset > k->body->begin && d->loc.offset < k->body->end)
      diag_error(d->loc, "'%s' inside the '%s' region at line %d is not supported", dir_name(d->kind), k->what,
                 k->loc.line);
  }
}

/* A short hash of what makes this translation unique (source text, -D/-U/-I,
 * CollectiveDP options), so one file compiled twice with different macros
 * links into one program without clashing names. */
static unsigned unit_hash(const Program *p) {
  unsigned h = 2166136261u;
  const TranslationUnit *tu = p->tu;
  for (size_t i = 0; i < tu->file->len; i++) h = (h ^ (unsigned char)tu->file->text[i]) * 16777619u;
  for (int a = 0; a < tu->nclang_args; a++)
    for (const char *c = tu->clang_args[a]; *c; c++) h = (h ^ (unsigned char)*c) * 16777619u;
  h = (h ^ (unsigned)p->opts.cdp_mode) * 16777619u;
  h = (h ^ (unsigned)p->opts.cdp_threshold) * 16777619u;
  h = (h ^ (unsigned)p->opts.cdp_warp_threshold) * 16777619u;
  h = (h ^ (unsigned)p->opts.task_queue) * 16777619u;
  h = (h ^ (unsigned)p->opts.task_worker) * 16777619u;
  h = (h ^ (unsigned)p->opts.task_tile_off) * 16777619u;
  for (int l = 0; l < 3; l++) h = (h ^ (unsigned)p->opts.task_tile[l]) * 16777619u;
  if (p->opts.device_stack >= 0) h = (h ^ (unsigned)p->opts.device_stack) * 16777619u; /* default: names as before */
  return h & 0xffffffu;
}

char *xf_kernel_name(const Program *p, const Directive *d, int id) {
  const char *path = p->tu->file->path, *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, "gt_");
  for (const char *c = base; *c && *c != '.'; c++)
    sb_putc(&sb, (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ? *c : '_');
  sb_printf(&sb, "_%d_k%d_%06x", d->loc.line, id, unit_hash(p));
  return sb_take(&sb);
}

/* Is the character before offset `at` a unary operator `op` (no operand
 * before it)? */
bool xf_unary_before(const char *text, size_t at, char op) {
  size_t b = at;
  while (b > 0 && isspace((unsigned char)text[b - 1])) b--;
  if (b == 0 || text[b - 1] != op) return false;
  b--;
  if (op == '&' && b > 0 && text[b - 1] == '&') return false; /* a && x */
  while (b > 0 && isspace((unsigned char)text[b - 1])) b--;
  return b == 0 || !(isalnum((unsigned char)text[b - 1]) || text[b - 1] == '_' || text[b - 1] == ')' ||
                     text[b - 1] == ']');
}

/* The identifier at text + at, after blanks: its length (0 if none). */
static size_t ident_at(const char *text, size_t *at) {
  while (text[*at] == ' ' || text[*at] == '\t' || text[*at] == '\n' || text[*at] == '\r') (*at)++;
  size_t n = 0;
  while (isalnum((unsigned char)text[*at + n]) || text[*at + n] == '_') n++;
  return n;
}

/* Does s (or a statement inside it) define label name[0:len)? */
static bool defines_label(const char *text, const Stmt *s, const char *name, size_t len) {
  if (s->kind == ST_LABEL) {
    size_t at = s->begin, n = ident_at(text, &at);
    if (n == len && !strncmp(text + at, name, len)) return true;
  }
  for (int i = 0; i < s->nkids; i++)
    if (defines_label(text, s->kids[i], name, len)) return true;
  return false;
}

/* Jumps out of a construct's body: `return` always; `break` and `continue`
 * unless a loop or switch inside takes them; `continue` is fine at the top
 * of a loop body (it ends the iteration); `goto` when its label is not in
 * the body. */
typedef struct JumpCheck {
  const char *what, *text;
  const Stmt *body;
  bool cont_ok;
} JumpCheck;

/* Is the label a goto (g) names defined inside region (goto *p: no)? */
bool xf_goto_stays_in(const char *text, const Stmt *region, const Stmt *g) {
  size_t at = g->begin + 4; /* after "goto" */
  size_t n = ident_at(text, &at);
  return n > 0 && defines_label(text, region, text + at, n);
}

static bool check_jumps_in(const JumpCheck *jc, const Stmt *s, bool in_loop, bool in_switch) {
  bool out = false;
  switch (s->kind) {
  case ST_RETURN: out = true; break;
  case ST_GOTO: out = !xf_goto_stays_in(jc->text, jc->body, s); break;
  case ST_BREAK: out = !in_loop && !in_switch; break;
  case ST_CONTINUE: out = !in_loop && !jc->cont_ok; break;
  default: break;
  }
  if (out) {
    static const char *const names[] = {[ST_RETURN] = "return", [ST_GOTO] = "goto", [ST_BREAK] = "break",
                                        [ST_CONTINUE] = "continue"};
    diag_error(s->loc, "'%s' out of %s is not allowed", names[s->kind], jc->what);
    return false;
  }
  bool loop = in_loop || s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO;
  for (int i = 0; i < s->nkids; i++)
    if (!check_jumps_in(jc, s->kids[i], loop, in_switch || s->kind == ST_SWITCH)) return false;
  return true;
}

bool xf_check_jumps(const Program *p, const Stmt *body, const char *what, bool loop_body) {
  JumpCheck jc = {what, p->tu->file->text, body, loop_body};
  return check_jumps_in(&jc, body, false, false);
}

/* Leaving an `omp critical` block would keep its lock (OpenMP forbids it too). */
bool xf_check_critical(const Program *p, const Stmt *s) { return xf_check_jumps(p, s, "an 'omp critical' block", false); }

/* Makes the kernel for loop statement s under loop directive d; outer is
 * the enclosing compute construct when d is an inner `acc loop`. */
/* A kernel for statement s under directive d (outer: its compute construct), added to p. */
static Kernel *new_kernel(Program *p, Stmt *s, Directive *d, Directive *outer, unsigned replace_begin) {
  Kernel *k = xcalloc(1, sizeof *k);
  k->id = p->nkernels;
  k->dir = d;
  k->outer = outer;
  k->loc = (outer ? outer : d)->loc;
  k->what = dir_name((outer ? outer : d)->kind);
  k->stmt = k->replace = s;
  k->replace_begin = replace_begin;
  k->name = xf_kernel_name(p, d, k->id);
  k->block = 256;
  check_supported(d);
  VEC_PUSH(p->kernels, p->nkernels, p->kernels_cap, k);
  return k;
}

static void make_kernel(Program *p, Stmt *s, Directive *d, Directive *outer, unsigned replace_begin) {
  Kernel *k = new_kernel(p, s, d, outer, replace_begin);
  if (outer) check_supported(outer);
  if (s->kind != ST_FOR || !s->loop->canonical) return; /* attach.c reported it */
  if (!form_collapse(k, d)) return;
  const Directive *ds[2] = {d, outer};
  for (int i = 0; i < 2; i++) {
    if (!ds[i]) continue;
    const Clause *c;
    if ((c = dir_find_clause(ds[i], CL_VECTOR_LENGTH)) || (c = dir_find_clause(ds[i], CL_THREAD_LIMIT))) {
      int b = const_int(&c->expr, 256);
      if (b >= 32 && b <= 1024 && b % 32 == 0) k->block = b;
      else if (b < 0)
        diag_warning(c->loc, "'%s(%s)' ignored: gtcc needs a constant here", clause_spelling(c->kind), c->expr.text);
      else if (b > 0) diag_warning(c->loc, "'%s(%s)' ignored: gtcc uses a multiple of 32 up to 1024 threads", clause_spelling(c->kind), c->expr.text);
    }
    if ((c = dir_find_clause(ds[i], CL_NUM_GANGS)) || (c = dir_find_clause(ds[i], CL_NUM_TEAMS))) k->max_blocks = c->expr;
    if ((c = dir_find_clause(ds[i], CL_IF))) k->if_cond = c->expr;
  }
  xf_directive_maps(p, d, &k->maps);
  /* the body runs once per iteration inside generated loops: leaving it
   * would skip other iterations (OpenMP and OpenACC forbid it too) */
  bool jumps_ok = xf_check_jumps(p, k->body, "the body of a parallel loop", true);
  check_inner(p, k, k->body);
  check_standalone_inside(p, k);
  xf_capture(p, k);
  if (jumps_ok) xf_nested(p, k);
}

/* ---- serial code ---------------------------------------------------------- */

/* Code of a compute construct that is not a parallel loop (`acc serial`, a
 * statement of `omp target` or `acc kernels`): a kernel of one iteration of
 * a loop gtcc makes up (0 <= gt_once < 1), so the flat kernel serves; one
 * thread runs it. OpenACC's gang-redundant code and OpenMP's teams run it
 * once per gang or team: gtcc has one. own_maps: the construct is only this
 * kernel, so its data clauses are the kernel's (else a data region holds them). */
static void make_serial_kernel(Program *p, Stmt *s, Directive *d, bool own_maps, unsigned replace_begin) {
  static char once_name[] = "gt_once", once_type[] = "int";
  Kernel *k = new_kernel(p, s, d, NULL, replace_begin);
  if (!own_maps) k->loc = s->loc; /* a statement between loops: its line in run-time messages */
  k->body = s;
  k->block = 32;
  k->serial = true;
  k->flat_reason = "the code around it runs in one thread";
  k->once_iv = (CVar){.name = once_name, .loc = s->loc, .tkind = VT_SCALAR, .type = once_type, .elem_type = once_type,
                      .elem_size = 4, .scope_end = s->begin};
  k->once_loop = (ForLoop){.canonical = true, .iv = &k->once_iv, .relop = REL_LT, .step_is_const = true,
                           .step_value = 1, .trip_is_const = true, .trip_value = 1};
  k->once_loop.lb.text = "0", k->once_loop.ub.text = "1", k->once_loop.step.text = "1";
  k->loops[0] = &k->once_loop;
  k->loop_stmts[0] = s;
  k->collapse = 1;
  const Clause *c = dir_find_clause(d, CL_IF);
  if (c) k->if_cond = c->expr;
  if (own_maps) xf_directive_maps(p, d, &k->maps);
  xf_check_jumps(p, s, "a compute construct", false);
  for (int i = 0; i < s->nkids; i++) check_inner(p, k, s->kids[i]); /* s's own: the construct's, or atomics */
  check_standalone_inside(p, k);
  xf_capture(p, k);
}

/* ---- data regions and standalone directives ------------------------------ */

/* A return, or a goto to a label outside region, below s. */
static const Stmt *find_exit(const char *text, const Stmt *region, const Stmt *s) {
  if (s->kind == ST_RETURN) return s;
  if (s->kind == ST_GOTO && !xf_goto_stays_in(text, region, s)) return s;
  for (int i = 0; i < s->nkids; i++) {
    const Stmt *e = find_exit(text, region, s->kids[i]);
    if (e) return e;
  }
  return NULL;
}

/* The names of use_device (acc host_data) and use_device_ptr / use_device_addr
 * (omp target data): pointers and arrays, whose device addresses the body
 * gets in their place (codegen shadows the names). */
static void use_device_vars(Program *p, DataRegion *r) {
  const Directive *d = r->dir;
  for (int c = 0; c < d->nclauses; c++) {
    const Clause *cl = &d->clauses[c];
    if (cl->kind != CL_USE_DEVICE && cl->kind != CL_USE_DEVICE_PTR && cl->kind != CL_USE_DEVICE_ADDR) continue;
    for (int i = 0; i < cl->nitems; i++) {
      const VarItem *it = &cl->items[i];
      const CVar *v = xf_lookup_var(p, it->name, d->loc.offset);
      if (!v) {
        xf_unknown_clause_item(p, cl, it);
        continue;
      }
      if (it->nsubs)
        diag_error(it->loc, "'%s' takes variables, not sections: write '%s(%s)'", clause_spelling(cl->kind),
                   clause_spelling(cl->kind), it->name);
      else if (v->tkind != VT_POINTER && v->tkind != VT_ARRAY && v->tkind != VT_VLA_POINTER)
        diag_error(it->loc, "'%s' in '%s' is not a pointer or an array: gtcc gives device addresses of arrays and "
                            "the data pointers point to",
                   it->name, clause_spelling(cl->kind));
      else
        VEC_PUSH(r->use_device, r->nuse_device, r->use_device_cap, v);
    }
  }
  if (d->kind == DIR_ACC_HOST_DATA && !dir_find_clause(d, CL_USE_DEVICE))
    diag_error(d->loc, "'acc host_data' needs a 'use_device' clause");
  r->keep_absent = dir_find_clause(d, CL_IF_PRESENT) || dir_family(d->kind) == FAM_OMP;
}

static void make_data_region(Program *p, Stmt *s, Directive *d, unsigned wrap_begin) {
  check_supported(d);
  DataRegion *r = xcalloc(1, sizeof *r);
  r->dir = d;
  r->stmt = s;
  r->wrap_begin = wrap_begin;
  xf_directive_maps(p, d, &r->maps);
  use_device_vars(p, r);
  const Clause *c = dir_find_clause(d, CL_IF);
  if (c) r->if_cond = c->expr;
  const Stmt *exit = r->maps.n ? find_exit(p->tu->file->text, s, s) : NULL; /* host_data has nothing to undo */
  if (exit)
    diag_error(exit->loc, "'%s' inside the '%s' region at line %d would skip its end; restructure the code",
               exit->kind == ST_RETURN ? "return" : "goto", dir_name(d->kind), d->loc.line);
  VEC_PUSH(p->datas, p->ndatas, p->datas_cap, r);
}

static void make_standalone(Program *p, Directive *d) {
  check_supported(d);
  Standalone *sa = xcalloc(1, sizeof *sa);
  sa->dir = d;
  /* OpenMP's target update skips what is not present (OpenMP 5.x, a declare target global the
   * regions map themselves); OpenACC's update needs if_present for that */
  sa->if_present = dir_find_clause(d, CL_IF_PRESENT) != NULL || d->kind == DIR_OMP_TARGET_UPDATE;
  switch (d->kind) {
  case DIR_ACC_ENTER_DATA: case DIR_OMP_TARGET_ENTER_DATA: sa->kind = SA_ENTER; break;
  case DIR_ACC_EXIT_DATA: case DIR_OMP_TARGET_EXIT_DATA: sa->kind = SA_EXIT; break;
  default: sa->kind = SA_UPDATE; break;
  }
  xf_directive_maps(p, d, &sa->maps);
  if (sa->maps.n == 0 && diag_error_count() == 0)
    diag_error(d->loc, "'%s' needs at least one data clause", dir_name(d->kind));
  const Clause *c = dir_find_clause(d, CL_IF);
  if (c) sa->if_cond = c->expr;
  VEC_PUSH(p->standalones, p->nstandalones, p->standalones_cap, sa);
}

static bool is_standalone_data(DirKind k) {
  return k == DIR_ACC_ENTER_DATA || k == DIR_ACC_EXIT_DATA || k == DIR_ACC_UPDATE || k == DIR_OMP_TARGET_ENTER_DATA ||
         k == DIR_OMP_TARGET_EXIT_DATA || k == DIR_OMP_TARGET_UPDATE;
}

/* ---- walking the statement tree ------------------------------------------ */

/* A loop directive inside s (not one of s's own). */
static const Directive *inner_loop_directive(const Program *p, const Stmt *s) {
  for (int i = 0; i < p->tu->ndirs; i++) {
    const Directive *d = p->tu->dirs[i];
    if (d->loc.offset > s->begin && d->loc.offset < s->end && is_loop(d->kind)) return d;
  }
  return NULL;
}

static bool only_atomics(const Stmt *s) {
  for (int i = 0; i < s->ndirs; i++)
    if (!xf_is_atomic(s->dirs[i])) return false;
  return true;
}

static void unmarked_error(const Stmt *s, const Directive *d) {
  diag_error(s->loc, "gtcc does not parallelize unmarked code inside '%s': mark each loop with a loop directive "
                     "('acc loop independent', 'omp distribute parallel for') or use a combined construct",
             dir_name(d->kind));
}

/* `acc kernels` parallelizes loops without a directive where it can prove
 * them independent; gtcc does not try, so it says so. */
static void warn_sequential_loops(const Stmt *s, const Directive *d) {
  if (d->kind != DIR_ACC_KERNELS) return;
  if (s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO) {
    diag_warning(s->loc, "this loop in 'acc kernels' runs sequentially in one GPU thread: gtcc does not parallelize "
                         "loops without a loop directive (add 'acc loop independent' if its iterations are)");
    return;
  }
  if (s->kind == ST_COMPOUND)
    for (int i = 0; i < s->nkids; i++) warn_sequential_loops(s->kids[i], d);
}

/* How kernel k leaves scalar v for the kernels after it in its region:
 * 0 unchanged or seen (a reduction's result goes to the host and the device;
 * acc kernels' serial scalars come back through k's own map), 1 changed in
 * the device copy of the region's mapping, 2 changed in serial code's own
 * firstprivate copy. */
static int scalar_change(const Kernel *k, const Capture *c) {
  if (c->kind == CAP_REDUCTION || (c->var->tkind != VT_SCALAR && c->var->tkind != VT_RECORD)) return 0;
  if (c->kind == CAP_VALUE && !k->serial) return 0; /* a loop's firstprivate copies: warned in capture.c */
  if (c->kind != CAP_SHARED && c->kind != CAP_VALUE) return 0;
  for (int i = 0; i < k->maps.n; i++)
    if (xf_maps_var(&k->maps.m[i], c->var)) return 0;
  bool writes = xf_subtree_uses(k->body, c->var, true, NULL) || c->fn_writes; /* or a function the body calls */
  return !writes ? 0 : c->kind == CAP_SHARED ? 1 : 2;
}

/* The kernels of one region get scalars by value from the host. One that
 * reads a scalar an earlier kernel of the region changed in the device copy
 * (a loop's atomic count, read by serial code after it) reads the device
 * copy instead; serial code's own firstprivate copy (`s = 2.0;` before a loop
 * using s) cannot reach a later kernel: an error. */
static void share_region_scalars(const Program *p, const Directive *construct, int first) {
  for (int i = first; i < p->nkernels; i++) {
    const Kernel *k = p->kernels[i];
    for (int c = 0; c < k->ncaps; c++) {
      int change = scalar_change(k, &k->caps[c]);
      if (!change) continue;
      const CVar *v = k->caps[c].var;
      for (int j = i + 1; j < p->nkernels; j++) {
        Capture *later = xf_find_capture(p->kernels[j], v);
        if (!later || later->kind != CAP_VALUE) continue;
        if (change == 1 && xf_has_mapping(p, p->kernels[j], v)) {
          later->kind = CAP_SHARED;
          continue;
        }
        diag_error(later->loc, "'%s' is read here by value from the host, but the code at line %d, earlier in the "
                               "same '%s', changed its own copy: set it before the construct, or map it "
                               "(map(tofrom: %s), copy(%s))",
                   v->name, k->caps[c].loc.line, dir_name(construct->kind), v->name, v->name);
        break;
      }
    }
  }
}

/* `acc parallel { acc loop for ... }`, `omp target teams { distribute ... }`,
 * or `omp target` + `teams distribute parallel for` on the same loop: each
 * loop with a loop directive becomes a kernel; the construct's data clauses
 * become a data region around them, formed first so the kernels see it.
 * Code without parallel loops (all of `acc serial`, a body with no loop
 * directive, a statement between the loops) runs in one thread. */
static void compute_region(Program *p, Stmt *s, Directive *d, int di) {
  if (d->kind == DIR_ACC_SERIAL || (di + 1 == s->ndirs && !inner_loop_directive(p, s))) {
    for (int j = di + 1; j < s->ndirs && d->kind == DIR_ACC_SERIAL; j++)
      if (!is_loop(s->dirs[j]->kind)) {
        diag_error(s->dirs[j]->loc, "'%s' inside 'acc serial' is not supported", dir_name(s->dirs[j]->kind));
        return;
      }
    warn_sequential_loops(s, d);
    make_serial_kernel(p, s, d, true, d->loc.offset);
    return;
  }
  if (s->kind != ST_COMPOUND) {
    Directive *ld = NULL;
    for (int j = di + 1; j < s->ndirs && !ld; j++)
      if (is_loop(s->dirs[j]->kind)) ld = s->dirs[j];
    if (s->kind != ST_FOR || !ld) {
      unmarked_error(s, d);
      return;
    }
    unsigned inner_begin = s->dirs[di + 1]->loc.offset;
    make_data_region(p, s, d, inner_begin);
    make_kernel(p, s, ld, d, inner_begin);
    return;
  }
  make_data_region(p, s, d, s->begin);
  int first = p->nkernels;
  bool device_code = false; /* a kernel made for an earlier statement */
  for (int i = 0; i < s->nkids; i++) {
    Stmt *it = s->kids[i];
    if (it->kind == ST_NULL) continue;
    Directive *ld = NULL;
    for (int j = 0; j < it->ndirs; j++)
      if (is_loop(it->dirs[j]->kind)) ld = it->dirs[j];
    bool kernel = it->kind != ST_DECL;
    if (it->kind == ST_FOR && ld) {
      make_kernel(p, it, ld, d, it->dirs[0]->loc.offset);
    } else if (it->kind == ST_DECL && !device_code) {
      /* before any device code: the host declares it, the loops get it (firstprivate), as if
       * it were declared before the construct; its initializer sees what the device will */
      kernel = false;
    } else if (it->kind == ST_DECL) {
      diag_error(it->loc, "a declaration after device code in '%s' is not supported by gtcc: its initializer "
                          "could read what the device wrote; declare the variable before the construct or the "
                          "first loop",
                 dir_name(d->kind));
    } else if (!only_atomics(it) || inner_loop_directive(p, it)) {
      unmarked_error(it, d);
    } else {
      warn_sequential_loops(it, d);
      make_serial_kernel(p, it, d, false, it->begin);
    }
    device_code = device_code || kernel;
  }
  share_region_scalars(p, d, first);
}

/* Handles the directives attached to s from index i on. Returns true if s
 * (and its subtree) was consumed by a kernel. */
static bool handle_dirs(Program *p, Stmt *s, int i) {
  for (; i < s->ndirs; i++) {
    Directive *d = s->dirs[i];
    unsigned flags = dir_flags(d->kind);
    if (flags & DF_DATA) {
      make_data_region(p, s, d, i + 1 < s->ndirs ? s->dirs[i + 1]->loc.offset : s->begin);
      continue;
    }
    if ((d->kind == DIR_OMP_PARALLEL || d->kind == DIR_OMP_PARALLEL_MASTER || d->kind == DIR_OMP_PARALLEL_MASKED ||
         d->kind == DIR_OMP_TARGET || d->kind == DIR_OMP_TARGET_TEAMS || d->kind == DIR_OMP_TARGET_PARALLEL) &&
        xf_task_region(p, s, i))
      return true;
    if (d->kind == DIR_ACC_SERIAL_LOOP) { /* the loop runs in one thread */
      make_serial_kernel(p, s, d, true, d->loc.offset);
      return true;
    }
    if ((flags & DF_COMPUTE) && (flags & DF_LOOP)) {
      make_kernel(p, s, d, NULL, d->loc.offset);
      return true;
    }
    if (flags & DF_COMPUTE) {
      compute_region(p, s, d, i);
      return true;
    }
    const Function *fn = fe_function_at(p->tu, d->loc.offset);
    if (d->kind == DIR_ACC_LOOP && !(fn && fn->device_marked)) {
      diag_error(d->loc, "'acc loop' must be inside a compute construct ('acc parallel' or 'acc kernels') or in "
                         "a function marked 'acc routine'");
      return true;
    }
    /* An `acc loop` of an `acc routine` runs sequentially in the calling thread. */
    /* Host OpenMP (parallel, for, task, single, ...): kept for the host compiler. */
  }
  return false;
}

static void walk(Program *p, Stmt *s) {
  if (!s || diag_too_many()) return;
  if (handle_dirs(p, s, 0)) return;
  for (int i = 0; i < s->nkids; i++) walk(p, s->kids[i]);
}

void xf_form_regions(Program *p) {
  for (int i = 0; i < p->tu->ndirs; i++)
    if (is_standalone_data(p->tu->dirs[i]->kind)) make_standalone(p, p->tu->dirs[i]);
  for (int i = 0; i < p->tu->nfuncs; i++) walk(p, p->tu->funcs[i]->body);
}

/* ---- entry --------------------------------------------------------------- */

Program *xf_lower(TranslationUnit *tu, const XfOptions *opts) {
  int errors_before = diag_error_count();
  Program *p = xcalloc(1, sizeof *p);
  p->tu = tu;
  if (opts) p->opts = *opts;
  else p->opts.cdp_threshold = p->opts.cdp_warp_threshold = p->opts.device_stack = -1;
  xf_declares(p);
  xf_form_regions(p);
  xf_device_functions(p);
  xf_check_declares(p);
  xf_check_names(p);
  if (diag_error_count() > errors_before) {
    xf_free(p);
    return NULL;
  }
  return p;
}

int xf_nkernels(const Program *p) { return p->nkernels; }

static void free_maps(DataMapList *l) {
  for (int i = 0; i < l->n; i++) free(l->m[i].addr_text), free(l->m[i].bytes_text);
  free(l->m);
}

static bool map_text_owned_by(const DataMapList *l, const char *text) {
  for (int i = 0; i < l->n; i++)
    if (l->m[i].addr_text == text) return true;
  return false;
}

/* Stage kernels share the region's name and the map texts merged into it. */
static void free_task_region(TaskRegion *tr) {
  if (!tr) return;
  free(tr->deps);
  free(tr->inner_reds);
  free(tr);
}

static void free_phased(Kernel *k) {
  PhasedRegion *ph = k->phased;
  for (int s = 0; s < ph->nstages; s++) {
    Kernel *sk = ph->stages[s].k;
    for (int i = 0; i < sk->maps.n; i++)
      if (!map_text_owned_by(&k->maps, sk->maps.m[i].addr_text)) free(sk->maps.m[i].addr_text), free(sk->maps.m[i].bytes_text);
    free(sk->maps.m);
    free(sk->caps);
    free(sk->seq_inner);
    free(sk->reported);
    free_task_region(sk->tasks);
    free(sk);
  }
  free(ph->stages);
  free(ph->waits);
  free(ph->groups);
  free(ph->snap);
  for (int i = 0; i < ph->nsplits; i++) free(ph->splits[i].vars);
  free(ph->splits);
  free(ph);
}

void xf_free(Program *p) {
  if (!p) return;
  for (int i = 0; i < p->nkernels; i++) {
    Kernel *k = p->kernels[i];
    if (k->phased) free_phased(k); /* before the region's maps: it looks at them */
    free(k->name);
    free(k->caps);
    free_maps(&k->maps);
    free(k->seq_inner);
    free(k->reported);
    free(k->region_privates);
    xf_free_nested(k->nested);
    free_task_region(k->tasks);
    free(k);
  }
  free(p->kernels);
  for (int i = 0; i < p->ndatas; i++) free_maps(&p->datas[i]->maps), free(p->datas[i]->use_device), free(p->datas[i]);
  free(p->datas);
  for (int i = 0; i < p->nstandalones; i++) free_maps(&p->standalones[i]->maps), free(p->standalones[i]);
  free(p->standalones);
  for (int i = 0; i < p->ndeclares; i++)
    free_maps(&p->declares[i]->maps), free(p->declares[i]->returns), free(p->declares[i]);
  free(p->declares);
  free(p->device_funcs);
  free(p->device_protos);
  free(p->device_header_fns);
  free(p->hoisted_types);
  free(p->device_consts);
  free(p->device_globals);
  free(p);
}
