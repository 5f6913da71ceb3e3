/* Shared by the unit tests of lowering decisions (test_nested.c,
 * test_tasks.c): a small C file parsed, lowered and emitted in memory, with
 * its diagnostics captured. */
#ifndef GTCC_UNIT_LOWER_H
#define GTCC_UNIT_LOWER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codegen.h"
#include "frontend.h"
#include "lir.h"

typedef struct Lowered {
  TranslationUnit *tu;
  Program *p;
  CgOutput out;
  char *diags;
} Lowered;

static inline Lowered lower(const char *src, const XfOptions *opts) {
  Lowered r;
  memset(&r, 0, sizeof r);
  char path[] = "/tmp/gtcc_unit_lower_XXXXXX.c";
  int fd = mkstemps(path, 2);
  if (fd < 0 || write(fd, src, strlen(src)) != (ssize_t)strlen(src)) {
    perror("temp file");
    exit(2);
  }
  close(fd);
  size_t size = 0;
  FILE *fp = open_memstream(&r.diags, &size);
  diag_reset();
  diag_set_stream(fp);
  r.tu = fe_parse(path, NULL);
  XfOptions dflt = {.cdp_mode = CDP_DEFAULT, .cdp_threshold = -1, .cdp_warp_threshold = -1};
  if (r.tu && diag_error_count() == 0) r.p = xf_lower(r.tu, opts ? opts : &dflt);
  CgOptions cg = {"t.gt.cu", 1};
  if (r.p) cg_emit(r.p, &cg, &r.out);
  diag_set_stream(NULL);
  fclose(fp);
  unlink(path);
  return r;
}

static inline void lowered_free(Lowered *r) {
  cg_free(&r->out);
  xf_free(r->p);
  fe_free(r->tu);
  free(r->diags);
}

static inline const Kernel *kernel0(const Lowered *r) { return r->p && r->p->nkernels > 0 ? r->p->kernels[0] : NULL; }

#endif
