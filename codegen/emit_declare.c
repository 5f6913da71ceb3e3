/* acc declare in the .gt.c (see transform/declare.c for what it means).
 * In a function: the pragma becomes the entry calls (and the sections,
 * evaluated once), the exits go before the block's closing brace and before
 * each return of the scope (after the return value is computed). At file scope: the pragma becomes a comment
 * and gt_declares(), which every construct of the file calls first, enters
 * the data once. */
#include <stdio.h>
#include <string.h>

#include "cg_util.h"

static void site_name(char *buf, size_t n, int idx) { snprintf(buf, n, "gt_site_dc%d", idx); }

/* The maps as the declare's entry froze them: gt_dcN_aI / gt_dcN_bI (see
 * cg_frozen_maps); into sb when it is not NULL, their declarations. */
static DataMapList frozen(StrBuf *sb, const Program *p, int idx) {
  char prefix[32];
  snprintf(prefix, sizeof prefix, "gt_dc%d", idx);
  return cg_frozen_maps(sb, &p->declares[idx]->maps, prefix, "1");
}

/* The exits of a function-scope declare, on the entry's site and sections. */
static void exits_of(StrBuf *sb, const Program *p, int idx) {
  char site[32];
  site_name(site, sizeof site, idx);
  DataMapList l = frozen(NULL, p, idx);
  sb_puts(sb, "{");
  cg_map_exits_reversed(sb, &l, site);
  sb_puts(sb, " }");
  cg_free_frozen(&l);
}

static bool covers(const Declare *dc, const Stmt *ret) {
  for (int r = 0; r < dc->nreturns; r++)
    if (dc->returns[r] == ret) return true;
  return false;
}

/* `return E;` -> `{ T gt_rv = (E); exits (innermost first); return gt_rv; }`.
 * `1 ? (E) : (E)` gives E's type after C's conversions (an array decays). */
static void return_edit(EditList *el, const Program *p, const Stmt *ret) {
  const char *text = p->tu->file->text;
  unsigned b = ret->begin + 6, e = ret->end; /* after "return"; the ';' */
  while (e > b && text[e - 1] != ';') e--;
  if (e > b) e--;
  while (b < e && (text[b] == ' ' || text[b] == '\t' || text[b] == '\n' || text[b] == '\r')) b++;
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, "{ ");
  if (e > b) {
    int n = (int)(e - b);
    sb_printf(&sb, "__typeof__(1 ? (%.*s) : (%.*s)) gt_rv = (%.*s); ", n, text + b, n, text + b, n, text + b);
  }
  for (int i = p->ndeclares - 1; i >= 0; i--)
    if (covers(p->declares[i], ret)) exits_of(&sb, p, i), sb_putc(&sb, ' ');
  sb_puts(&sb, e > b ? "return gt_rv; }" : "return; }");
  edits_add(el, ret->begin, ret->end - ret->begin, sb.data);
  sb_free(&sb);
}

/* Whether ret was rewritten already: by an earlier declare that covers it
 * too (one edit holds every declare's exits), or earlier in this one's list. */
static bool return_done(const Program *p, int upto, int r_of, const Stmt *ret) {
  for (int i = 0; i < upto; i++)
    if (covers(p->declares[i], ret)) return true;
  for (int r = 0; r < r_of; r++)
    if (p->declares[upto]->returns[r] == ret) return true;
  return false;
}

void cg_declare_edits(EditList *el, const Program *p) {
  const TranslationUnit *tu = p->tu;
  for (int i = 0; i < p->ndeclares; i++) {
    const Declare *dc = p->declares[i];
    const Directive *d = dc->dir;
    StrBuf sb;
    sb_init(&sb);
    if (!dc->block) {
      sb_puts(&sb, "/* gtcc: acc declare: entered once by gt_declares() */\n");
    } else {
      /* declarations in the block itself (after a `;`, in case a label precedes the pragma): the exits
       * use the site and the sections as they were here */
      char site[32];
      site_name(site, sizeof site, i);
      sb_puts(&sb, "; /* gtcc: acc declare: exits at the end of the block and before each return */ ");
      cg_site(&sb, tu, site, d->loc, "acc declare");
      DataMapList l = frozen(&sb, p, i);
      if (xf_has_file_declares(p)) sb_puts(&sb, " gt_declares();");
      cg_map_calls(&sb, &l, site, 1);
      cg_free_frozen(&l);
      sb_putc(&sb, '\n');
    }
    cg_line_directive(&sb, tu, srcfile_loc(tu->file, d->end_offset).line);
    edits_add(el, d->loc.offset, d->end_offset - d->loc.offset, sb.data);
    sb_free(&sb);
    if (!dc->block) continue;
    for (int r = 0; r < dc->nreturns; r++)
      if (!return_done(p, i, r, dc->returns[r])) return_edit(el, p, dc->returns[r]);
  }
  /* the closing braces: innermost (later) declares exit first, as insertions at one offset keep their order */
  for (int i = p->ndeclares - 1; i >= 0; i--) {
    const Declare *dc = p->declares[i];
    if (!dc->block) continue;
    StrBuf sb;
    sb_init(&sb);
    sb_puts(&sb, "\n ");
    exits_of(&sb, p, i);
    sb_putc(&sb, '\n');
    cg_line_directive(&sb, tu, srcfile_loc(tu->file, dc->block->end - 1).line);
    edits_add(el, dc->block->end - 1, 0, sb.data);
    sb_free(&sb);
  }
}

void cg_declares_function(StrBuf *sb, const Program *p) {
  if (!xf_has_file_declares(p)) return;
  sb_puts(sb, "\n/* gtcc: the file-scope 'acc declare' data, entered when the file's first construct runs and kept "
              "for the program */\nstatic void gt_declares(void) {\n  static int gt_done;\n  if (gt_done) return;\n"
              "  gt_done = 1;\n");
  for (int i = 0; i < p->ndeclares; i++) {
    const Declare *dc = p->declares[i];
    if (dc->block) continue;
    char site[32];
    site_name(site, sizeof site, i);
    sb_puts(sb, "  { ");
    cg_site(sb, p->tu, site, dc->dir->loc, "acc declare");
    cg_map_calls(sb, &dc->maps, site, 1);
    sb_puts(sb, " }\n");
  }
  sb_puts(sb, "}\n");
}
