/* `omp critical [(name)]` in device code: one thread at a time runs the
 * block. gtcc records, as edits of the .gt.cu's text (TranslationUnit.
 * cxx_fixes, applied wherever device code copies the statement), a spin
 * lock around it: one lock per name in the file (the unnamed critical is
 * lock 0), declared in the .gt.cu (codegen/emit_cu.c):
 *
 *   #pragma omp critical(top)      ->  { lead lane: gtrt_critical_enter(&gt_crit_lock[1]);
 *   if (v > best) best = v, at = i;      each lane of the warp in turn: { if (v > best) best = v, at = i; }
 *                                        lead lane: gtrt_critical_exit(&gt_crit_lock[1]); }
 *
 * The host build keeps the pragma. Critical sections of other files are not
 * excluded (each .gt.cu has its own locks). */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "cxx_fixes.h"
#include "strbuf.h"

/* The lock of a critical's name: its index among the file's names. */
static int lock_of(TranslationUnit *tu, const Directive *d, int *names_cap) {
  if (d->nnames == 0) return 0;
  const char *name = d->names[0].name;
  for (int i = 0; i < tu->ncritical_names; i++)
    if (!strcmp(tu->critical_names[i], name)) return i + 1;
  VEC_PUSH(tu->critical_names, tu->ncritical_names, *names_cap, xstrdup(name));
  return tu->ncritical_names;
}

static void walk(TranslationUnit *tu, Stmt *s, int *fixes_cap, int *names_cap) {
  for (int i = 0; i < s->ndirs; i++) {
    const Directive *d = s->dirs[i];
    if (d->kind != DIR_OMP_CRITICAL) continue;
    if (d->nnames > 1) {
      diag_error(d->names[1].loc, "'omp critical' takes one name");
      continue;
    }
    int lock = lock_of(tu, d, names_cap);
    /* outside any atomic rewrite of the same statement (those are -1 / +1) */
    /* the warp's lanes here take the lock once and run the block in turn (gtrt_device.cuh) */
    TextFix open = {s->begin, s->begin,
                    xasprintf("{ const unsigned gt_crm = __activemask(); if (gtrt_critical_first(gt_crm)) "
                              "gtrt_critical_enter(&gt_crit_lock[%d]); __syncwarp(gt_crm); for (unsigned gt_crt = "
                              "gt_crm; gt_crt; gt_crt &= gt_crt - 1u) { if (gtrt_critical_first(gt_crt)) { ",
                              lock),
                    -2};
    TextFix close = {s->end, s->end,
                     xasprintf(" } __syncwarp(gt_crm); } if (gtrt_critical_first(gt_crm)) "
                               "gtrt_critical_exit(&gt_crit_lock[%d]); }",
                               lock),
                     2};
    VEC_PUSH(tu->cxx_fixes, tu->ncxx_fixes, *fixes_cap, open);
    VEC_PUSH(tu->cxx_fixes, tu->ncxx_fixes, *fixes_cap, close);
    tu->has_critical = true;
  }
  for (int i = 0; i < s->nkids; i++) walk(tu, s->kids[i], fixes_cap, names_cap);
}

void fe_plan_criticals(TranslationUnit *tu) {
  int fixes_cap = tu->ncxx_fixes, names_cap = 0, before = tu->ncxx_fixes;
  for (int i = 0; i < tu->nfuncs; i++)
    if (tu->funcs[i]->body) walk(tu, tu->funcs[i]->body, &fixes_cap, &names_cap);
  if (tu->ncxx_fixes > before) qsort(tu->cxx_fixes, (size_t)tu->ncxx_fixes, sizeof *tu->cxx_fixes, fe_fix_order);
}
