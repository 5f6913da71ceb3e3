/* The .gt.c: the user's file with each lowered construct replaced by
 * runtime calls (data regions, enter/exit/update) or a call to the
 * kernel's launch stub; the original loop stays as the host fallback. All
 * changes are text edits applied at once; #line keeps diagnostics and
 * debuggers pointing at the user's file. */
#include <stdio.h>
#include <stdlib.h>

#include "cg_util.h"
#include "edits.h"

static int line_of(const TranslationUnit *tu, unsigned offset) { return srcfile_loc(tu->file, offset).line; }

/* Every construct first enters the file-scope `acc declare` data (once). */
static const char *declares_call(const Program *p) { return xf_has_file_declares(p) ? " gt_declares();" : ""; }

/* Replaces a directive's pragma line(s) with a comment. */
static void drop_pragma(EditList *el, const TranslationUnit *tu, const Directive *d, const char *note) {
  char *text = xasprintf("/* gtcc: %s: %s */\n", dir_name(d->kind), note);
  edits_add(el, d->loc.offset, d->end_offset - d->loc.offset, text);
  free(text);
  (void)tu;
}

/* map(always, to|from: ...) copies even where the data was present (then
 * the map only counts): an update after the enter, before the exit. */
static void always_update(StrBuf *sb, const DataMap *m, const char *site, const char *dir) {
  sb_printf(sb, " if (gtrt_update_%s(&%s, \"%s%s\", %s, %s) != GTRT_OK) gtrt_fatal();", dir, site, m->var->name,
            xf_map_member(m), m->addr_text, m->bytes_text);
}

void cg_map_calls(StrBuf *sb, const DataMapList *maps, const char *site, int enter) {
  for (int i = 0; i < maps->n; i++) {
    const DataMap *m = &maps->m[i];
    if (enter) {
      sb_printf(sb, " if (gtrt_map_enter(&%s, \"%s%s\", %s, %s, %s) != GTRT_OK) gtrt_fatal();", site, m->var->name,
                xf_map_member(m), m->addr_text, m->bytes_text, cg_map_kind(m));
      if (m->always && (m->kind == XM_TO || m->kind == XM_TOFROM)) always_update(sb, m, site, "to");
    } else {
      if (m->always && (m->kind == XM_FROM || m->kind == XM_TOFROM)) always_update(sb, m, site, "from");
      sb_printf(sb, " if (gtrt_map_exit(&%s, \"%s%s\", %s, %s, %s, %d) != GTRT_OK) gtrt_fatal();", site,
                m->var->name, xf_map_member(m), m->addr_text, m->bytes_text, cg_map_kind(m), m->force_delete);
    }
  }
}

void cg_map_exits_reversed(StrBuf *sb, const DataMapList *maps, const char *site) {
  for (int i = maps->n - 1; i >= 0; i--) {
    DataMapList one = {&maps->m[i], 1, 1};
    cg_map_calls(sb, &one, site, 0);
  }
}

DataMapList cg_frozen_maps(StrBuf *sb, const DataMapList *maps, const char *prefix, const char *on) {
  DataMapList out = {xcalloc((size_t)(maps->n ? maps->n : 1), sizeof(DataMap)), maps->n, maps->n};
  for (int i = 0; i < maps->n; i++) {
    const DataMap *m = &maps->m[i];
    out.m[i] = *m;
    out.m[i].addr_text = xasprintf("%s_a%d", prefix, i);
    out.m[i].bytes_text = xasprintf("%s_b%d", prefix, i);
    if (sb)
      sb_printf(sb, " void *const %s = %s ? (void *)(%s) : (void *)0; const size_t %s = %s ? (size_t)(%s) : 0;",
                out.m[i].addr_text, on, m->addr_text, out.m[i].bytes_text, on, m->bytes_text);
  }
  return out;
}

void cg_free_frozen(DataMapList *l) {
  for (int i = 0; i < l->n; i++) free(l->m[i].addr_text), free(l->m[i].bytes_text);
  free(l->m);
}

/* use_device (acc host_data), use_device_ptr / use_device_addr (omp target
 * data): in a block around the body, each name is declared again as a
 * pointer holding the device address, found after the region's maps. */
