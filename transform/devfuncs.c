/* Functions called from kernels: those defined in the file or in its own
 * headers are compiled for the device too (transitively); math.h functions
 * map to CUDA's own. */
#include <stdlib.h>
#include <string.h>

#include "lir.h"
#include "strbuf.h"

/* C library functions CUDA provides in device code under the same name. */
static const char *const device_libc[] = {
    "sqrt", "sqrtf", "cbrt", "cbrtf", "exp", "expf", "exp2", "exp2f", "expm1", "expm1f", "log", "logf", "log2",
    "log2f", "log10", "log10f", "log1p", "log1pf", "pow", "powf", "sin", "sinf", "cos", "cosf", "tan", "tanf",
    "asin", "asinf", "acos", "acosf", "atan", "atanf", "atan2", "atan2f", "sinh", "sinhf", "cosh", "coshf", "tanh",
    "tanhf", "asinh", "acosh", "atanh", "fabs", "fabsf", "fmax", "fmaxf", "fmin", "fminf", "floor", "floorf", "ceil",
    "ceilf", "round", "roundf", "trunc", "truncf", "fmod", "fmodf", "remainder", "copysign", "copysignf", "hypot",
    "hypotf", "erf", "erff", "erfc", "erfcf", "tgamma", "lgamma", "fma", "fmaf", "ldexp", "frexp", "modf", "nan",
    "isnan", "isinf", "isfinite", "signbit", "lround", "llround", "rint", "rintf", "nearbyint", "abs", "labs",
    "llabs", "printf", "memcpy", "memset", "malloc", "free", "assert", "__assert_fail", "rsqrt", "rsqrtf",
    "sincos", "sincosf", "__builtin_expect", "__builtin_fabs", "__builtin_huge_val", "__builtin_inff",
    "__builtin_nan", "__builtin_isnan", "__builtin_isinf_sign", "__builtin_fabsf", "__builtin_inf",
    /* what <math.h>'s NAN, HUGE_VALF, signbit and isfinite expand to in C: the .gt.cu keeps the
     * macro's name, which CUDA defines for device code (not isnormal, fpclassify, isless, ...) */
    "__builtin_nanf", "__builtin_huge_valf", "__builtin_signbit", "__builtin_signbitf", "__builtin_isfinite",
    "__builtin_isinf"};

static bool is_device_libc(const char *name) {
  for (size_t i = 0; i < sizeof device_libc / sizeof *device_libc; i++)
    if (!strcmp(device_libc[i], name)) return true;
  return false;
}

static bool has_function(Function *const *list, int n, const Function *f) {
  for (int i = 0; i < n; i++)
    if (list[i] == f) return true;
  return false;
}

static bool listed(const Program *p, const Function *f) { return has_function(p->device_funcs, p->ndevice_funcs, f); }

static void visit_function(Program *p, Function *f, SrcLoc call_loc);

bool xf_header_function_on_device(const Program *p, const HeaderFunction *fn) {
  for (int i = 0; i < p->ndevice_header_fns; i++)
    if (p->device_header_fns[i] == fn) return true;
  return false;
}

/* A function that a header of the program's own defines (UserHeader.fns):
 * the .gt.cu writes it with the header as a device function, with the
 * header functions it calls. Its body is not parsed into statements; the
 * frontend lists the functions and file-scope variables it names, and a
 * variable device code cannot read is reported at the region's call.
 * Returns whether a header defines name. */
static bool visit_header_function(Program *p, const char *name, SrcLoc call_loc) {
  const TranslationUnit *tu = p->tu;
  for (int h = 0; h < tu->nheaders; h++)
    for (int i = 0; i < tu->headers[h].nfns; i++) {
      const HeaderFunction *fn = &tu->headers[h].fns[i];
      if (strcmp(fn->name, name)) continue;
      if (!xf_header_function_on_device(p, fn)) {
        VEC_PUSH(p->device_header_fns, p->ndevice_header_fns, p->device_header_fns_cap, fn);
        if (fn->nglobals)
          diag_error(call_loc,
                     "'%s' (defined in \"%s\") uses global variable '%s' and is called in an offload region: device "
                     "code cannot read it (only const scalars); pass it as a parameter",
                     fn->name, tu->headers[h].path, fn->globals[0]);
        if (fn->has_atomic)
          diag_error(call_loc,
                     "'%s' (defined in \"%s\") holds an atomic construct and is called in an offload region: gtcc "
                     "reads directives in the .c file only; define the function there",
                     fn->name, tu->headers[h].path);
        for (int c = 0; c < fn->ncalls; c++) visit_header_function(p, fn->calls[c], call_loc);
      }
      return true;
    }
  return false;
}

