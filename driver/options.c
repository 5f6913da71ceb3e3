/* Command-line parsing for gtcc. Options follow cc where they overlap. */
#include "options.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "transform.h"

#ifndef GTCC_VERSION
#define GTCC_VERSION "0.1.0"
#endif

void drv_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("gtcc: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void drv_warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("gtcc: warning: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void drv_print_version(FILE *out) {
  fprintf(out, "gtcc %s\n", GTCC_VERSION);
}

void drv_print_help(FILE *out) {
  fputs("usage: gtcc [options] files... [-o out]\n"
        "\n"
        "Translates OpenACC/OpenMP offload pragmas in C files into CUDA, then\n"
        "compiles (cc + nvcc) and links like cc. Files without acc/omp pragmas,\n"
        ".o/.a files and -l/-L flags pass straight to cc and the link.\n"
        "\n"
        "options:\n"
        "  -o FILE              write the output (program, or the .o with -c) to FILE\n"
        "  -c                   compile only: one .o per input (-o only with one input)\n"
        "  -I DIR, -IDIR        add an include directory (libclang, cc and nvcc)\n"
        "  -D NAME[=V], -DNAME  define a macro (libclang, cc and nvcc)\n"
        "  -U NAME, -UNAME      undefine a macro (libclang, cc and nvcc)\n"
        "  -O0 -O1 -O2 -O3      optimisation level for cc and nvcc\n"
        "  -g                   debug information\n"
        "  -fopenmp             host OpenMP: the directives gtcc keeps (omp parallel\n"
        "                       for, task, ...) run in parallel on the host\n"
        "  -std=STD             C standard for cc (default for translated files: gnu11)\n"
        "  -lNAME, -LDIR        libraries and library directories for the link\n"
        "  -Wl,ARGS             pass ARGS to the linker\n"
        "  -W...                warning flags (e.g. -Wall, -Wno-unused), passed to cc\n"
        "  --cuda-arch=sm_XX    GPU architecture for nvcc (default sm_90, the H200;\n"
        "                       the runtime library is built for sm_90)\n"
        "  --emit-cu            translate only: write X.gt.cu (kernels + launch stubs)\n"
        "                       and X.gt.c (host C) next to each input X.c, or into\n"
        "                       the directory named by -o\n"
        "  --keep               keep intermediate files in the current directory\n"
        "  --dump-after=PASS    print the result of PASS (parse, lower or emit) to\n"
        "                       stdout, then continue\n"
        "  --cdp=MODE           how nested parallel loops run: host (default), tail,\n"
        "                       cta, warp or off (see docs/collectivedp.md)\n"
        "  --cdp-threshold=N    inner trip count above which a context is buffered\n"
        "                       for the next-level kernel (default 2048)\n"
        "  --cdp-warp-threshold=N  inner trip count above which the parent thread's\n"
        "                       warp runs the inner loop together (default 32)\n"
        "  --task-queue=Q       task regions' ready queues: shared (default, one\n"
        "                       queue), block (a queue per block, stealing) or task\n"
        "                       (queue chosen by task); see docs/tasks.md\n"
        "  --task-worker=W      threads that run one task: auto (default), thread,\n"
        "                       warp or cta\n"
        "  --task-tile=T        iterations per task: auto (default: 32x32 tiles for\n"
        "                       2-deep nests when the dependences allow), off (one\n"
        "                       task per iteration) or AxB[xC]\n"
        "  --device-stack=BYTES device stack per thread for regions that call a\n"
        "                       recursive function (default 16384; 0 keeps CUDA's 1 KB)\n"
        "  -v                   print every toolchain command and gtcc's pass times\n"
        "  --help               print this help\n"
        "  --version            print the version\n"
        "\n"
        "environment:\n"
        "  GTCC_RUNTIME_DIR     directory holding gtrt.h, gtrt_device.cuh and libgtrt.a\n"
        "                       (overrides the runtime of the build tree)\n"
        "  TMPDIR               where the temporary work directory is made (/tmp)\n",
        out);
}

static void add_input(DrvOptions *o, DrvInputKind kind, const char *arg) {
  DrvInput in = {kind, arg};
  VEC_PUSH(o->inputs, o->ninputs, o->capinputs, in);
}

static int has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}

/* Value of `--name=value` when arg starts with prefix ("--name="), else NULL. */
static const char *long_value(const char *arg, const char *prefix) {
  size_t n = strlen(prefix);
  return strncmp(arg, prefix, n) == 0 ? arg + n : NULL;
}