static void use_device_shadows(StrBuf *sb, const DataRegion *r, const char *site, const char *on, const char *prefix) {
  if (!r->nuse_device) return;
  for (int i = 0; i < r->nuse_device; i++) {
    const char *n = r->use_device[i]->name;
    sb_printf(sb, " void *const %s_u%d = gtrt_use_device_addr(&%s, \"%s\", (const void *)(%s), %s, %d);", prefix, i,
              site, n, n, on, r->keep_absent);
  }
  sb_puts(sb, " {");
  for (int i = 0; i < r->nuse_device; i++) {
    const CVar *v = r->use_device[i];
    /* an array becomes a pointer to its first element (the typeof is read before the new name exists) */
    char *type = xasprintf(v->tkind == VT_ARRAY ? "__typeof__(&(%s)[0])" : "__typeof__(%s)", v->name);
    sb_printf(sb, " %s %s = (%s)%s_u%d;", type, v->name, type, prefix, i);
    free(type);
  }
}

/* The names data region idx uses: its site, its `if` flag, the prefix of its frozen sections. */
static void region_names(int idx, char site[32], char on[32], char prefix[32]) {
  snprintf(site, 32, "gt_site_d%d", idx);
  snprintf(on, 32, "gt_on_d%d", idx);
  snprintf(prefix, 32, "gt_d%d", idx);
}

/* acc data / omp target data / acc host_data: entry code before the
 * statement, on the sections as they are at the entry. */
static void data_entry(EditList *el, const Program *p, const DataRegion *r, int idx) {
  const TranslationUnit *tu = p->tu;
  char site[32], on[32], prefix[32];
  region_names(idx, site, on, prefix);
  const bool addresses_only = !r->maps.n && r->nuse_device; /* acc host_data */
  drop_pragma(el, tu, r->dir, addresses_only ? "device addresses below" : "data region entry and exit below");
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, "{ ");
  cg_site(&sb, tu, site, r->dir->loc, dir_name(r->dir->kind));
  sb_printf(&sb, " const int %s = %s%s%s;", on, r->if_cond.text ? "(" : "1", r->if_cond.text ? r->if_cond.text : "",
            r->if_cond.text ? ") != 0" : "");
  DataMapList frozen = cg_frozen_maps(&sb, &r->maps, prefix, on);
  sb_printf(&sb, " if (%s) {%s", on, declares_call(p));
  cg_map_calls(&sb, &frozen, site, 1);
  cg_free_frozen(&frozen);
  sb_puts(&sb, " }");
  use_device_shadows(&sb, r, site, on, prefix);
  sb_puts(&sb, "\n");
  cg_line_directive(&sb, tu, line_of(tu, r->wrap_begin));
  edits_add(el, r->wrap_begin, 0, sb.data);
  sb_free(&sb);
}

/* Its exit code after the statement, on the sections taken at the entry. */
static void data_exit(EditList *el, const Program *p, const DataRegion *r, int idx) {
  const TranslationUnit *tu = p->tu;
  char site[32], on[32], prefix[32];
  region_names(idx, site, on, prefix);
  DataMapList frozen = cg_frozen_maps(NULL, &r->maps, prefix, on);
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "\n%s if (%s) {", r->nuse_device ? " }" : "", on);
  cg_map_exits_reversed(&sb, &frozen, site);
  cg_free_frozen(&frozen);
  sb_puts(&sb, " } }\n");
  cg_line_directive(&sb, tu, line_of(tu, r->stmt->end));
  edits_add(el, r->stmt->end, 0, sb.data);
  sb_free(&sb);
}

/* enter data / exit data / update: the pragma line becomes calls. */
static void standalone(EditList *el, const Program *p, const Standalone *sa, int idx) {
  const TranslationUnit *tu = p->tu;
  char site[32];
  snprintf(site, sizeof site, "gt_site_s%d", idx);
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "{ /* gtcc: %s */ ", dir_name(sa->dir->kind));
  cg_site(&sb, tu, site, sa->dir->loc, dir_name(sa->dir->kind));
  if (sa->if_cond.text) sb_printf(&sb, " if (%s)", sa->if_cond.text);
  sb_printf(&sb, " {%s", declares_call(p));
  if (sa->kind == SA_ENTER) cg_map_calls(&sb, &sa->maps, site, 1);
  else if (sa->kind == SA_EXIT) cg_map_calls(&sb, &sa->maps, site, 0);
  else
    for (int i = 0; i < sa->maps.n; i++) {
      const DataMap *m = &sa->maps.m[i];
      if (sa->if_present) sb_printf(&sb, " if (gtrt_is_present(%s, %s))", m->addr_text, m->bytes_text);
      sb_printf(&sb, " if (gtrt_update_%s(&%s, \"%s%s\", %s, %s) != GTRT_OK) gtrt_fatal();",
                m->kind == XM_TO ? "to" : "from", site, m->var->name, xf_map_member(m), m->addr_text, m->bytes_text);
    }
  sb_puts(&sb, " } }\n");
  cg_line_directive(&sb, tu, line_of(tu, sa->dir->end_offset));
  edits_add(el, sa->dir->loc.offset, sa->dir->end_offset - sa->dir->loc.offset, sb.data);
  sb_free(&sb);
}

