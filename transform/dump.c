/* --dump-after=lower: the lowered program, one line per decision. */
#include "lir.h"

static const char *cap_name(CaptureKind k) {
  static const char *names[] = {"value", "mapped", "deviceptr", "reduction", "private"};
  return names[k];
}

static const char *map_name(XMapKind k) {
  static const char *names[] = {"alloc", "to", "from", "tofrom", "present"};
  return names[k];
}

static void dump_maps(const DataMapList *l, FILE *out) {
  for (int i = 0; i < l->n; i++)
    fprintf(out, "    map %s %s%s: addr %s, bytes %s%s\n", map_name(l->m[i].kind), l->m[i].var->name,
            xf_map_member(&l->m[i]), l->m[i].addr_text,
            l->m[i].bytes_text, l->m[i].force_delete ? " (delete)" : "");
}

void xf_dump(const Program *p, FILE *out) {
  fprintf(out, "== lower: %d kernels, %d data regions, %d standalone data directives, %d device functions\n",
          p->nkernels, p->ndatas, p->nstandalones, p->ndevice_funcs);
  for (int i = 0; i < p->nkernels; i++) {
    const Kernel *k = p->kernels[i];
    fprintf(out, "kernel %s (%s at %d:%d): collapse %d, block %d\n", k->name, k->what, k->loc.line, k->loc.col,
            k->collapse, k->block);
    for (int c = 0; c < k->ncaps; c++)
      fprintf(out, "    capture %s %s%s%s\n", cap_name(k->caps[c].kind), k->caps[c].var->name,
              k->caps[c].kind == CAP_REDUCTION ? " op " : "",
              k->caps[c].kind == CAP_REDUCTION ? redop_spelling(k->caps[c].red_op) : "");
    dump_maps(&k->maps, out);
    if (k->nested) {
      const Nested *n = k->nested;
      fprintf(out, "    nested (CollectiveDP %s): inner loop at %d:%d, warp threshold %lld, NLK threshold %lld, chunk %lld\n",
              xf_cdp_mode_name(n->mode), n->inner->loc.line, n->inner->loc.col, n->warp_threshold, n->threshold,
              n->chunk);
      for (const Nested *t = n; t; t = t->next) {
        if (t->icollapse > 1) fprintf(out, "    stage %d: inner collapse(%d)\n", t->stage, t->icollapse);
        if (t->collapse_note) fprintf(out, "    stage %d: inner collapse not applied: %s\n", t->stage, t->collapse_note);
      }
      for (int c = 0; c < n->nctx; c++) fprintf(out, "    context %s\n", n->ctx[c]->name);
      for (int r = 0; r < n->nreds; r++)
        fprintf(out, "    inner reduction %s %s\n", redop_spelling(n->reds[r].op), n->reds[r].var->name);
      for (const Nested *t = n->next; t; t = t->next) {
        fprintf(out, "    stage %d: inner loop at %d:%d\n", t->stage, t->inner->loc.line, t->inner->loc.col);
        for (int c = 0; c < t->nctx; c++) fprintf(out, "    stage %d context %s\n", t->stage, t->ctx[c]->name);
        for (int r = 0; r < t->nreds; r++)
          fprintf(out, "    stage %d inner reduction %s %s\n", t->stage, redop_spelling(t->reds[r].op), t->reds[r].var->name);
      }
      for (int r = 0; r < n->nstreamed; r++)
        fprintf(out, "    streamed read %s[%s] (offset %u)\n", n->streamed[r]->base->name, n->streamed[r]->index->name,
                n->streamed[r]->begin);
    } else
      for (int s = 0; s < k->nseq_inner; s++)
        fprintf(out, "    inner parallel loop at %d:%d runs sequentially: %s\n", k->seq_inner[s]->loc.line,
                k->seq_inner[s]->loc.col, k->flat_reason ? k->flat_reason : "");
  }
  for (int i = 0; i < p->ndatas; i++) {
    fprintf(out, "data region %s at %d:%d\n", dir_name(p->datas[i]->dir->kind), p->datas[i]->dir->loc.line,
            p->datas[i]->dir->loc.col);
    dump_maps(&p->datas[i]->maps, out);
    for (int u = 0; u < p->datas[i]->nuse_device; u++)
      fprintf(out, "  device address of %s%s\n", p->datas[i]->use_device[u]->name,
              p->datas[i]->keep_absent ? " (host address if absent)" : "");
  }
  for (int i = 0; i < p->nstandalones; i++) {
    fprintf(out, "standalone %s at %d:%d\n", dir_name(p->standalones[i]->dir->kind), p->standalones[i]->dir->loc.line,
            p->standalones[i]->dir->loc.col);
    dump_maps(&p->standalones[i]->maps, out);
  }
  for (int i = 0; i < p->ndevice_funcs; i++) fprintf(out, "device function %s\n", p->device_funcs[i]->name);
}