/* For -I/-D/-U/-o/-l/-L: the value glued to the flag or in the next word.
 * Returns NULL (error printed) when it is missing. */
static const char *flag_value(int argc, char **argv, int *i, size_t flaglen) {
  const char *arg = argv[*i];
  if (arg[flaglen])
    return arg + flaglen;
  if (*i + 1 >= argc) {
    drv_error("missing argument to '%s'", arg);
    return NULL;
  }
  return argv[++*i];
}

static int parse_cuda_arch(DrvOptions *o, const char *v) {
  const char *p = v;
  if (strncmp(p, "sm_", 3) != 0 || !p[3])
    goto bad;
  for (p += 3; *p; p++)
    if (!(*p >= '0' && *p <= '9') && !(p[1] == '\0' && (*p == 'a' || *p == 'f')))
      goto bad;
  o->cuda_arch = v;
  return 0;
bad:
  drv_error("invalid --cuda-arch '%s' (expected sm_XX, e.g. sm_90)", v);
  return -1;
}

static int parse_dump(DrvOptions *o, const char *v) {
  if (strcmp(v, "parse") == 0)
    o->dump_after = DRV_DUMP_PARSE;
  else if (strcmp(v, "lower") == 0)
    o->dump_after = DRV_DUMP_LOWER;
  else if (strcmp(v, "emit") == 0)
    o->dump_after = DRV_DUMP_EMIT;
  else {
    drv_error("unknown pass '%s' in --dump-after (expected parse, lower or emit)", v);
    return -1;
  }
  return 0;
}

static int parse_threshold(long *out, const char *flag, const char *v) {
  char *end;
  long n = strtol(v, &end, 10);
  if (!*v || *end || n < 0) {
    drv_error("invalid %s '%s' (expected a non-negative integer)", flag, v);
    return -1;
  }
  *out = n;
  return 0;
}

static const char *const task_queues[] = {"shared", "block", "task", NULL};
static const char *const task_workers[] = {"auto", "thread", "warp", "cta", NULL};

/* One of the words in names (NULL-terminated): its index into *out. */
static int parse_word(int *out, const char *flag, const char *v, const char *const *names) {
  for (int i = 0; names[i]; i++)
    if (!strcmp(v, names[i])) {
      *out = i;
      return 0;
    }
  char list[128] = "";
  for (int i = 0; names[i]; i++) {
    strcat(list, i ? (names[i + 1] ? ", " : " or ") : "");
    strcat(list, names[i]);
  }
  drv_error("unknown %s value '%s' (expected %s)", flag, v, list);
  return -1;
}

/* --task-tile=auto | off | A[xB[xC]] with each size 1..65536. */
static int parse_tile(DrvOptions *o, const char *v) {
  o->task_tile_off = 0;
  memset(o->task_tile, 0, sizeof o->task_tile);
  if (!strcmp(v, "auto")) return 0;
  if (!strcmp(v, "off")) {
    o->task_tile_off = 1;
    return 0;
  }
  const char *c = v;
  for (int l = 0; l < 3; l++) {
    char *end;
    long long n = strtoll(c, &end, 10);
    if (end == c || n < 1 || n > 65536 || (*end && *end != 'x')) break;
    o->task_tile[l] = n;
    if (!*end) return 0;
    c = end + 1;
  }
  drv_error("bad --task-tile value '%s' (expected auto, off, or sizes like 32x32 from 1 to 65536)", v);
  return -1;
}

