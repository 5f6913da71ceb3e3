/* Driver options: the command line parsed into a DrvOptions (prefix drv_).
 * Parsing reports its own errors (`gtcc: error: ...`) and never exits. */
#ifndef GTCC_DRV_OPTIONS_H
#define GTCC_DRV_OPTIONS_H

#include <stdio.h>

/* What one positional input (or link flag) is, in command-line order. */
typedef enum DrvInputKind {
  DRV_IN_SOURCE, /* .c file: translated if it has acc/omp pragmas, else cc */
  DRV_IN_LINK,   /* .o, .a, .so or anything else: passed to the link */
  DRV_IN_LIBFLAG /* -lname / -Ldir: passed to the link */
} DrvInputKind;

typedef struct DrvInput {
  DrvInputKind kind;
  const char *arg; /* path, or the flag as one word ("-lm", "-L/dir") */
} DrvInput;

/* --dump-after=PASS */
typedef enum DrvDump { DRV_DUMP_NONE, DRV_DUMP_PARSE, DRV_DUMP_LOWER, DRV_DUMP_EMIT } DrvDump;

typedef struct DrvOptions {
  DrvInput *inputs; /* in command-line order (the link keeps it) */
  int ninputs, capinputs;

  /* Preprocessor flags, each one word: "-Idir", "-Dname=v", "-Uname".
   * Given to libclang, cc and nvcc alike. */
  const char **pp_args;
  int npp_args, cappp_args;
  /* -W... warning flags, for cc only. */
  const char **warn_args;
  int nwarn_args, capwarn_args;
  /* -Wl,a,b: linker options, kept as given ("-Wl,a,b"). */
  const char **linker_args;
  int nlinker_args, caplinker_args;

  const char *output;    /* -o, or NULL */
  const char *opt_level; /* "-O0".."-O3", or NULL */
  const char *std;       /* -std=... for cc (default gnu11 for translated files) */
  const char *cuda_arch; /* "sm_90" */
  int compile_only;      /* -c */
  int debug;             /* -g */
  int openmp;            /* -fopenmp: host OpenMP for the directives gtcc keeps */
  int emit_cu;           /* --emit-cu */
  int keep;              /* --keep */
  int verbose;           /* -v */
  int help;              /* --help */
  int version;           /* --version */
  DrvDump dump_after;

  /* CollectiveDP settings (nested parallel loops), passed to the transform. */
  const char *cdp_mode;     /* --cdp=MODE, or NULL (transform's default) */
  long cdp_threshold;       /* --cdp-threshold=N, -1 if not given */
  long cdp_warp_threshold;  /* --cdp-warp-threshold=N, -1 if not given */
  long device_stack;        /* --device-stack=BYTES, -1 if not given */
  int task_queue;           /* --task-queue: 0 shared, 1 block, 2 task */
  int task_worker;          /* --task-worker: 0 auto, 1 thread, 2 warp, 3 cta */
  int task_tile_off;        /* --task-tile=off */
  long long task_tile[3];   /* --task-tile=AxB[xC], 0 where not given */

  char **owned; /* strings made here (e.g. "-lm" from "-l m") */
  int nowned, capowned;
} DrvOptions;

/* Parses argv into o (zeroed first). Returns 0, or -1 after printing
 * `gtcc: error: ...`. Strings point into argv or are owned by o
 * (pp_args, owned); drv_options_free releases them. */
int drv_parse_options(int argc, char **argv, DrvOptions *o);
void drv_options_free(DrvOptions *o);
void drv_print_help(FILE *out);
void drv_print_version(FILE *out);

/* Prints `gtcc: error: <fmt>` to stderr. */
void drv_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints `gtcc: warning: <fmt>` to stderr. */
void drv_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
