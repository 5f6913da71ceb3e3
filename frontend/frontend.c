/* fe_parse: pragmas (flex/bison) + C (libclang) + attachment. */
#include "frontend.h"
#include "user_headers.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

char *fe_text(const TranslationUnit *tu, unsigned begin, unsigned end) {
  if (end > tu->file->len) end = (unsigned)tu->file->len;
  if (begin > end) begin = end;
  char *r = xstrndup(tu->file->text + begin, end - begin);
  /* Comments become blanks: the text goes into generated lines, where a `//` comment would hide
   * what follows it. String and character literals are kept as written. */
  size_t n = strlen(r); /* a NUL byte ends the copy (reported elsewhere) */
  for (size_t i = 0; i < n;) {
    int comment;
    size_t len = src_comment_or_literal(r, n, i, &comment);
    for (size_t k = i; comment && k < i + len; k++)
      if (r[k] != '\n') r[k] = ' ';
    i += len ? len : 1;
  }
  return r;
}

int fe_file_has_pragmas(const char *path) {
  SrcFile *f = srcfile_load(path);
  if (!f) return 0;
  PragmaLine *p = NULL;
  int n = fe_scan_pragmas(f, &p);
  fe_free_pragmas(p, n);
  srcfile_free(f);
  return n > 0;
}