static void scan_calls(Program *p, const Stmt *s) {
  for (int i = 0; i < s->ncalls; i++) {
    const CallUse *c = &s->calls[i];
    if (!strcmp(c->name, "__builtin_isinf_sign")) p->isinf_sign = true;
    if (c->def) visit_function(p, c->def, c->loc);
    else if (visit_header_function(p, c->name, c->loc)) continue;
    else if (!strncmp(c->name, "__builtin_", 10) && !is_device_libc(c->name))
      diag_error(c->loc,
                 "'%s' is a compiler builtin (also what <math.h>'s isnormal, fpclassify, isless, ... expand to) "
                 "with no device version in CUDA; write the operation out in C",
                 c->name);
    else if (!is_device_libc(c->name))
      diag_error(c->loc,
                 "function '%s' is called in an offload region but is not defined in this file or its own "
                 "headers; gtcc compiles for the device only the functions it can see",
                 c->name);
  }
  for (int i = 0; i < s->nkids; i++) scan_calls(p, s->kids[i]);
}

static bool in_list(const CVar *const *list, int n, const CVar *v) {
  for (int i = 0; i < n; i++)
    if (list[i] == v) return true;
  return false;
}

bool xf_global_via_copy(const CVar *v) { return v->is_global && (!v->is_const || v->tkind != VT_SCALAR); }

/* The variables f's body uses that the device cannot have as C means them.
 * Globals: kernels get them as parameters, a called function cannot. CUDA
 * lets device code read const scalars (initialized by a constant, as C
 * requires at file scope), so their declarations go into the .gt.cu
 * (Program.device_consts). Other globals are the region's copy (capture.c
 * captures them for each region that reaches f): the copy of f in the .gt.cu
 * names them through gt_dg_NAME, which the stub sets, so each use must be
 * the name as written (Program.device_globals). Static locals the function writes (or whose
 * address it takes): the device has its own copy, which the host's writes
 * never reach and whose device writes never come back; reported once per
 * variable (*written lists them). */
static void check_uses(Program *p, const Function *f, const Stmt *s, const CVar ***written, int *nwritten, int *cap) {
  for (int i = 0; i < s->nuses; i++) {
    const VarUse *u = &s->uses[i];
    const CVar *v = u->var;
    if (xf_global_via_copy(v)) {
      if (!xf_word_at(p->tu->file->text, p->tu->file->len, u->loc.offset, v->name))
        diag_error(u->loc, "'%s' uses the global '%s' through a macro and is called in an offload region; write the "
                           "name out, or pass it as a parameter",
                   f->name, v->name);
      else if (v->tkind == VT_POINTER && u->write && !u->addr_taken)
        diag_error(u->loc, "'%s' assigns the global pointer '%s' and is called in an offload region: device code has "
                           "the device address of its data, which the host never sees; pass it as a parameter",
                   f->name, v->name);
      else if (!in_list(p->device_globals, p->ndevice_globals, v))
        VEC_PUSH(p->device_globals, p->ndevice_globals, p->device_globals_cap, v);
    } else if (v->is_global) {
      if (!in_list(p->device_consts, p->ndevice_consts, v))
        VEC_PUSH(p->device_consts, p->ndevice_consts, p->device_consts_cap, v);
    } else if (v->is_static && !v->is_const && (u->write || u->elem_write || u->addr_taken) &&
               !in_list(*written, *nwritten, v)) {
      VEC_PUSH(*written, *nwritten, *cap, v);
      diag_error(u->loc,
                 "'%s' writes its static local '%s' and is called in an offload region: the device has its own copy, "
                 "which the host's writes do not reach and whose device writes do not come back; pass the value in "
                 "or make it a global array named in a data clause",
                 f->name, v->name);
    }
  }
  for (int i = 0; i < s->nkids; i++) check_uses(p, f, s->kids[i], written, nwritten, cap);
}

bool xf_param_as_view(const CVar *v) {
  return v->is_param && v->tkind == VT_VLA_POINTER && v->ndims >= 1 && v->ndims <= 2 && v->decl_end > v->decl_begin;
}

/* Constructs that bind to the team of the calling threads (one of them runs
 * the block): in device code each thread would run it, as if they were not
 * there. (critical gets its lock: frontend/critical.c.) */
static bool team_construct(DirKind k) {
  return k == DIR_OMP_MASKED || k == DIR_OMP_MASTER || k == DIR_OMP_SINGLE ||
         k == DIR_OMP_SECTIONS || k == DIR_OMP_SECTION;
}

static void check_directives(const Program *p, const Function *f, const Stmt *s, SrcLoc call_loc) {
  for (int i = 0; i < s->ndirs; i++) {
    const Directive *d = s->dirs[i];
    if (d->kind == DIR_OMP_CRITICAL) /* a lock around it (frontend/critical.c) */
      xf_check_critical(p, s);
    else if (team_construct(d->kind))
      diag_error(d->loc, "'%s' in '%s', which offload code calls at line %d, is not supported by gtcc: its "
                         "threads would each run the block",
                 dir_name(d->kind), f->name, call_loc.line);
    else if (d->kind == DIR_ACC_HOST_DATA || dir_find_clause(d, CL_USE_DEVICE_PTR) ||
             dir_find_clause(d, CL_USE_DEVICE_ADDR))
      diag_error(d->loc, "'%s' with device addresses in '%s', which offload code calls at line %d: only host code "
                         "can take them",
                 dir_name(d->kind), f->name, call_loc.line);
  }
  for (int i = 0; i < s->nkids; i++) check_directives(p, f, s->kids[i], call_loc);
}

