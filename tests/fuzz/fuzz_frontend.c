/* Fuzz target: the whole translation of one C file.
 *
 * The input is a whole C file. fe_parse takes a path, so the input is
 * written to a temporary file private to this process (created once with
 * mkstemps, rewritten per input), then fe_parse + xf_lower + cg_emit run
 * on it like the driver's translate() and everything is freed. Diagnostics
 * go to /dev/null and the error count is reset per input.
 *
 * Built as a libFuzzer binary with -DGTCC_FUZZ=ON (clang), otherwise with
 * replay_main.c as a CTest test that replays the corpus and regressions. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codegen.h"
#include "frontend.h"
#include "transform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char tmp_path[64];
static FILE *null_stream;
static int verbose; /* GTCC_FUZZ_VERBOSE=1: diagnostics to stderr, one line per input */

static void remove_tmp(void) {
  if (tmp_path[0]) unlink(tmp_path);
}

static int init(void) {
  if (tmp_path[0]) return 0;
  /* An input may `#include </dev/stdin>`: never let it wait for a terminal. */
  if (!freopen("/dev/null", "r", stdin)) return -1;
  const char *v = getenv("GTCC_FUZZ_VERBOSE");
  verbose = v && *v && *v != '0';
  null_stream = verbose ? stderr : fopen("/dev/null", "w");
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir || strlen(dir) > 40) dir = "/tmp";
  snprintf(tmp_path, sizeof tmp_path, "%s/gtcc-fuzz-XXXXXX.c", dir);
  int fd = mkstemps(tmp_path, 2);
  if (fd < 0) {
    perror("fuzz_frontend: mkstemps");
    tmp_path[0] = 0;
    return -1;
  }
  close(fd);
  atexit(remove_tmp);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (init() != 0) abort();
  FILE *fp = fopen(tmp_path, "wb");
  if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0) abort();

  diag_set_stream(null_stream);
  diag_reset();
  FeOptions feopts = {NULL, 0};
  XfOptions xfopts = {.cdp_mode = CDP_DEFAULT, .cdp_threshold = -1, .cdp_warp_threshold = -1};
  CgOptions cgopts = {"fuzz.gt.cu", 0};
  const char *reached = "parse failed";
  TranslationUnit *tu = fe_parse(tmp_path, &feopts);
  if (tu && diag_error_count() == 0) {
    reached = "lower failed";
    Program *p = xf_lower(tu, &xfopts);
    if (p && diag_error_count() == 0) {
      CgOutput out;
      memset(&out, 0, sizeof out);
      reached = cg_emit(p, &cgopts, &out) == 0 ? "emitted" : "emit failed";
      cg_free(&out);
    }
    if (p) xf_free(p);
  }
  fe_free(tu);
  if (verbose) fprintf(stderr, "fuzz_frontend: %s (%d errors)\n", reached, diag_error_count());
  diag_reset();
  return 0;
}
