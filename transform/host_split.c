/* Host code of a phased task region that needs the tasks' data
 * (transform/phases.c splits the region before it, HostSplit): which
 * arrays and pointers a statement reads or writes through, which calls may
 * reach memory, and where in a loop or if header the split can go. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "lir.h"

/* `&x[i]...[k]` (subscripts at `at`, the variable at `var`) only computes
 * an address, unless `->` follows the subscripts. */
static bool address_only(const char *text, size_t len, size_t var, size_t at) {
  if (!xf_unary_before(text, var, '&')) return false;
  size_t amp = var;
  while (amp > 0 && text[amp - 1] != '&') amp--;
  if (amp > 0 && xf_unary_before(text, amp - 1, '*')) return false; /* *&x[i] */
  while (at < len && text[at] == '[') {
    int depth = 0;
    for (; at < len; at++) {
      if (text[at] == '[') depth++;
      else if (text[at] == ']' && --depth == 0) break;
    }
    if (at++ >= len) return false;
    while (at < len && isspace((unsigned char)text[at])) at++;
  }
  return !(at + 1 < len && text[at] == '-' && text[at + 1] == '>');
}

/* The file offset of the first non-space after the use's name. */
static size_t after_name(const Program *p, const VarUse *u) {
  const char *text = p->tu->file->text;
  size_t len = p->tu->file->len, at = u->loc.offset + strlen(u->var->name);
  while (at < len && isspace((unsigned char)text[at])) at++;
  return at;
}

/* Is this use `&x[i]`: an element's address, a pointer value? */
static bool address_of_element(const Program *p, const VarUse *u) {
  size_t len = p->tu->file->len, at = after_name(p, u);
  return at < len && p->tu->file->text[at] == '[' && address_only(p->tu->file->text, len, u->loc.offset, at);
}

static bool arrow_at(const char *text, size_t len, size_t at) {
  return at + 1 < len && text[at] == '-' && text[at + 1] == '>';
}

/* Skips spaces and comments from at. */
static size_t skip_blank(const char *t, size_t len, size_t at) {
  for (;;) {
    while (at < len && isspace((unsigned char)t[at])) at++;
    if (at + 1 < len && t[at] == '/' && t[at + 1] == '/') {
      while (at < len && t[at] != '\n') at++;
    } else if (at + 1 < len && t[at] == '/' && t[at + 1] == '*') {
      const char *e = strstr(t + at + 2, "*/");
      at = e ? (size_t)(e - t) + 2 : len;
    } else {
      return at;
    }
  }
}

bool xf_paren_at(const char *t, size_t len, size_t at, size_t *open, size_t *close, size_t semi[2]) {
  at = skip_blank(t, len, at);
  if (at >= len || t[at] != '(') return false;
  *open = at;
  int depth = 0, nsemi = 0;
  for (; at < len; at++) {
    char c = t[at];
    if (c == '"' || c == '\'') { /* a literal: skip it */
      for (at++; at < len && t[at] != c; at++)
        if (t[at] == '\\') at++;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') depth++;
    else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
      *close = at;
      return c == ')';
    } else if (c == ';' && depth == 1 && nsemi < 2) semi[nsemi++] = (unsigned)at;
  }
  return false;
}

/* Is the use inside a group that is dereferenced: *(x + 1), (x + 1)[0],
 * ((long *)x)[0], or a subscript (0[x])? Walks the enclosing groups out to
 * the statement's edge. */
static bool group_derefs(const char *text, size_t len, size_t at) {
  int depth = 0;
  for (size_t b = at; b > 0; b--) {
    char c = text[b - 1];
    if (depth == 0 && (c == ';' || c == '{' || c == '}')) return false;
    if (c == ')' || c == ']') {
      depth++;
    } else if (c == '[') {
      if (depth == 0) return true;
      depth--;
    } else if (c == '(') {
      if (depth > 0) {
        depth--;
        continue;
      }
      if (xf_unary_before(text, b - 1, '*')) return true;
      size_t open, close, semi[2] = {0, 0};
      if (!xf_paren_at(text, len, b - 1, &open, &close, semi)) return false;
      size_t n = skip_blank(text, len, close + 1);
      if (n < len && (text[n] == '[' || arrow_at(text, len, n))) return true;
    }
  }
  return false;
}

/* Does this use of a pointer or array read or write memory: x[...], x->f,
 * a unary *x, or through a group as above? (Copying the pointer's value,
 * x + 1 as a value, does not.) */