/* One option word (argv[*i] starts with '-'); may consume the next word. */
static int parse_option(DrvOptions *o, int argc, char **argv, int *i) {
  const char *arg = argv[*i];
  const char *v;

  if (strcmp(arg, "-c") == 0) {
    o->compile_only = 1;
  } else if (strcmp(arg, "-g") == 0) {
    o->debug = 1;
  } else if (strcmp(arg, "-v") == 0) {
    o->verbose = 1;
  } else if (strcmp(arg, "--help") == 0) {
    o->help = 1;
  } else if (strcmp(arg, "--version") == 0) {
    o->version = 1;
  } else if (strcmp(arg, "--emit-cu") == 0) {
    o->emit_cu = 1;
  } else if (strcmp(arg, "--keep") == 0) {
    o->keep = 1;
  } else if (strncmp(arg, "-o", 2) == 0) {
    if (!(v = flag_value(argc, argv, i, 2)))
      return -1;
    if (o->output) {
      drv_error("more than one -o");
      return -1;
    }
    o->output = v;
  } else if (arg[1] == 'I' || arg[1] == 'D' || arg[1] == 'U') {
    if (!(v = flag_value(argc, argv, i, 2)))
      return -1;
    char *word = xasprintf("-%c%s", arg[1], v);
    VEC_PUSH(o->pp_args, o->npp_args, o->cappp_args, word);
  } else if (arg[1] == 'l' || arg[1] == 'L') {
    if (!(v = flag_value(argc, argv, i, 2)))
      return -1;
    /* The link gets one word: argv's own when glued, else a new one. */
    if (v == arg + 2) {
      add_input(o, DRV_IN_LIBFLAG, arg);
    } else {
      char *word = xasprintf("-%c%s", arg[1], v);
      VEC_PUSH(o->owned, o->nowned, o->capowned, word);
      add_input(o, DRV_IN_LIBFLAG, word);
    }
  } else if (strcmp(arg, "-O0") == 0 || strcmp(arg, "-O1") == 0 || strcmp(arg, "-O2") == 0 ||
             strcmp(arg, "-O3") == 0) {
    o->opt_level = arg;
  } else if (strcmp(arg, "-O") == 0) {
    o->opt_level = "-O1";
  } else if ((v = long_value(arg, "-std="))) {
    if (!*v) {
      drv_error("missing value in '%s'", arg);
      return -1;
    }
    o->std = arg;
  } else if (strcmp(arg, "-fopenmp") == 0) {
    o->openmp = 1;
  } else if (strncmp(arg, "-Wl,", 4) == 0) {
    VEC_PUSH(o->linker_args, o->nlinker_args, o->caplinker_args, arg);
  } else if (arg[1] == 'W' && arg[2]) {
    VEC_PUSH(o->warn_args, o->nwarn_args, o->capwarn_args, arg);
  } else if ((v = long_value(arg, "--cuda-arch="))) {
    return parse_cuda_arch(o, v);
  } else if ((v = long_value(arg, "--dump-after="))) {
    return parse_dump(o, v);
  } else if ((v = long_value(arg, "--cdp="))) {
    if (!*v) {
      drv_error("missing value in '%s'", arg);
      return -1;
    }
    if (xf_parse_cdp_mode(v) < 0) {
      drv_error("unknown --cdp mode '%s' (expected off, host, tail, cta or warp)", v);
      return -1;
    }
    o->cdp_mode = v;
  } else if ((v = long_value(arg, "--cdp-threshold="))) {
    return parse_threshold(&o->cdp_threshold, "--cdp-threshold", v);
  } else if ((v = long_value(arg, "--cdp-warp-threshold="))) {
    return parse_threshold(&o->cdp_warp_threshold, "--cdp-warp-threshold", v);
  } else if ((v = long_value(arg, "--device-stack="))) {
    return parse_threshold(&o->device_stack, "--device-stack", v);
  } else if ((v = long_value(arg, "--task-queue="))) {
    return parse_word(&o->task_queue, "--task-queue", v, task_queues);
  } else if ((v = long_value(arg, "--task-worker="))) {
    return parse_word(&o->task_worker, "--task-worker", v, task_workers);
  } else if ((v = long_value(arg, "--task-tile="))) {
    return parse_tile(o, v);
  } else {
    drv_error("unknown option '%s'", arg);
    return -1;
  }
  return 0;
}

int drv_parse_options(int argc, char **argv, DrvOptions *o) {
  memset(o, 0, sizeof *o);
  o->cuda_arch = "sm_90";
  o->cdp_threshold = -1;
  o->cdp_warp_threshold = -1;
  o->device_stack = -1;
  int only_files = 0; /* after "--" */
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (!only_files && strcmp(arg, "--") == 0) {
      only_files = 1;
    } else if (!only_files && arg[0] == '-' && arg[1]) {
      if (parse_option(o, argc, argv, &i) < 0)
        return -1;
    } else if (has_suffix(arg, ".c")) {
      add_input(o, DRV_IN_SOURCE, arg);
    } else {
      add_input(o, DRV_IN_LINK, arg);
    }
  }
  return 0;
}

void drv_options_free(DrvOptions *o) {
  for (int i = 0; i < o->npp_args; i++)
    free((char *)o->pp_args[i]);
  for (int i = 0; i < o->nowned; i++)
    free(o->owned[i]);
  free(o->pp_args);
  free(o->warn_args);
  free(o->linker_args);
  free(o->inputs);
  free(o->owned);
  memset(o, 0, sizeof *o);
}
