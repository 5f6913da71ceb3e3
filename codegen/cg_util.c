/* Small helpers shared by the two emitters. */
#include "cg_util.h"

#include "../frontend/cxx_fixes.h"

#include <ctype.h>
#include <string.h>

void cg_line_directive(StrBuf *sb, const TranslationUnit *tu, int line) { cg_line_directive_to(sb, tu->file->path, line); }

void cg_line_directive_to(StrBuf *sb, const char *path, int line) {
  sb_printf(sb, "#line %d \"", line);
  for (const char *c = path; *c; c++) {
    if (*c == '"' || *c == '\\') sb_putc(sb, '\\');
    sb_putc(sb, *c);
  }
  sb_puts(sb, "\"\n");
}

void cg_site(StrBuf *sb, const TranslationUnit *tu, const char *var, SrcLoc loc, const char *what) {
  sb_printf(sb, "static const gtrt_site %s = {\"", var);
  for (const char *c = tu->file->path; *c; c++) {
    if (*c == '"' || *c == '\\') sb_putc(sb, '\\');
    sb_putc(sb, *c);
  }
  sb_printf(sb, "\", %d, \"%s\"};", loc.line, what);
}

/* The next edit in file order from two lists sorted by fe_fix_order. */
static const TextFix *next_fix(const TranslationUnit *tu, int *i, const TextFix *extra, int nextra, int *j) {
  const TextFix *a = *i < tu->ncxx_fixes ? &tu->cxx_fixes[*i] : NULL, *b = *j < nextra ? &extra[*j] : NULL;
  if (a && (!b || fe_fix_order(a, b) <= 0)) return (*i)++, a;
  if (b) (*j)++;
  return b;
}

/* Copies [pos, end) of the file applying the C++ edits inside it
 * (tu->cxx_fixes) and the extra ones (same order); an edit that starts
 * inside a replaced range is left out. */
static void copy_with_fixes(StrBuf *sb, const TranslationUnit *tu, unsigned pos, unsigned end, const TextFix *extra,
                            int nextra) {
  int i = 0, j = 0;
  for (const TextFix *f; pos < end && (f = next_fix(tu, &i, extra, nextra, &j)) != NULL;) {
    if (f->begin < pos || f->end > end || (f->begin == end && f->end == end && f->text[0] != ')')) continue;
    sb_putn(sb, tu->file->text + pos, f->begin - pos);
    sb_puts(sb, f->text);
    pos = f->end;
  }
  if (pos < end) sb_putn(sb, tu->file->text + pos, end - pos);
}

/* Copies source text for the .gt.cu, turning pragma lines inside it into
 * comments that keep the line count (inner directives are handled by gtcc,
 * not nvcc) and applying the C++ edits. */
void cg_copy_source(StrBuf *sb, const TranslationUnit *tu, unsigned begin, unsigned end) {
  cg_copy_source_edited(sb, tu, begin, end, NULL, 0);
}

void cg_copy_source_edited(StrBuf *sb, const TranslationUnit *tu, unsigned begin, unsigned end, const TextFix *extra,
                           int nextra) {
  unsigned pos = begin;
  for (int i = 0; i < tu->npragmas; i++) {
    const PragmaLine *pl = &tu->pragmas[i];
    if (pl->macro || pl->loc.offset < pos || pl->loc.offset >= end) continue;
    copy_with_fixes(sb, tu, pos, pl->loc.offset, extra, nextra);
    sb_puts(sb, "/* gtcc: directive handled by gtcc */");
    unsigned stop = pl->end_offset < end ? pl->end_offset : end;
    for (unsigned j = pl->loc.offset; j < stop; j++)
      if (tu->file->text[j] == '\n') sb_putc(sb, '\n');
    pos = stop;
  }
  if (pos < end) copy_with_fixes(sb, tu, pos, end, extra, nextra);
}