static bool use_derefs(const Program *p, const VarUse *u) {
  const char *text = p->tu->file->text;
  size_t len = p->tu->file->len, at = after_name(p, u);
  if (at < len && text[at] == '[') return true;
  if (arrow_at(text, len, at)) return true;
  return xf_unary_before(text, u->loc.offset, '*') || group_derefs(text, len, u->loc.offset);
}

/* A struct by value reached through a pointer member: s.p[i], s.p->f,
 * s->... (a record variable named with -> is a pointer in C++ only). */
static bool member_derefs(const Program *p, const VarUse *u) {
  const char *text = p->tu->file->text;
  size_t len = p->tu->file->len, at = after_name(p, u);
  while (at < len && (text[at] == '.' || arrow_at(text, len, at))) {
    if (text[at] == '-') return true;
    at++;
    while (at < len && isspace((unsigned char)text[at])) at++;
    while (at < len && (isalnum((unsigned char)text[at]) || text[at] == '_')) at++;
    while (at < len && isspace((unsigned char)text[at])) at++;
    if (at < len && text[at] == '[') return true;
  }
  return false;
}

/* Pointers to pointers and arrays of pointers: what they reach is not
 * named in the statement. */
static bool indirect(const CVar *v) {
  return (v->tkind == VT_POINTER || v->tkind == VT_ARRAY) && v->elem_type && strchr(v->elem_type, '*');
}

/* Library functions that reach no memory but through their arguments
 * (output of values, math): a call to one needs no split by itself; the
 * arrays and pointers its statement names still count as read. */
static bool plain_library_call(const char *name) {
  static const char *const names[] = {
      "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "putc", "fflush", "sqrt", "sqrtf", "fabs", "fabsf",
      "exp", "expf", "log", "logf", "log2", "log10", "pow", "powf", "fmax", "fmin", "fmaxf", "fminf", "floor",
      "ceil", "round", "sin", "cos", "tan", "atan", "atan2", "tanh", "abs", "labs", "llabs", "hypot", "cbrt", NULL};
  for (int i = 0; names[i]; i++)
    if (!strcmp(name, names[i])) return true;
  return false;
}

bool xf_pointerish(const CVar *v) {
  return v->tkind == VT_ARRAY || v->tkind == VT_POINTER || v->tkind == VT_VLA_POINTER;
}

/* A function of this file that reaches no memory: no arrays or pointers,
 * no globals but const scalars, and calls only such functions. */
static bool pure_function(const Stmt *s, int depth) {
  if (depth > 8) return false;
  for (int i = 0; i < s->nuses; i++) {
    const CVar *v = s->uses[i].var;
    if (xf_pointerish(v) || (v->is_global && !(v->is_const && v->tkind == VT_SCALAR))) return false;
  }
  for (int i = 0; i < s->ncalls; i++) {
    const CallUse *c = &s->calls[i];
    if (!plain_library_call(c->name) && !(c->def && c->def->body && pure_function(c->def->body, depth + 1)))
      return false;
  }
  for (int i = 0; i < s->nkids; i++)
    if (!pure_function(s->kids[i], depth)) return false;
  return true;
}

static bool is_std_stream(const CVar *v) {
  return v->is_global && (!strcmp(v->name, "stdout") || !strcmp(v->name, "stderr") || !strcmp(v->name, "stdin"));
}

/* ---- storage no task can reach --------------------------------------------------- */

/* Does a task in s use v in its body? */
static bool tasks_use(const Stmt *s, const CVar *v) {
  for (int d = 0; d < s->ndirs; d++)
    if (s->dirs[d]->kind == DIR_OMP_TASK) return xf_subtree_uses(s, v, false, NULL);
  for (int i = 0; i < s->nkids; i++)
    if (tasks_use(s->kids[i], v)) return true;
  return false;
}

/* Does a clause of a directive in [begin, end) name v (map, depend, firstprivate, ...)? */
static bool clauses_name(const Program *p, unsigned begin, unsigned end, const CVar *v) {
  for (int i = 0; i < p->tu->ndirs; i++) {
    const Directive *d = p->tu->dirs[i];
    if (d->loc.offset < begin || d->loc.offset >= end) continue;
    for (int c = 0; c < d->nclauses; c++)
      for (int j = 0; j < d->clauses[c].nitems; j++)
        if (xf_lookup_var(p, d->clauses[c].items[j].name, d->loc.offset) == v) return true;
  }
  return false;
}