static void visit_function(Program *p, Function *f, SrcLoc call_loc) {
  if (listed(p, f)) return;
  if (!f->body) {
    diag_error(call_loc, "function '%s' is called in an offload region but has no body here", f->name);
    return;
  }
  VEC_PUSH(p->device_funcs, p->ndevice_funcs, p->device_funcs_cap, f);
  for (int i = 0; i < f->nparams; i++)
    if (xf_param_as_view(f->params[i])) continue; /* the device copy takes a gtrt_vla view (emit_cu.c) */
    else if (f->params[i]->tkind == VT_VLA_POINTER || (f->params[i]->tkind == VT_OTHER && strchr(f->params[i]->type, '[')))
      diag_error(f->params[i]->loc,
                 "parameter '%s' of '%s' is a variable-length array; gtcc cannot compile '%s' for the device (pass a "
                 "flat pointer and the sizes)",
                 f->params[i]->name, f->name, f->name);
  const CVar **written = NULL;
  int nwritten = 0, cap = 0;
  check_uses(p, f, f->body, &written, &nwritten, &cap);
  free(written);
  check_directives(p, f, f->body, call_loc);
  scan_calls(p, f->body);
}

static int by_offset(const void *a, const void *b) {
  const Function *fa = *(Function *const *)a, *fb = *(Function *const *)b;
  return fa->begin < fb->begin ? -1 : fa->begin > fb->begin;
}

/* Functions that a device function defined before them calls (the C file
 * declares them with a prototype first, as mutual recursion must): the .gt.cu
 * declares them before the definitions. */
static void find_protos(Program *p, const Function *caller, const Stmt *s) {
  for (int i = 0; i < s->ncalls; i++) {
    Function *callee = s->calls[i].def;
    if (callee && callee->begin > caller->begin && listed(p, callee) &&
        !has_function(p->device_protos, p->ndevice_protos, callee))
      VEC_PUSH(p->device_protos, p->ndevice_protos, p->device_protos_cap, callee);
  }
  for (int i = 0; i < s->nkids; i++) find_protos(p, caller, s->kids[i]);
}

/* Calls gtcc compiles for the device, reachable from s: appended to *seen
 * (a set; the walk stops at functions already in it). */
static void reach(const Program *p, const Stmt *s, Function ***seen, int *nseen, int *cap) {
  for (int i = 0; i < s->ncalls; i++) {
    Function *f = s->calls[i].def;
    if (!f || !f->body || !listed(p, f) || has_function(*seen, *nseen, f)) continue;
    VEC_PUSH(*seen, *nseen, *cap, f);
    reach(p, f->body, seen, nseen, cap);
  }
  for (int i = 0; i < s->nkids; i++) reach(p, s->kids[i], seen, nseen, cap);
}

static bool calls_itself(const Program *p, const Function *f) {
  Function **seen = NULL;
  int nseen = 0, cap = 0;
  reach(p, f->body, &seen, &nseen, &cap);
  bool found = has_function(seen, nseen, f);
  free(seen);
  return found;
}

/* Recursion on the device runs in CUDA's per-thread stack (1 KB by default),
 * which a few dozen frames fill: the stubs of kernels that reach a recursive
 * function raise it (--device-stack). */
#define DEFAULT_DEVICE_STACK 16384

static void find_recursion(Program *p, Kernel *k) {
  Function **seen = NULL;
  int nseen = 0, cap = 0;
  if (k->phased)
    for (int s = 0; s < k->phased->nstages; s++) reach(p, k->phased->stages[s].k->body, &seen, &nseen, &cap);
  else
    reach(p, k->body, &seen, &nseen, &cap);
  for (int i = 0; i < nseen && !k->recursive_fn; i++)
    if (calls_itself(p, seen[i])) k->recursive_fn = seen[i];
  free(seen);
  if (k->recursive_fn) k->device_stack = p->opts.device_stack >= 0 ? p->opts.device_stack : DEFAULT_DEVICE_STACK;
}

void xf_device_functions(Program *p) {
  for (int i = 0; i < p->nkernels; i++) {
    const Kernel *k = p->kernels[i];
    if (!k->body) continue;
    if (k->phased) /* only the task bodies run on the device; the rest is host code */
      for (int s = 0; s < k->phased->nstages; s++) scan_calls(p, k->phased->stages[s].k->body);
    else
      scan_calls(p, k->body);
  }
  if (p->ndevice_funcs > 1) qsort(p->device_funcs, (size_t)p->ndevice_funcs, sizeof *p->device_funcs, by_offset);
  for (int i = 0; i < p->ndevice_funcs; i++) find_protos(p, p->device_funcs[i], p->device_funcs[i]->body);
  if (p->ndevice_protos > 1) qsort(p->device_protos, (size_t)p->ndevice_protos, sizeof *p->device_protos, by_offset);
  for (int i = 0; i < p->nkernels; i++)
    if (p->kernels[i]->body) find_recursion(p, p->kernels[i]);
}