void cg_gap_directives(StrBuf *sb, const TranslationUnit *tu, unsigned begin, unsigned end) {
  const char *t = tu->file->text;
  unsigned at = begin;
  while (at < end) {
    unsigned line = at, stop = at;
    while (stop < end && t[stop] != '\n') stop += (t[stop] == '\\' && stop + 1 < end) ? 2 : 1;
    if (stop < end) stop++; /* the newline */
    while (at < stop && (t[at] == ' ' || t[at] == '\t')) at++;
    bool lowered = false;
    for (int i = 0; i < tu->npragmas && !lowered; i++)
      lowered = !tu->pragmas[i].macro && tu->pragmas[i].loc.offset == at;
    if (lowered) {
      for (int i = 0; i < tu->npragmas; i++)
        if (tu->pragmas[i].loc.offset == at && tu->pragmas[i].end_offset > stop) stop = tu->pragmas[i].end_offset;
    } else if (at < stop && t[at] == '#') {
      sb_putn(sb, t + line, stop - line);
      if (t[stop - 1] != '\n') sb_putc(sb, '\n');
    }
    at = stop;
  }
}

const char *cg_map_kind(const DataMap *m) {
  static const char *names[] = {"GTRT_MAP_ALLOC", "GTRT_MAP_TO", "GTRT_MAP_FROM", "GTRT_MAP_TOFROM", "GTRT_MAP_PRESENT"};
  /* the runtime never copies a const object back: its host copy may lie in
   * read-only memory, where the copies of split task regions would fault */
  if (m->kind == XM_TO && !m->member && xf_object_is_const(m->var)) return "GTRT_MAP_TO_CONST";
  return names[m->kind];
}

const char *cg_rel_const(RelOp r) {
  static const char *const names[] = {"GTRT_REL_LT", "GTRT_REL_LE", "GTRT_REL_GT", "GTRT_REL_GE"};
  return names[r];
}

const char *cg_red_op(RedOp op) {
  static const char *names[] = {"gtrt_red_add", "gtrt_red_mul", "gtrt_red_max", "gtrt_red_min", "gtrt_red_band",
                                "gtrt_red_bor", "gtrt_red_bxor", "gtrt_red_land", "gtrt_red_lor"};
  return names[op];
}

/* A declaration of v under `name` with its pointer/array type; arrays
 * become pointers to their first element (row for 2D and up). */
char *cg_pointer_decl(const CVar *v, const char *name) {
  if (v->tkind == VT_ARRAY) {
    StrBuf sb;
    sb_init(&sb);
    if (v->ndims == 1) sb_printf(&sb, "%s *%s", v->elem_type, name);
    else {
      sb_printf(&sb, "%s (*%s)", v->elem_type, name);
      for (int d = 1; d < v->ndims; d++) sb_printf(&sb, "[%lld]", v->dims[d]);
    }
    return sb_take(&sb);
  }
  if (v->tkind == VT_VLA_POINTER) return xasprintf("gtrt_vla%d<%s> %s", v->ndims, v->elem_type, name);
  return xasprintf("%s %s", v->type, name);
}

char *cg_value_decl(const CVar *v, const char *name) { return xasprintf("%s %s", v->type, name); }

void cg_blank_pointer_qualifiers(char *t) {
  static const char *const quals[] = {"const", "volatile", "restrict", "__restrict"};
  char *fn = strstr(t, "(*"), *star = fn ? fn + 1 : strrchr(t, '*');
  for (char *q = star ? star + 1 : NULL; q && *q;) {
    size_t n = 0;
    for (size_t i = 0; i < sizeof quals / sizeof *quals && !n; i++) {
      size_t len = strlen(quals[i]);
      if (!strncmp(q, quals[i], len) && !(isalnum((unsigned char)q[len]) || q[len] == '_')) n = len;
    }
    if (*q == ' ') q++;
    else if (n) memset(q, ' ', n), q += n;
    else break;
  }
}

/* A cast to v's pointer type: restrict qualifies objects, not casts. */
char *cg_cast_type(const CVar *v) {
  char *t = cg_pointer_decl(v, "");
  char *r;
  while ((r = strstr(t, "restrict")) != NULL) memset(r, ' ', 8);
  /* The outermost pointer's own qualifiers (`T *const`) mean nothing on a cast's type: nvcc warns (#191). */
  cg_blank_pointer_qualifiers(t);
  return t;
}