/* A local array or struct of the host code that holds no pointer (which
 * could lead into the tasks' data), that no task uses, no clause of its
 * function names (a mapped copy would come back over host writes at the
 * data region's end) and whose address never becomes a value in its
 * function (&v, p = v, f(v), s.a as a pointer): no task can reach its
 * bytes, so reading or writing them needs none of the tasks' data
 * (tb.a[t % 4], hist[nh++] = r). */
static bool host_only(const Program *p, const Stmt *block, const CVar *v) {
  if (v->is_global || (v->tkind != VT_ARRAY && v->tkind != VT_RECORD) || v->holds_pointer) return false;
  if (tasks_use(block, v)) return false;
  const Function *fn = fe_function_at(p->tu, v->decl_offset);
  return fn && fn->body && !clauses_name(p, fn->begin, fn->end, v) &&
         !xf_find_use(fn->body, v, XF_USE_ADDR | XF_USE_DECAY);
}

void xf_split_var(HostSplit *hs, CVar *v, bool write) {
  for (int i = 0; i < hs->nvars; i++)
    if (hs->vars[i].var == v) {
      hs->vars[i].write |= write;
      return;
    }
  struct SplitVar sv = {v, write};
  VEC_PUSH(hs->vars, hs->nvars, hs->vars_cap, sv);
}

static void split_why(HostSplit *hs, const char *name, SrcLoc loc, bool call) {
  if (hs->why_name) return;
  hs->why_name = name;
  hs->why_loc = loc;
  hs->why_call = call;
}

/* What the statement's own expressions (not its kids) need of the memory
 * the tasks of block use, added to hs: arrays and pointers read or written
 * through; with a call, every array or pointer it names (a callee may write
 * through them, unless it is a plain library function). */
void xf_host_needs(const Program *p, const Stmt *block, const Stmt *s, HostSplit *hs) {
  bool call = false;
  for (int i = 0; i < s->ncalls; i++) {
    const CallUse *c = &s->calls[i];
    call = true;
    if (plain_library_call(c->name) || (c->def && c->def->body && pure_function(c->def->body, 0))) continue;
    hs->opaque_call = true;
    split_why(hs, s->calls[i].name, s->calls[i].loc, true);
  }
  for (int i = 0; i < s->nuses; i++) {
    const VarUse *u = &s->uses[i];
    if (host_only(p, block, u->var)) continue;
    if (u->var->tkind == VT_RECORD && (member_derefs(p, u) || xf_unary_before(p->tu->file->text, u->loc.offset, '*'))) {
      hs->all = true; /* through a pointer member: any mapped data */
      hs->all_write |= u->elem_write || hs->opaque_call;
      split_why(hs, u->var->name, u->loc, false);
      continue;
    }
    if (!xf_pointerish(u->var) || is_std_stream(u->var)) continue;
    bool through = !address_of_element(p, u) && (u->elem_write || use_derefs(p, u));
    if (!through && !call) continue;
    bool write = hs->opaque_call || u->elem_write || xf_unary_before(p->tu->file->text, u->loc.offset, '*') ||
                 group_derefs(p->tu->file->text, p->tu->file->len, u->loc.offset);
    if (indirect(u->var) && (through || hs->opaque_call)) {
      hs->all = true; /* f[1][i] with double *f[2]: the pointers it holds are not named here */
      hs->all_write |= write || call;
    }
    xf_split_var(hs, u->var, write);
    split_why(hs, u->var->name, u->loc, false);
  }
}

/* ---- headers of loops and ifs around tasks ---------------------------------------- */

bool xf_word_at(const char *t, size_t len, size_t at, const char *kw) {
  size_t n = strlen(kw);
  return at + n <= len && !strncmp(t + at, kw, n) && (at + n == len || !(isalnum((unsigned char)t[at + n]) || t[at + n] == '_'));
}

static void split_in(HostSplit *hs, const char *t, size_t begin, size_t end) {
  if (skip_blank(t, end, begin) >= end) return; /* an empty for clause: nothing to evaluate */
  hs->in[hs->nin].begin = (unsigned)begin;
  hs->in[hs->nin].end = (unsigned)end;
  hs->nin++;
}

/* Where the split code goes in the header of s: for `while (c)`, `if (c)`,
 * `switch (c)` and `do ... while (c)` in front of c; for a for loop before
 * the statement (its init) and in front of the condition and increment,
 * so that they see the tasks' data every time they run. */
