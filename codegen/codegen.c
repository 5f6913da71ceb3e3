/* cg_emit: both output texts, built in memory. */
#include <stdlib.h>

#include "cg_util.h"

int cg_emit(const Program *p, const CgOptions *opts, CgOutput *out) {
  out->cu = cg_emit_cu(p, opts);
  out->c = cg_emit_host(p, opts);
  if (!out->cu || !out->c) {
    cg_free(out);
    return -1;
  }
  return 0;
}

void cg_free(CgOutput *out) {
  free(out->cu);
  free(out->c);
  out->cu = out->c = NULL;
}

const DataMap *cg_section_of(const Program *p, const Kernel *k, const CVar *v) {
  for (int i = 0; i < k->maps.n; i++)
    if (xf_maps_var(&k->maps.m[i], v)) return &k->maps.m[i];
  const DataMap *best = NULL;
  unsigned best_begin = 0;
  for (int r = 0; r < p->ndatas; r++) { /* the innermost enclosing data region wins */
    const DataRegion *dr = p->datas[r];
    if (!xf_region_holds(dr, k)) continue;
    for (int i = 0; i < dr->maps.n; i++)
      if (xf_maps_var(&dr->maps.m[i], v) && (!best || dr->stmt->begin >= best_begin))
        best = &dr->maps.m[i], best_begin = dr->stmt->begin;
  }
  return best;
}
