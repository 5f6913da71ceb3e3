/* Fuzz target: the directive frontend on hostile text.
 *
 * The input is the text of a C file: fe_scan_pragmas finds its pragma lines
 * (pragma_scan.l) and fe_parse_directive parses each (dir_lexer.l,
 * dir_parser.y, directive.c); everything is freed. Diagnostics go to
 * /dev/null and the error count is reset per input.
 *
 * Built as a libFuzzer binary with -DGTCC_FUZZ=ON (clang), otherwise with
 * replay_main.c as a CTest test that replays the corpus and regressions. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "directive.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *null_stream(void) {
  static FILE *null;
  if (!null) null = fopen("/dev/null", "w");
  return null;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  diag_set_stream(null_stream());
  diag_reset();
  SrcFile *f = srcfile_from_string("fuzz.c", (const char *)data, size);
  PragmaLine *p = NULL;
  int n = fe_scan_pragmas(f, &p);
  for (int i = 0; i < n; i++) {
    /* Exercise the whole pipeline of one pragma, including the accessors. */
    Directive *d = fe_parse_directive(&p[i]);
    if (d) {
      (void)dir_name(d->kind);
      (void)dir_flags(d->kind);
      for (int c = 0; c < d->nclauses; c++) (void)clause_spelling(d->clauses[c].kind);
    }
    fe_free_directive(d);
  }
  fe_free_pragmas(p, n);
  srcfile_free(f);
  diag_reset();
  return 0;
}