bool xf_header_places(const Program *p, const Stmt *s, HostSplit *hs) {
  const char *t = p->tu->file->text;
  size_t len = s->end, open, close, semi[2] = {0, 0};
  static const struct { StmtKind kind; const char *kw; } kws[] = {
      {ST_WHILE, "while"}, {ST_IF, "if"}, {ST_SWITCH, "switch"}, {ST_FOR, "for"}};
  if (s->kind == ST_DO) {
    if (!s->nkids) return false;
    size_t at = skip_blank(t, len, s->kids[0]->end);
    if (!xf_word_at(t, len, at, "while") || !xf_paren_at(t, len, at + 5, &open, &close, semi)) return false;
    split_in(hs, t, open + 1, close);
    return hs->nin == 1;
  }
  for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++) {
    if (s->kind != kws[i].kind) continue;
    size_t at = s->begin;
    if (!xf_word_at(t, len, at, kws[i].kw) || !xf_paren_at(t, len, at + strlen(kws[i].kw), &open, &close, semi))
      return false;
    if (s->kind != ST_FOR) {
      split_in(hs, t, open + 1, close);
      return hs->nin == 1;
    }
    if (!semi[1]) return false;
    hs->before = true;
    split_in(hs, t, semi[0] + 1, semi[1]);
    split_in(hs, t, semi[1] + 1, close);
    return true;
  }
  return false;
}

/* ---- variables out of scope at the split ------------------------------------------ */

static void add_outer(const Stmt *s, const Stmt *top, HostSplit *hs, bool write) {
  for (int i = 0; i < s->nuses; i++) {
    CVar *v = s->uses[i].var;
    if (xf_pointerish(v) && !xf_is_local(top, v)) xf_split_var(hs, v, write);
  }
  for (int i = 0; i < s->nkids; i++) add_outer(s->kids[i], top, hs, write);
}

void xf_split_outer_only(const Stmt *s, HostSplit *hs) {
  bool inner = false, write = false;
  int kept = 0;
  for (int i = 0; i < hs->nvars; i++) {
    if (xf_is_local(s, hs->vars[i].var)) {
      inner = true;
      write |= hs->vars[i].write;
    } else {
      hs->vars[kept++] = hs->vars[i];
    }
  }
  hs->nvars = kept;
  if (!inner) return;
  add_outer(s, s, hs, write);
  hs->opaque_call = true; /* it may point into the globals the tasks use too */
}

/* The next call in expression text t from `from` on (a name before '(' other than sizeof):
 * returns its '(' with *name and *len its name, or NULL when there is none. */
static const char *next_call(const char *t, const char *from, const char **name, size_t *len) {
  for (const char *c = from; *c; c++) {
    if (*c != '(' || c == t) continue;
    const char *e = c;
    while (e > t && e[-1] == ' ') e--;
    const char *b = e;
    while (b > t && (isalnum((unsigned char)b[-1]) || b[-1] == '_')) b--;
    if (b < e && !(e - b == 6 && !strncmp(b, "sizeof", 6)) && !isdigit((unsigned char)*b)) {
      *name = b, *len = (size_t)(e - b);
      return c;
    }
  }
  return NULL;
}

bool xf_text_has_call(const char *t) {
  const char *name;
  size_t len;
  return next_call(t, t, &name, &len) != NULL;
}

/* A unary `*` in expression text (`*q`, `a + *q`): a load through a pointer. */
static bool text_has_deref(const char *t) {
  for (const char *c = t; *c; c++) {
    if (*c != '*') continue;
    const char *b = c;
    while (b > t && b[-1] == ' ') b--;
    if (b == t || strchr("([,+-*/%<>=!&|^?:~", b[-1])) return true;
  }
  return false;
}

/* A function of the file named name[0:len] that reaches no memory (pure_function). */
static bool pure_named(const Program *p, const char *name, size_t len) {
  for (int i = 0; i < p->tu->nfuncs; i++) {
    const Function *f = p->tu->funcs[i];
    if (f->body && strlen(f->name) == len && !strncmp(f->name, name, len)) return pure_function(f->body, 0);
  }
  return false;
}

/* Does a depend item's subscript read memory (u[perm[k]*bs], p->i, *q, a call of a function
 * that may: not a plain library function, nor one of the file that reaches no memory)?
 * The host walk computes it: then earlier tasks must have run. */
bool xf_text_reads_memory(const Program *p, const char *t) {
  if (strchr(t, '[') || strstr(t, "->") || text_has_deref(t)) return true;
  const char *name;
  size_t len;
  for (const char *c = next_call(t, t, &name, &len); c; c = next_call(t, c + 1, &name, &len)) {
    char *n = xstrndup(name, len);
    bool plain = plain_library_call(n);
    free(n);
    if (!plain && !pure_named(p, name, len)) return true;
  }
  return false;
}