/* Host arguments of the stub call, in cg_stub_params order. */
static void stub_args(StrBuf *sb, const Program *p, const Kernel *k) {
  sb_puts(sb, "&gt_site");
  for (int l = 0; l < k->collapse; l++) sb_printf(sb, ", gt_n%d, gt_lb%d, gt_st%d", l, l, l);
  sb_puts(sb, ", gt_max_blocks");
  for (int i = 0; i < k->ncaps; i++) {
    const Capture *c = &k->caps[i];
    const char *n = c->var->name;
    switch (c->kind) {
    case CAP_VALUE: sb_printf(sb, ", %s", n); break;
    case CAP_MAPPED: {
      const DataMap *m = cg_section_of(p, k, c->var);
      sb_printf(sb, ", (const void *)%s, %s", n, m ? m->addr_text : n);
      for (int d = 0; c->var->tkind == VT_VLA_POINTER && d < c->var->ndims; d++)
        sb_printf(sb, ", (long long)(%s)", c->var->dim_text[d]);
      break;
    }
    case CAP_DEVICEPTR: sb_printf(sb, ", (const void *)%s", n); break;
    case CAP_SHARED: sb_printf(sb, ", (const void *)&%s, (const void *)&%s", n, n); break;
    case CAP_REDUCTION: sb_printf(sb, ", &%s", n); break;
    case CAP_PRIVATE: break;
    }
  }
  if (k->shape == KS_TASKS) sb_puts(sb, ", gt_insp");
  if (k->shape == KS_PHASED) sb_puts(sb, ", gt_plan");
}

static const char *relop_text(RelOp r) {
  static const char *t[] = {"<", "<=", ">", ">="};
  return t[r];
}

void cg_loop_bounds(StrBuf *sb, const Kernel *k, const char *indent) {
  for (int l = 0; l < k->collapse; l++) {
    const ForLoop *L = k->loops[l];
    sb_printf(sb, "%sconst long long gt_lb%d = (long long)(%s), gt_st%d = (long long)(%s);\n", indent, l, L->lb.text, l,
              L->step.text);
    sb_printf(sb, "%sconst long long gt_n%d = gtrt_trip_count(gt_lb%d, (long long)(%s), gt_st%d, \"%s\");\n", indent, l,
              l, L->ub.text, l, relop_text(L->relop));
  }
}

/* A parallel loop: call the stub when a device is in use, else run the
 * original loop on the host. */
