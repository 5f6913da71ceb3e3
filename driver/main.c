/* gtcc: a cc-like driver. The passes, on one screen:
 *
 *   for each input X.c that has acc/omp pragmas (others go straight to cc):
 *     parse      fe_parse(X.c)   -> TranslationUnit   (--dump-after=parse)
 *     lower      xf_lower(tu)    -> Program           (--dump-after=lower)
 *     emit       cg_emit(p)      -> X.gt.cu, X.gt.c   (--dump-after=emit)
 *   toolchain (skipped with --emit-cu):
 *     cc   -std=gnu11 -c X.gt.c             -> X.host.o
 *     nvcc -arch=sm_XX -rdc=true -c X.gt.cu -> X.dev.o
 *     -c:   ld -r X.host.o X.dev.o -o X.o
 *     link: nvcc -arch=sm_XX -rdc=true objs... libgtrt.a -lcudadevrt -o out
 *           (cc objs... -o out when every input is a plain .c file)
 *
 * Intermediates live in a mkdtemp directory (or the current directory with
 * --keep); final outputs are written under a temporary name and renamed
 * only once everything succeeded. Only main() exits. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "codegen.h"
#include "diag.h"
#include "frontend.h"
#include "options.h"
#include "strbuf.h"
#include "toolchain.h"
#include "transform.h"

/* One .c input and what the driver makes of it. */
typedef struct Unit {
  const char *src;  /* the path as given */
  int annotated;    /* has acc/omp pragmas: translated */
  char *stem;       /* base name without .c, unique among the inputs */
  char *cu_path;    /* where X.gt.cu / X.gt.c are written */
  char *c_path;
  CgOutput out;     /* emitted text (annotated units) */
  char *obj;        /* the object file that goes to the link (or -c output) */
} Unit;

/* Where the runtime library is: GTCC_RUNTIME_DIR, else the build tree. */
typedef struct Runtime {
  char *incdir;
  char *lib;
} Runtime;

typedef struct Driver {
  DrvOptions opt;
  Unit *units;
  int nunits;
  const char *workdir; /* intermediates: temp dir, or "." with --keep */
  char *nvcc;          /* found on first need */
  Runtime rt;
  int have_rt;
} Driver;