/* Does the text [b, e) name the macro `name` (as a whole word)? */
static bool names_macro(const char *text, unsigned b, unsigned e, const char *name) {
  size_t n = strlen(name);
  for (unsigned i = b; i + n <= e; i++) {
    if (memcmp(text + i, name, n) != 0) continue;
    bool word_start = i == 0 || !(isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_');
    bool word_end = i + n >= e || !(isalnum((unsigned char)text[i + n]) || text[i + n] == '_');
    if (word_start && word_end) return true;
  }
  return false;
}

/* Pragma lines in blocks the preprocessor skips are not part of the
 * program: the C compiler never sees them, so gtcc must not lower them.
 * gtcc never defines _OPENACC and defines _OPENMP only with -fopenmp (as
 * cc does), so a block chosen by those may be skipped: say so once per
 * block, since its directives may be the ones the user meant. */
static void drop_skipped_pragmas(TranslationUnit *tu) {
  int kept = 0, block = 0, warned = -1;
  for (int i = 0; i < tu->npragmas; i++) {
    PragmaLine *pl = &tu->pragmas[i];
    while (block < tu->nskipped && tu->skipped[block].end <= pl->loc.offset) block++;
    bool skipped = block < tu->nskipped && tu->skipped[block].begin <= pl->loc.offset;
    if (!skipped) {
      tu->pragmas[kept++] = *pl;
      continue;
    }
    const OffsetRange *r = &tu->skipped[block];
    const char *text = tu->file->text;
    unsigned line_end = r->begin;
    while (line_end < r->end && text[line_end] != '\n') line_end++;
    if (warned != block && (names_macro(text, r->begin, line_end, "_OPENACC") ||
                            names_macro(text, r->begin, line_end, "_OPENMP"))) {
      diag_warning(srcfile_loc(tu->file, r->begin),
                   "the directives in this block are ignored because the preprocessor skips it: gtcc never "
                   "defines _OPENACC, and defines _OPENMP only with -fopenmp (it defines __GTCC__)");
      warned = block;
    }
    free(pl->text);
    free(pl->text_offsets);
    free(pl->macro);
  }
  tu->npragmas = kept;
}

/* A directive a macro's `_Pragma` holds takes effect where the macro
 * expands; gtcc reads directives from the file, so it never lowers one.
 * Leaving out a loop directive, `parallel`, `teams`, `single` or `master`
 * only makes code sequential (cc still compiles the macro in host code);
 * leaving out a compute, data, task, atomic, critical or standalone directive
 * could change results (an atomic's update would race), so those are errors. */
static void report_macro_directive(const PragmaLine *p, const Directive *d) {
  const char *fam = p->family == FAM_ACC ? "acc" : "omp";
  unsigned flags = dir_flags(d->kind);
  /* routine / declare target mark nothing gtcc needs: device calls are compiled for the device anyway */
  if ((flags & DF_DECLARATIVE) && d->kind != DIR_ACC_DECLARE) return;
  if (flags & DF_HINT) return; /* acc cache: nothing to lower anyway */
  bool harmless = !(flags & (DF_COMPUTE | DF_DATA | DF_STANDALONE)) && d->kind != DIR_ACC_DECLARE && d->kind != DIR_OMP_TASK &&
                  d->kind != DIR_OMP_TASKGROUP && d->kind != DIR_OMP_TASKLOOP && d->kind != DIR_ACC_ATOMIC && d->kind != DIR_OMP_ATOMIC &&
                  d->kind != DIR_OMP_CRITICAL;
  if (p->macro_argument) {
    char *msg = xasprintf("'%s %s' as the argument of macro '%s', which makes it a _Pragma: not lowered by gtcc%s; "
                          "gtcc reads the directives written in the file: write '#pragma %s %s' here",
                          fam, dir_spelling(d->kind), p->macro,
                          harmless ? " (where it stands in an offload region, its code runs sequentially)"
                                   : ", which would change the results",
                          fam, dir_spelling(d->kind));
    if (harmless) diag_warning(p->loc, "%s", msg);
    else diag_error(p->loc, "%s", msg);
    free(msg);
    return;
  }
  if (harmless)
    diag_warning(p->loc,
                 "'%s %s' in the definition of macro '%s' is not lowered by gtcc: where the macro expands "
                 "in an offload region its code runs sequentially; write '#pragma %s %s' there to lower it",
                 fam, dir_spelling(d->kind), p->macro, fam, dir_spelling(d->kind));
  else
    diag_error(p->loc,
               "'%s %s' in the definition of macro '%s': gtcc reads the directives written in the file, "
               "not those macros expand to; write '#pragma %s %s' where the macro is used",
               fam, dir_spelling(d->kind), p->macro, fam, dir_spelling(d->kind));
}

/* A NUL byte outside the directives (those report it themselves): cc
 * ignores it with a warning, but gtcc's copies of the text would end there. */
static void report_nul_bytes(const TranslationUnit *tu) {
  const SrcFile *f = tu->file;
  for (size_t i = 0, p = 0; i < f->len; i++) {
    if (f->text[i]) continue;
    while (p < (size_t)tu->npragmas && tu->pragmas[p].end_offset <= i) p++;
    if (p < (size_t)tu->npragmas && tu->pragmas[p].loc.offset <= i) continue;
    diag_error(srcfile_loc(f, (unsigned)i), "NUL character in the source file: remove it (gtcc copies the file's text)");
    return;
  }
}

TranslationUnit *fe_parse(const char *path, const FeOptions *opts) {
  SrcFile *f = srcfile_load(path);
  if (!f) {
    diag_error((SrcLoc){0}, "cannot read '%s': %s", path, strerror(errno));
    return NULL;
  }
  TranslationUnit *tu = xcalloc(1, sizeof *tu);
  tu->file = f;
  if (opts && opts->nclang_args > 0) {
    tu->clang_args = xmalloc((size_t)opts->nclang_args * sizeof *tu->clang_args);
    for (int i = 0; i < opts->nclang_args; i++) tu->clang_args[i] = xstrdup(opts->clang_args[i]);
    tu->nclang_args = opts->nclang_args;
  }
  tu->npragmas = fe_scan_pragmas(f, &tu->pragmas);
  report_nul_bytes(tu);
  int c_status = fe_parse_c(tu, opts);
  drop_skipped_pragmas(tu);
  int cap = 0;
  for (int i = 0; i < tu->npragmas && !diag_too_many(); i++) {
    /* The directive text is a C string: a NUL byte would silently end it. */
    const char *nul = memchr(f->text + tu->pragmas[i].loc.offset, '\0',
                             tu->pragmas[i].end_offset - tu->pragmas[i].loc.offset);
    if (nul) {
      diag_error(srcfile_loc(f, (unsigned)(nul - f->text)), "NUL character in directive");
      continue;
    }
    Directive *d = fe_parse_directive(&tu->pragmas[i]);
    if (d && tu->pragmas[i].macro) {
      report_macro_directive(&tu->pragmas[i], d);
      fe_free_directive(d);
      d = NULL;
    }
    if (d) VEC_PUSH(tu->dirs, tu->ndirs, cap, d);
  }
  if (c_status != 0) {
    /* After C errors the statement tree is clang's recovery: attaching
     * directives to it would only add confusing follow-on errors. */
    if (tu->nfuncs == 0 && tu->ntops == 0) {
      fe_free(tu);
      return NULL;
    }
    return tu;
  }
  fe_attach_directives(tu);
  fe_mark_device_functions(tu);
  fe_plan_atomics(tu);
  fe_plan_criticals(tu);
  fe_fold_clause_constants(tu, opts);
  fe_check_clause_exprs(tu, opts);
  fe_lower_taskloops(tu);
  return tu;
}

/* ---- dump (--dump-after=parse) ------------------------------------------ */

static const char *stmt_kind_name(StmtKind k) {
  static const char *names[] = {"for", "compound", "if", "while", "do", "switch", "decl", "expr",
                                "return", "break", "continue", "goto", "label", "null", "other"};
  return names[k];
}

static void dump_stmt(const Stmt *s, FILE *out, int depth) {
  fprintf(out, "%*s%s @%d:%d", 2 * depth, "", stmt_kind_name(s->kind), s->loc.line, s->loc.col);
  for (int i = 0; i < s->ndirs; i++) fprintf(out, " [%s]", dir_name(s->dirs[i]->kind));
  if (s->loop && s->loop->canonical) {
    static const char *rel[] = {"<", "<=", ">", ">="};
    fprintf(out, " loop(%s = %s; %s %s; += %s)", s->loop->iv->name, s->loop->lb.text, rel[s->loop->relop],
            s->loop->ub.text, s->loop->step.text);
  } else if (s->loop)
    fprintf(out, " non-canonical(%s)", s->loop->why_not);
  for (int i = 0; i < s->nuses; i++)
    fprintf(out, " %s%s%s", s->uses[i].var->name, s->uses[i].write ? "=" : "", s->uses[i].elem_write ? "[]=" : "");
  for (int i = 0; i < s->ncalls; i++) fprintf(out, " call:%s%s", s->calls[i].name, s->calls[i].def ? "(def)" : "");
  fputc('\n', out);
  for (int i = 0; i < s->nkids; i++) dump_stmt(s->kids[i], out, depth + 1);
}

void fe_dump(const TranslationUnit *tu, FILE *out) {
  fprintf(out, "== parse: %s: %d directives, %d functions\n", tu->file->path, tu->ndirs, tu->nfuncs);
  for (int i = 0; i < tu->ndirs; i++) {
    const Directive *d = tu->dirs[i];
    fprintf(out, "directive %d:%d %s", d->loc.line, d->loc.col, dir_name(d->kind));
    for (int c = 0; c < d->nclauses; c++) {
      const Clause *cl = &d->clauses[c];
      fprintf(out, " %s", clause_spelling(cl->kind));
      if (cl->expr.text) fprintf(out, "(%s)", cl->expr.text);
      for (int k = 0; k < cl->nitems; k++) {
        fprintf(out, "%s%s", k ? "," : "(", cl->items[k].name);
        for (int sidx = 0; sidx < cl->items[k].nsubs; sidx++) {
          const Subscript *sb = &cl->items[k].subs[sidx];
          if (sb->is_section)
            fprintf(out, "[%s:%s]", sb->lo.text ? sb->lo.text : "", sb->len.text ? sb->len.text : "");
          else
            fprintf(out, "[%s]", sb->lo.text ? sb->lo.text : "");
        }
        if (k == cl->nitems - 1) fputc(')', out);
      }
    }
    fputc('\n', out);
  }
  for (int i = 0; i < tu->nfuncs; i++) {
    fprintf(out, "function %s @%d:%d\n", tu->funcs[i]->name, tu->funcs[i]->loc.line, tu->funcs[i]->loc.col);
    if (tu->funcs[i]->body) dump_stmt(tu->funcs[i]->body, out, 1);
  }
}

/* ---- free ---------------------------------------------------------------- */

static void free_expr(Expr *e) { free(e->text); }

static void free_names(NameRef *v, int n) {
  for (int i = 0; i < n; i++) free(v[i].name);
  free(v);
}

void fe_free_shape(ExprShape *e) {
  if (!e) return;
  fe_free_shape(e->a);
  fe_free_shape(e->b);
  fe_free_shape(e->c);
  free(e->type);
  free(e->macro);
  free(e);
}

static void free_stmt(Stmt *s) {
  if (!s) return;
  fe_free_shape(s->shape);
  for (int i = 0; i < s->nkids; i++) free_stmt(s->kids[i]);
  free(s->kids);
  if (s->loop) {
    free_expr(&s->loop->lb);
    free_expr(&s->loop->ub);
    free_expr(&s->loop->step);
    free(s->loop);
  }
  free(s->uses);
  free(s->elem_reads);
  for (int i = 0; i < s->ncalls; i++) free(s->calls[i].name);
  free(s->calls);
  free(s->decls);
  free_names(s->names, s->nnames);
  free(s->dirs);
  free(s);
}

void fe_free(TranslationUnit *tu) {
  if (!tu) return;
  for (int i = 0; i < tu->nfuncs; i++) {
    free_stmt(tu->funcs[i]->body);
    free(tu->funcs[i]->name);
    free(tu->funcs[i]->params);
    free(tu->funcs[i]);
  }
  free(tu->funcs);
  for (int i = 0; i < tu->ndirs; i++) fe_free_directive(tu->dirs[i]);
  free(tu->dirs);
  free(tu->atomics);
  fe_free_pragmas(tu->pragmas, tu->npragmas);
  for (int i = 0; i < tu->ntops; i++) free(tu->tops[i].name);
  free(tu->tops);
  fe_free_user_headers(tu);
  for (int i = 0; i < tu->nouter_macros; i++) free(tu->outer_macros[i].name), free(tu->outer_macros[i].text);
  free(tu->outer_macros);
  free_names(tu->top_names, tu->ntop_names);
  for (int i = 0; i < tu->nenumerators; i++) free(tu->enumerators[i]);
  free(tu->enumerators);
  for (int i = 0; i < tu->nmacros; i++) free(tu->macros[i]);
  free(tu->macros);
  for (int i = 0; i < tu->nvars; i++) {
    CVar *v = tu->vars[i];
    free(v->name), free(v->type), free(v->elem_type), free(v->vla_type);
    for (int d = 0; d < MAX_DIMS; d++) free(v->dim_text[d]);
    if (v->type_ref) free_names(v->type_ref, 1);
    free(v);
  }
  free(tu->vars);
  for (int i = 0; i < tu->nclang_args; i++) free(tu->clang_args[i]);
  free(tu->clang_args);
  free(tu->skipped);
  for (int i = 0; i < tu->ncxx_fixes; i++) free(tu->cxx_fixes[i].text);
  for (int i = 0; i < tu->ncritical_names; i++) free(tu->critical_names[i]);
  free(tu->critical_names);
  free(tu->cxx_fixes);
  for (int i = 0; i < tu->ncuda_named_types; i++) free(tu->cuda_named_types[i]);
  free(tu->cuda_named_types);
  srcfile_free(tu->file);
  free(tu);
}