static void kernel_call(EditList *el, const Program *p, const Kernel *k, const CgOptions *opts) {
  const TranslationUnit *tu = p->tu;
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "{ /* gtcc: %s -> kernel %s in the .gt.cu */\n  ", k->what, k->name);
  cg_site(&sb, tu, "gt_site", k->loc, k->what);
  for (int i = 0; i < k->nregion_privates; i++) /* put back after the region: see region_privates (tasks.c) */
    sb_printf(&sb, "\n  __typeof__(%s) gt_keep_%s = %s;", k->region_privates[i]->name, k->region_privates[i]->name,
              k->region_privates[i]->name);
  sb_printf(&sb, "\n  extern void %s(", k->name);
  cg_stub_params(&sb, k, 0);
  sb_puts(&sb, ");\n");
  sb_printf(&sb, "  if (gtrt_use_device()%s%s%s) {\n", k->if_cond.text ? " && (" : "",
            k->if_cond.text ? k->if_cond.text : "", k->if_cond.text ? ")" : "");
  if (xf_has_file_declares(p)) sb_printf(&sb, "   %s\n", declares_call(p));
  if (k->maps.n) {
    sb_puts(&sb, "   ");
    cg_map_calls(&sb, &k->maps, "gt_site", 1);
    sb_putc(&sb, '\n');
  }
  /* a reduction over a declared scalar starts from its device copy, which device code may have changed */
  for (int i = 0; i < k->ncaps; i++) {
    const CVar *v = k->caps[i].var;
    if (k->caps[i].kind != CAP_REDUCTION || !xf_declared_at(p, v, k->stmt->begin)) continue;
    sb_printf(&sb, "    if (gtrt_update_from(&gt_site, \"%s\", (void *)&(%s), sizeof(%s)) != GTRT_OK) gtrt_fatal();\n",
              v->name, v->name, v->name);
  }
  cg_loop_bounds(&sb, k, "    ");
  sb_printf(&sb, "    const long long gt_max_blocks = %s%s%s;\n", k->max_blocks.text ? "(long long)(" : "0",
            k->max_blocks.text ? k->max_blocks.text : "", k->max_blocks.text ? ")" : "");
  StrBuf call; /* the stub call (an expression): also where host code splits a phased region */
  sb_init(&call);
  sb_printf(&call, "%s(", k->name);
  stub_args(&call, p, k);
  sb_putc(&call, ')');
  if (k->shape == KS_TASKS) cg_task_host_prelude(&sb, k);
  if (k->shape == KS_PHASED) cg_phases_host_walk(&sb, p, k, call.data);
  sb_printf(&sb, "    %s;\n", call.data);
  sb_free(&call);
  if (k->shape == KS_TASKS) cg_task_final_ivs(&sb, k, "    ");
  if (k->maps.n) {
    sb_puts(&sb, "   ");
    cg_map_exits_reversed(&sb, &k->maps, "gt_site");
    sb_putc(&sb, '\n');
  }
  sb_puts(&sb, "  } else {\n");
  if (!opts->no_line_directives) cg_line_directive(&sb, tu, k->stmt->loc.line);
  sb_printf(&sb, "%*s", k->stmt->loc.col - 1, "");
  sb_putn(&sb, tu->file->text + k->stmt->begin, k->stmt->end - k->stmt->begin);
  sb_puts(&sb, "\n  }\n");
  for (int i = 0; i < k->nregion_privates; i++)
    sb_printf(&sb, "  %s = gt_keep_%s;\n", k->region_privates[i]->name, k->region_privates[i]->name);
  sb_puts(&sb, "}\n");
  cg_gap_directives(&sb, tu, k->replace_begin, k->stmt->begin);
  cg_line_directive(&sb, tu, line_of(tu, k->stmt->end));
  edits_add(el, k->replace_begin, k->stmt->end - k->replace_begin, sb.data);
  sb_free(&sb);
}

char *cg_emit_host(const Program *p, const CgOptions *opts) {
  const TranslationUnit *tu = p->tu;
  EditList el;
  edits_init(&el);
  for (int i = 0; i < p->ndatas; i++) data_entry(&el, p, p->datas[i], i);
  /* inner regions come later in p->datas; stacked on one statement, their exits must come first */
  for (int i = p->ndatas - 1; i >= 0; i--) data_exit(&el, p, p->datas[i], i);
  for (int i = 0; i < p->nstandalones; i++) standalone(&el, p, p->standalones[i], i);
  cg_declare_edits(&el, p);
  for (int i = 0; i < p->nkernels; i++)
    if (p->kernels[i]->body) kernel_call(&el, p, p->kernels[i], opts);
  size_t bad = 0;
  char *body = edits_apply(&el, tu->file->text, tu->file->len, &bad);
  edits_free(&el);
  if (!body) {
    diag_error(srcfile_loc(tu->file, (unsigned)bad), "gtcc cannot rewrite overlapping constructs here");
    return NULL;
  }
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "/* Generated by gtcc from %s: host code. Do not edit. */\n#include \"gtrt.h\"\n", tu->file->path);
  if (xf_has_file_declares(p)) sb_puts(&sb, "static void gt_declares(void);\n");
  cg_line_directive(&sb, tu, 1);
  sb_puts(&sb, body);
  free(body);
  cg_declares_function(&sb, p);
  return sb_take(&sb);
}