/* ---- small helpers ---- */

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Directory part of path with a trailing '/', or "" (malloc'ed). */
static char *dir_prefix(const char *path) {
  return xstrndup(path, (size_t)(base_name(path) - path));
}

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Input files must exist before any work starts. */
static int check_inputs(const DrvOptions *o) {
  int bad = 0;
  for (int i = 0; i < o->ninputs; i++) {
    const DrvInput *in = &o->inputs[i];
    struct stat st;
    if (in->kind == DRV_IN_LIBFLAG)
      continue;
    if (stat(in->arg, &st) < 0) {
      if (errno == ENOENT)
        drv_error("no such file: '%s'", in->arg);
      else
        drv_error("cannot read '%s': %s", in->arg, strerror(errno));
      bad = 1;
    } else if (S_ISDIR(st.st_mode)) {
      drv_error("'%s' is a directory", in->arg);
      bad = 1;
    }
  }
  return bad ? -1 : 0;
}

/* Checks option combinations that cc also rejects. */
static int check_options(const DrvOptions *o, int nsources) {
  if (o->ninputs == 0) {
    drv_error("no input files");
    return -1;
  }
  if (o->emit_cu) {
    for (int i = 0; i < o->ninputs; i++)
      if (o->inputs[i].kind != DRV_IN_SOURCE) {
        drv_error("--emit-cu takes only .c files, not '%s'", o->inputs[i].arg);
        return -1;
      }
    if (o->output && !is_dir(o->output)) {
      drv_error("with --emit-cu, -o must name an existing directory ('%s' is not one)", o->output);
      return -1;
    }
    return 0;
  }
  if (o->compile_only) {
    if (o->output && nsources > 1) {
      drv_error("cannot specify -o with -c and multiple files");
      return -1;
    }
    for (int i = 0; i < o->ninputs; i++)
      if (o->inputs[i].kind != DRV_IN_SOURCE)
        drv_warning("'%s': linker input unused because of -c", o->inputs[i].arg);
  }
  return 0;
}

static int locate_runtime(Driver *d) {
  if (d->have_rt)
    return 0;
  const char *env = getenv("GTCC_RUNTIME_DIR");
  if (env && *env) {
    d->rt.incdir = xstrdup(env);
    d->rt.lib = xasprintf("%s/libgtrt.a", env);
  } else {
#ifdef GTCC_RUNTIME_INCLUDE_DIR
    d->rt.incdir = xstrdup(GTCC_RUNTIME_INCLUDE_DIR);
#else
    d->rt.incdir = xstrdup("runtime");
#endif
#ifdef GTCC_RUNTIME_LIB
    d->rt.lib = xstrdup(GTCC_RUNTIME_LIB);
#else
    d->rt.lib = xstrdup("libgtrt.a");
#endif
  }
  d->have_rt = 1;
  char *hdr = xasprintf("%s/gtrt.h", d->rt.incdir);
  struct stat st;
  int ok = stat(hdr, &st) == 0;
  if (!ok)
    drv_error("runtime header not found: '%s' (set GTCC_RUNTIME_DIR to the directory holding "
              "gtrt.h, gtrt_device.cuh and libgtrt.a)", hdr);
  free(hdr);
  return ok ? 0 : -1;
}

static int require_runtime_lib(Driver *d) {
  if (locate_runtime(d) < 0)
    return -1;
  struct stat st;
  if (stat(d->rt.lib, &st) < 0) {
    drv_error("runtime library not found: '%s' (build gtcc's 'gtrt' target, or set "
              "GTCC_RUNTIME_DIR to the directory holding gtrt.h and libgtrt.a)", d->rt.lib);
    return -1;
  }
  return 0;
}

static int require_nvcc(Driver *d) {
  if (d->nvcc)
    return 0;
  d->nvcc = drv_find_nvcc();
  if (!d->nvcc) {
    drv_error("nvcc not found on PATH, in $CUDA_HOME/bin or in /usr/local/cuda/bin: "
              "install the CUDA toolkit or put its bin/ directory on PATH");
    return -1;
  }
  return 0;
}

/* ---- the passes ---- */

static void print_dump_header(const char *what, const char *name) {
  fflush(stdout);
  printf("/* ===== gtcc --dump-after: %s: %s ===== */\n", what, name);
}

/* parse -> lower -> emit for one annotated unit; the text stays in memory. */
static int translate(Driver *d, Unit *u) {
  const DrvOptions *o = &d->opt;
  /* libclang must skip the same #if blocks as cc: with -fopenmp cc defines _OPENMP. */
  const char **pp = xmalloc(((size_t)o->npp_args + 1) * sizeof *pp);
  int npp = 0;
  for (int i = 0; i < o->npp_args; i++) pp[npp++] = o->pp_args[i];
  if (o->openmp) pp[npp++] = "-D_OPENMP=201511";
  FeOptions feopts = {pp, npp};
  XfOptions xfopts = {.cdp_mode = o->cdp_mode ? (CdpMode)xf_parse_cdp_mode(o->cdp_mode) : CDP_DEFAULT,
                      .cdp_threshold = o->cdp_threshold,
                      .cdp_warp_threshold = o->cdp_warp_threshold,
                      .task_queue = o->task_queue,
                      .task_worker = (TaskWorkerOpt)o->task_worker,
                      .task_tile_off = o->task_tile_off,
                      .task_tile = {o->task_tile[0], o->task_tile[1], o->task_tile[2]},
                      .device_stack = o->device_stack};
  CgOptions cgopts = {base_name(u->cu_path), 0};
  int errors_before = diag_error_count();
  int rc = -1;
  Program *p = NULL;

  double t0 = drv_now_ms();
  TranslationUnit *tu = fe_parse(u->src, &feopts);
  double t1 = drv_now_ms();
  if (!tu || diag_error_count() > errors_before)
    goto out;
  if (o->dump_after == DRV_DUMP_PARSE) {
    print_dump_header("parse", u->src);
    fe_dump(tu, stdout);
  }

  p = xf_lower(tu, &xfopts);
  double t2 = drv_now_ms();
  if (!p || diag_error_count() > errors_before)
    goto out;
  if (o->dump_after == DRV_DUMP_LOWER) {
    print_dump_header("lower", u->src);
    xf_dump(p, stdout);
  }

  /* Even with xf_nkernels(p) == 0 the host file may have data directives
   * rewritten, so the emitted .gt.c is always used. */
  if (cg_emit(p, &cgopts, &u->out) < 0 || diag_error_count() > errors_before)
    goto out;
  double t3 = drv_now_ms();
  if (o->dump_after == DRV_DUMP_EMIT) {
    print_dump_header("emit", u->cu_path);
    fputs(u->out.cu ? u->out.cu : "", stdout);
    print_dump_header("emit", u->c_path);
    fputs(u->out.c ? u->out.c : "", stdout);
    fflush(stdout);
  }
  if (o->verbose)
    fprintf(stderr, "gtcc: parse %.1f ms, lower %.1f ms, emit %.1f ms (%s, %d kernel%s)\n",
            t1 - t0, t2 - t1, t3 - t2, u->src, xf_nkernels(p), xf_nkernels(p) == 1 ? "" : "s");
  if (!u->out.cu || !u->out.c) {
    drv_error("%s: code generation produced no output", u->src);
    goto out;
  }
  rc = 0;
out:
  if (p)
    xf_free(p);
  if (tu)
    fe_free(tu);
  free(pp);
  if (rc < 0 && diag_error_count() == errors_before)
    drv_error("translation of '%s' failed", u->src);
  return rc;
}

/* Writes a unit's .gt.cu and .gt.c. With --emit-cu they are final outputs
 * (temporary name, renamed at the end); otherwise intermediates. */
static int write_translation(Driver *d, Unit *u) {
  const char *cu = u->cu_path, *c = u->c_path;
  if (d->opt.emit_cu) {
    cu = drv_pending_path(u->cu_path);
    c = drv_pending_path(u->c_path);
  }
  if (drv_write_file(cu, u->out.cu, strlen(u->out.cu)) < 0)
    return -1;
  return drv_write_file(c, u->out.c, strlen(u->out.c));
}

/* Adds -I/-D/-U, and the -O/-g the user asked for. */
static void add_common_flags(const DrvOptions *o, DrvArgv *a) {
  for (int i = 0; i < o->npp_args; i++)
    drv_argv_add(a, o->pp_args[i]);
  if (o->opt_level)
    drv_argv_add(a, o->opt_level);
  if (o->debug)
    drv_argv_add(a, "-g");
}

/* Flags only the host C compiler gets: warnings, -fopenmp. */
static void add_warn_flags(const DrvOptions *o, DrvArgv *a) {
  for (int i = 0; i < o->nwarn_args; i++)
    drv_argv_add(a, o->warn_args[i]);
  if (o->openmp)
    drv_argv_add(a, "-fopenmp");
}

/* cc -c on a plain C file. */
static int compile_plain(Driver *d, Unit *u, const char *obj) {
  const DrvOptions *o = &d->opt;
  DrvArgv a = {0};
  drv_argv_add(&a, "cc");
  if (o->std)
    drv_argv_add(&a, o->std);
  drv_argv_add(&a, "-c");
  drv_argv_add(&a, u->src);
  add_common_flags(o, &a);
  add_warn_flags(o, &a);
  drv_argv_add(&a, "-o");
  drv_argv_add(&a, obj);
  int rc = drv_run(&a, o->verbose);
  drv_argv_free(&a);
  return rc;
}

/* cc on X.gt.c, nvcc on X.gt.cu, and ld -r of both into obj. */
static int compile_translated(Driver *d, Unit *u, const char *obj) {
  const DrvOptions *o = &d->opt;
  char *srcdir = dir_prefix(u->src);
  const char *incl = *srcdir ? srcdir : ".";
  char *host_o = xasprintf("%s/%s.host.o", d->workdir, u->stem);
  char *dev_o = xasprintf("%s/%s.dev.o", d->workdir, u->stem);
  DrvArgv a = {0};
  int rc = -1;

  /* The generated files are not next to the source: its "..." includes
   * are found through -iquote / -I of its directory. */
  drv_argv_add(&a, "cc");
  drv_argv_add(&a, o->std ? o->std : "-std=gnu11");
  drv_argv_add(&a, "-c");
  drv_argv_add(&a, u->c_path);
  drv_argv_addf(&a, "-I%s", d->rt.incdir);
  add_common_flags(o, &a);
  drv_argv_add(&a, "-iquote");
  drv_argv_add(&a, incl);
  add_warn_flags(o, &a);
  /* the host fallback keeps the directives gtcc lowered: -Wall would call them unknown */
  drv_argv_add(&a, "-Wno-unknown-pragmas");
  drv_argv_add(&a, "-o");
  drv_argv_add(&a, host_o);
  if (drv_run(&a, o->verbose) < 0)
    goto out;
  drv_argv_free(&a);

  drv_argv_add(&a, d->nvcc);
  drv_argv_addf(&a, "-arch=%s", o->cuda_arch);
  drv_argv_add(&a, "-rdc=true");
  drv_argv_add(&a, "-c");
  drv_argv_add(&a, u->cu_path);
  drv_argv_addf(&a, "-I%s", d->rt.incdir);
  add_common_flags(o, &a);
  drv_argv_addf(&a, "-I%s", incl);
  drv_argv_add(&a, "-o");
  drv_argv_add(&a, dev_o);
  if (drv_run(&a, o->verbose) < 0) {
    fprintf(stderr,
            "gtcc: note: nvcc compiles %s as CUDA C++: the regions' code and the file's own headers, without the "
            "functions the regions do not call; C that C++ rejects in a header's declarations or in the functions "
            "the regions call (a C++ keyword as a name, a void * initializing another pointer) must be written the "
            "C++ way there (docs/directives.md, \"Known problems\")\n",
            base_name(u->cu_path));
    goto out;
  }
  drv_argv_free(&a);

  drv_argv_add(&a, "ld");
  drv_argv_add(&a, "-r");
  drv_argv_add(&a, host_o);
  drv_argv_add(&a, dev_o);
  drv_argv_add(&a, "-o");
  drv_argv_add(&a, obj);
  rc = drv_run(&a, o->verbose);
out:
  drv_argv_free(&a);
  free(host_o);
  free(dev_o);
  free(srcdir);
  return rc;
}

/* Links the objects (in command-line order, with -l/-L and .o/.a inputs). */
static int link_program(Driver *d, int with_nvcc) {
  const DrvOptions *o = &d->opt;
  const char *out = o->output ? o->output : "a.out";
  char *tmp = drv_pending_path(out);
  DrvArgv a = {0};
  int next_unit = 0;

  if (with_nvcc) {
    drv_argv_add(&a, d->nvcc);
    drv_argv_addf(&a, "-arch=%s", o->cuda_arch);
    drv_argv_add(&a, "-rdc=true");
    /* recursive device functions: the stubs raise the stack (--device-stack) */
    drv_argv_add(&a, "-Xnvlink=-suppress-stack-size-warning");
  } else {
    drv_argv_add(&a, "cc");
  }
  for (int i = 0; i < o->ninputs; i++) {
    const DrvInput *in = &o->inputs[i];
    drv_argv_add(&a, in->kind == DRV_IN_SOURCE ? d->units[next_unit++].obj : in->arg);
  }
  if (with_nvcc) {
    drv_argv_add(&a, d->rt.lib);
    drv_argv_add(&a, "-lcudadevrt");
  }
  for (int i = 0; i < o->nlinker_args; i++) {
    if (with_nvcc) {
      drv_argv_add(&a, "-Xlinker");
      drv_argv_add(&a, o->linker_args[i] + 4); /* after "-Wl," */
    } else {
      drv_argv_add(&a, o->linker_args[i]);
    }
  }
  if (o->openmp) { /* libgomp for the host OpenMP code */
    if (with_nvcc)
      drv_argv_add(&a, "-Xcompiler");
    drv_argv_add(&a, "-fopenmp");
  }
  drv_argv_add(&a, "-o");
  drv_argv_add(&a, tmp);
  int rc = drv_run(&a, o->verbose);
  drv_argv_free(&a);
  return rc;
}

/* ---- setting up units ---- */

/* Fills units from the .c inputs: stems, where the text goes, pragmas or not. */
static void make_units(Driver *d) {
  const DrvOptions *o = &d->opt;
  d->units = xcalloc((size_t)o->ninputs + 1, sizeof *d->units);
  for (int i = 0; i < o->ninputs; i++) {
    if (o->inputs[i].kind != DRV_IN_SOURCE)
      continue;
    Unit *u = &d->units[d->nunits++];
    u->src = o->inputs[i].arg;
    const char *b = base_name(u->src);
    char *stem = xstrndup(b, strlen(b) - 2);
    /* Two inputs dir1/x.c and dir2/x.c must not share intermediates. */
    int clash = 0;
    for (int j = 0; j < d->nunits - 1; j++)
      if (strcmp(d->units[j].stem, stem) == 0)
        clash = 1;
    u->stem = clash ? xasprintf("%s-%d", stem, d->nunits) : xstrdup(stem);
    free(stem);
    /* --emit-cu translates every input: the user asked for the files. */
    u->annotated = o->emit_cu || fe_file_has_pragmas(u->src);
  }
}

/* Where each unit's .gt.cu/.gt.c and object go, once the work dir exists. */
static void place_units(Driver *d) {
  const DrvOptions *o = &d->opt;
  for (int i = 0; i < d->nunits; i++) {
    Unit *u = &d->units[i];
    if (o->emit_cu) {
      char *dir = o->output ? xasprintf("%s/", o->output) : dir_prefix(u->src);
      const char *b = base_name(u->src);
      int n = (int)strlen(b) - 2;
      u->cu_path = xasprintf("%s%.*s.gt.cu", dir, n, b);
      u->c_path = xasprintf("%s%.*s.gt.c", dir, n, b);
      free(dir);
      continue;
    }
    u->cu_path = xasprintf("%s/%s.gt.cu", d->workdir, u->stem);
    u->c_path = xasprintf("%s/%s.gt.c", d->workdir, u->stem);
    if (o->compile_only) {
      /* Final .o: -o, or X.o in the current directory (like cc). */
      char *final = o->output ? xstrdup(o->output) : xasprintf("%.*s.o",
                        (int)strlen(base_name(u->src)) - 2, base_name(u->src));
      u->obj = xstrdup(drv_pending_path(final));
      free(final);
    } else {
      u->obj = xasprintf("%s/%s.o", d->workdir, u->stem);
    }
  }
}

static void free_driver(Driver *d) {
  for (int i = 0; i < d->nunits; i++) {
    Unit *u = &d->units[i];
    free(u->stem);
    free(u->cu_path);
    free(u->c_path);
    free(u->obj);
    cg_free(&u->out);
  }
  free(d->units);
  free(d->nvcc);
  free(d->rt.incdir);
  free(d->rt.lib);
  drv_options_free(&d->opt);
}

/* Everything after option parsing; returns 0 or -1. */
static int run_driver(Driver *d) {
  const DrvOptions *o = &d->opt;
  int nsources = 0, ntranslated = 0;
  for (int i = 0; i < o->ninputs; i++)
    nsources += o->inputs[i].kind == DRV_IN_SOURCE;
  if (check_options(o, nsources) < 0 || check_inputs(o) < 0)
    return -1;

  make_units(d);
  for (int i = 0; i < d->nunits; i++)
    ntranslated += d->units[i].annotated;
  /* Link with nvcc (device link, cudart, libgtrt) unless every input is plain C. */
  int link_nvcc = ntranslated > 0 || nsources < o->ninputs;

  if (!o->emit_cu) {
    if ((ntranslated || (link_nvcc && !o->compile_only)) && require_nvcc(d) < 0)
      return -1;
    if (ntranslated && locate_runtime(d) < 0)
      return -1;
    if (link_nvcc && !o->compile_only && require_runtime_lib(d) < 0)
      return -1;
    d->workdir = o->keep ? "." : drv_workdir_create();
    if (!d->workdir)
      return -1;
  }
  place_units(d);

  /* parse -> lower -> emit, for every annotated input (errors of all files). */
  int failed = 0;
  for (int i = 0; i < d->nunits && !diag_too_many(); i++)
    if (d->units[i].annotated && translate(d, &d->units[i]) < 0)
      failed = 1;
  if (failed || diag_error_count() > 0)
    return -1;
  for (int i = 0; i < d->nunits; i++)
    if (d->units[i].annotated && write_translation(d, &d->units[i]) < 0)
      return -1;
  if (o->emit_cu)
    return drv_publish();

  /* toolchain */
  for (int i = 0; i < d->nunits; i++) {
    Unit *u = &d->units[i];
    int rc = u->annotated ? compile_translated(d, u, u->obj) : compile_plain(d, u, u->obj);
    if (rc < 0)
      return -1;
  }
  if (!o->compile_only && link_program(d, link_nvcc) < 0)
    return -1;
  return drv_publish();
}

int main(int argc, char **argv) {
  Driver d;
  memset(&d, 0, sizeof d);
  if (drv_parse_options(argc, argv, &d.opt) < 0) {
    drv_options_free(&d.opt);
    return 1;
  }
  if (d.opt.help || d.opt.version) {
    if (d.opt.help)
      drv_print_help(stdout);
    else
      drv_print_version(stdout);
    drv_options_free(&d.opt);
    return 0;
  }
  drv_install_signal_cleanup();
  int rc = run_driver(&d);
  drv_discard_pending(); /* whatever was not published: failure leaves nothing */
  if (!d.opt.keep)
    drv_workdir_remove();
  free_driver(&d);
  return rc < 0 ? 1 : 0;
}
