/* Lowered IR: what the transform decided, what codegen writes.
 *
 * A Program holds, for one file, the offload kernels (one per parallel
 * loop), the data regions and the standalone data directives, each pointing
 * back at the frontend statements and directives they came from (codegen
 * copies source text by range). Every node has a source location. */
#ifndef GTCC_LIR_H
#define GTCC_LIR_H

#include <string.h>

#include "transform.h"
#include "taskdeps.h"

/* How a variable used in a kernel reaches the device. */
typedef enum CaptureKind {
  CAP_VALUE,     /* scalar or struct passed by value (firstprivate) */
  CAP_MAPPED,    /* array/pointer: host address translated through the present table */
  CAP_DEVICEPTR, /* pointer already holding a device address (deviceptr) */
  CAP_REDUCTION, /* scalar reduction: per-thread copy, combined at the end */
  CAP_PRIVATE,   /* private: uninitialised per-thread copy */
  CAP_SHARED,    /* scalar or struct an atomic construct updates: one device copy that every thread
                    reaches through a pointer, mapped like an array (copied in and out around the kernel,
                    or found in an enclosing data region) */
} CaptureKind;

typedef struct Capture {
  CVar *var;
  CaptureKind kind;
  RedOp red_op;   /* CAP_REDUCTION */
  SrcLoc loc;     /* first use in the region */
  const struct Function *via_fn; /* a global that a function the region calls uses (CAP_SHARED or
                                    CAP_MAPPED): the stub stores its device address in the .gt.cu's
                                    gt_dg_NAME, which the device functions' copies read (devfuncs.c) */
  bool fn_writes; /* via_fn: some called function assigns it or an element of it */
} Capture;

/* What a data clause does (mirrors the runtime's gtrt_map_kind). */
typedef enum XMapKind { XM_ALLOC, XM_TO, XM_FROM, XM_TOFROM, XM_PRESENT } XMapKind;

/* One data clause item: a host section [addr, addr+bytes) and what to do. */
typedef struct DataMap {
  CVar *var;
  const char *member; /* a member's section (copyin(A.rp[0:n])): ".rp" (the clause's text), NULL for var itself */
  SrcLoc loc;
  XMapKind kind;
  char *addr_text; /* host C expression: start of the section */
  char *bytes_text;/* host C expression: size in bytes */
  bool force_delete; /* exit: delete / map(delete:) */
  bool always;       /* map(always, ...): to / from copy even when the data is present */
} DataMap;

/* The member part of m's name ("A" + ".rp" in messages), "" for a variable. */
static inline const char *xf_map_member(const DataMap *m) { return m->member ? m->member : ""; }

/* Whether m maps v itself, not the data one of v's members points to. */
static inline bool xf_maps_var(const DataMap *m, const CVar *v) { return m->var == v && !m->member; }

/* Whether a and b name the same thing (v, or the same member of v). */
static inline bool xf_same_map_item(const DataMap *a, const DataMap *b) {
  return a->var == b->var && (a->member ? b->member && !strcmp(a->member, b->member) : !b->member);
}

typedef struct DataMapList {
  DataMap *m;
  int n, cap;
} DataMapList;

typedef enum KernelShape {
  KS_FLAT,   /* one thread per outer iteration; inner loops sequential */
  KS_NESTED, /* CollectiveDP: parent kernel + next-level kernel (NLK) */
  KS_TASKS,  /* task-dependency loop nest: persistent megakernel (tasks.c) */
  KS_PHASED, /* several task loops / taskwait / host control flow: one megakernel over phases (phases.c) */
} KernelShape;

/* A reduction of the inner parallel loop (its variable is a local of the
 * outer body, declared before the inner loop). */
typedef struct InnerReduction {
  CVar *var;
  RedOp op;
} InnerReduction;

/* CollectiveDP lowering of `outer { Before; inner parallel loop; After }`. */
typedef struct Nested {
  Stmt *inner;          /* the inner parallel loop (a top-level statement of the outer body, or guard's branch) */
  Stmt *guard;          /* `if (c) inner-loop [else ...]` holding it, or NULL: the parent evaluates c
                         * and its else branch, and the loop has no iterations when c is false */
  Stmt *block;          /* `{ B; inner-loop; A }` or `if (c) { B; inner-loop; A } [else ...]` holding it, or
                         * NULL: the parent runs the block's text around its decision; where a tier runs
                         * the loop, `{ A }` then After follow it (c held: the else branch never runs there) */
  Stmt *scope;          /* that `{ }` (block itself or its then branch): the inner loop is scope->kids[scope_index] */
  int scope_index;
  Directive *inner_dir;
  /* `collapse(n)` on the inner directive, applied (nested.c, inner_collapse): the tiers run the
   * n loops' iterations as one range, the innermost loop's index varying fastest. iloops[0] is
   * inner's own loop; ibody is the innermost body, which the tiers run per iteration. Without
   * collapse: icollapse 1 and ibody inner's body. */
  int icollapse;
  const Stmt *iloops[3];
  const Stmt *ibody;
  const char *collapse_note; /* why the inner directive's collapse(n) is not applied, or NULL */
  int inner_index;      /* its (guard's, block's) index in the outer body: kids before = Before, after = After */
  CVar **ctx;           /* locals of Before used by the inner loop or After: saved per context */
  int nctx, ctx_cap;
  InnerReduction *reds;
  int nreds, reds_cap;
  CVar **privs;         /* private variables of the inner loop */
  int nprivs, privs_cap;
  CdpMode mode;
  long long warp_threshold; /* trip counts above this leave the parent thread */
  long long threshold;      /* ... and above this go to the next-level kernel */
  long long chunk;          /* inner iterations per NLK block; longer loops use several blocks */
  const ElemRead **streamed; /* reads a[j] of the inner body that each outer iteration makes of its own
                              * part of a read-only array (CSR val[j], col[j]): streaming loads in the
                              * warp-flat tier, so they do not push gathered data out of L2 */
  int nstreamed, streamed_cap;
  const Stmt **statics; /* Before declarations of `static const` tables the inner loop or After read:
                         * each executor declares them again (read-only, so a copy is the same) */
  int nstatics, statics_cap;
  /* Several inner loops in one body run as stages: `Before; L1; M1; L2; After`. Stage 2 (next) has
   * its own context, executor and NLK; whoever runs L1's After (M1) decides L2's tier there:
   * short ones inline, long ones saved for stage 2's NLK, launched after stage 1's. */
  struct Nested *next;
  int stage;            /* 1, 2, ...: suffixes the names of its struct, kernels and buffers */
  const CVar **after_decls; /* declared again where After runs: indices of its loops, later stages' privates */
  int nafter_decls, after_decls_cap;
} Nested;

/* The statement of the outer body that holds stage n's inner loop: its guard, its block or the loop;
 * After starts at its end. */
static inline const Stmt *xf_nested_holder(const Nested *n) { return n->guard ? n->guard : n->block ? n->block : n->inner; }

/* One depend item of the task directive: `H[i-1][j]` as written. */
typedef struct TaskDep {
  CVar *var;
  const VarItem *item;
  DependKind kind;
} TaskDep;

/* `omp parallel` + `single` (or `omp target`) around a loop nest whose body
 * is one `omp task depend(...)`: each iteration is a task. With affine
 * subscripts the dependences are distance vectors known at compile time
 * (taskdeps.h); otherwise an inspector on the host builds them at run time.
 * Tasks may be tiles of iterations (tile[l] > 1), run along hyperplanes. */
typedef struct TaskRegion {
  Directive *target;     /* omp target / target teams, or NULL */
  Directive *parallel;   /* omp parallel (NULL under omp target without one) */
  Directive *single;     /* omp single / master */
  Directive *task;
  TaskDep *deps;
  int ndeps, deps_cap;
  bool affine;           /* distances known: no inspector */
  const char *why_inspector;
  TdDeps cell;           /* affine: cell-level distances */
  TdDeps tile_deps;      /* affine and tiled: tile-level distances */
  long long tile[3];     /* iterations per task in each loop (1 = one task per iteration) */
  bool tiled;
  int worker;            /* threads per worker: 1, 32, or 0 (the whole block) */
  int queue;             /* gtrt_task_policy */
  Stmt *inner;           /* parallel loop inside the task body, run by the worker's threads */
  InnerReduction *inner_reds; /* its reduction clause: variables declared in the body before it */
  int ninner_reds, inner_reds_cap;
  bool inner_after;      /* statements follow it in the body: the worker's first thread runs them */
} TaskRegion;

/* A task loop nest or single task of a phased region: one task type. Its
 * Kernel (not in Program.kernels) holds the nest (collapse 0 for a single
 * task), the task body, depend items and captures, as for KS_TASKS. */
typedef struct TaskStage {
  struct Kernel *k;
  Stmt *stmt;       /* statement the host walk replaces (the outer loop, or the task) */
  unsigned begin;   /* first pragma line of it */
  bool self_indep;  /* affine without distances: two of its tasks never conflict */
  bool linear_items; /* one loop, and every depend address is affine in its variable
                        ((b+1)*bs: coefficients may be loop-invariant integers), so the
                        host walk takes the strides from two tasks */
  bool narrow;      /* a warp is enough: no parallel loop, or one of at most 32
                       iterations (constant bounds); block workers then run
                       phases of only such tasks one task per warp */
  const Stmt *host_loop; /* a single task in a for loop that is no task loop nest because it is not in
                            canonical form (`i != n`): the note says why, or NULL */
} TaskStage;

typedef struct TaskGroupMark {
  Stmt *stmt;
  Directive *dir;  /* omp taskgroup, or omp taskloop (its implicit taskgroup) */
  bool barrier;    /* false: taskloop nogroup, whose tasks the next taskwait waits for */
} TaskGroupMark;

/* Host code of a phased region that needs what the tasks wrote: it reads
 * or writes through an array or pointer, or calls a function. The region
 * is split before it: the tasks recorded so far run to completion, and the
 * mapped data it names comes back to the host (and goes back to the device
 * before the next tasks when it may write it). */
typedef struct HostSplit {
  const Stmt *stmt;
  int stage;            /* the loop headers of this stage's nest need the data (split before it), or -1 */
  bool before;          /* the split code goes before the statement */
  bool wrap;            /* before, and not an item of a { } block: the split code and it go in braces */
  struct {              /* header expressions of a loop or if around tasks (the condition, a for's
                           increment) that get the split in front: (split, expr) */
    unsigned begin, end;
  } in[2];
  int nin;
  const char *why_name; /* for the note: the variable read or written, or the function called */
  SrcLoc why_loc;
  bool why_call;
  const char *why_item; /* or the subscript of a depend item of why_name that reads memory (`P[r]` of x[P[r]]) */
  bool opaque_call;     /* calls a function that may reach any memory: globals the tasks use come back too */
  bool all, all_write;  /* reaches memory through pointers it does not name (a pointer to pointers, a struct's
                           pointer member, a depend item that reads memory): every mapped section comes back */
  struct SplitVar {
    CVar *var;          /* an array or pointer whose mapped section comes back to the host */
    bool write;         /* the host code may write through it */
  } *vars;
  int nvars, vars_cap;
} HostSplit;

/* `omp parallel` + `single` around host control flow (loops, ifs, scalar
 * code) that creates tasks from several task loops and single tasks, with
 * taskwait / taskgroup between them. The host walks the block first (its
 * scalar code runs there, in program order), recording stage instances,
 * depend addresses and phase boundaries (gtrt_plan); one megakernel then
 * runs every phase. Values the host code changes reach the tasks through a
 * per-instance snapshot. */
typedef struct PhasedRegion {
  Directive *target, *parallel, *single;
  Stmt *body;            /* the statement under the single */
  TaskStage *stages;
  int nstages, stages_cap;
  Directive **waits;     /* taskwait lines: phase boundaries */
  int nwaits, waits_cap;
  TaskGroupMark *groups; /* statements under omp taskgroup: a boundary at their end */
  int ngroups, groups_cap;
  CVar **snap;           /* variables the tasks read whose value the host code sets */
  int nsnap, snap_cap;
  HostSplit *splits;     /* host statements before which the region is split, in program order */
  int nsplits, splits_cap;
  int worker;            /* threads per worker: 1, 32, or 0 (the whole block) */
  int queue;
} PhasedRegion;

typedef struct Kernel {
  int id;
  char *name;        /* gt_<file>_<line>_k<id> */
  SrcLoc loc;        /* of the directive */
  Directive *dir;    /* the loop directive (combined or the inner acc loop) */
  Directive *outer;  /* enclosing compute construct (acc parallel { acc loop }), or NULL */
  const char *what;  /* "acc parallel loop", ... for messages */
  Stmt *stmt;        /* the outermost for loop */
  Stmt *replace;     /* statement whose text the host code replaces */
  unsigned replace_begin; /* first pragma line of the construct */
  int collapse;
  ForLoop *loops[3];
  Stmt *loop_stmts[3];
  Stmt *body;        /* body of the innermost collapsed loop */
  Capture *caps;
  int ncaps, caps_cap;
  DataMapList maps;  /* the construct's own data clauses */
  Expr if_cond;      /* if(...) clause, text NULL if none */
  int block;         /* threads per block */
  Expr max_blocks;   /* num_gangs / num_teams, text NULL if none */
  Stmt **seq_inner;  /* inner parallel loops run sequentially (noted in the .cu) */
  int nseq_inner, seq_inner_cap;
  KernelShape shape;
  Nested *nested;    /* KS_NESTED */
  TaskRegion *tasks; /* KS_TASKS, and each stage of a KS_PHASED region */
  PhasedRegion *phased; /* KS_PHASED */
  const Stmt *phase_body; /* a stage of a phased region: the block under its single */
  CVar **reported;   /* variables whose capture errors were reported (one each) */
  int nreported, reported_cap;
  const char *flat_reason; /* why an inner parallel loop stays sequential, or NULL */
  const Function *recursive_fn; /* a recursive device function the kernel calls (devfuncs.c), or NULL */
  long long device_stack; /* > 0: the stub raises the device stack to this many bytes per thread */
  const CVar **region_privates; /* private / firstprivate on the parallel / single around tasks: the region
                                    works on the variable, whose value the host code puts back after it */
  int nregion_privates, region_privates_cap;
  bool serial;       /* code one thread runs once (acc serial, a statement between the loops of a
                        compute construct): loops[0] is once_loop, 0 <= gt_once < 1 (regions.c) */
  ForLoop once_loop;
  CVar once_iv;
} Kernel;

/* acc data / omp target data around a statement. */
typedef struct DataRegion {
  Directive *dir;
  Stmt *stmt;
  unsigned wrap_begin; /* where the region's entry code goes: stmt->begin, or the
                          first pragma of a construct nested on the same statement */
  DataMapList maps;
  Expr if_cond;
  /* acc host_data use_device / omp target data use_device_ptr|addr: pointers
   * and arrays whose names stand for their device addresses in the body */
  const CVar **use_device;
  int nuse_device, use_device_cap;
  bool keep_absent; /* an address not on the device stays the host's (if_present; OpenMP always) */
} DataRegion;

/* Whether data region r's statement holds kernel k's. */
static inline bool xf_region_holds(const DataRegion *r, const Kernel *k) {
  return r->stmt->begin <= k->stmt->begin && r->stmt->end >= k->stmt->end;
}

typedef enum StandaloneKind { SA_ENTER, SA_EXIT, SA_UPDATE } StandaloneKind;

/* enter data / exit data / update: one pragma line becomes runtime calls. */
typedef struct Standalone {
  Directive *dir;
  StandaloneKind kind;
  DataMapList maps;  /* SA_UPDATE: XM_TO = to the device, XM_FROM = to the host */
  Expr if_cond;
  bool if_present;   /* update if_present: skip sections that are not mapped */
} Standalone;

/* acc declare (declare.c): at file scope (block NULL) entered once, when the
 * file's first construct runs; in a function a data region from the
 * directive to the end of block, whose exits also run before each return. */
typedef struct Declare {
  Directive *dir;
  DataMapList maps;
  Stmt *block;           /* the enclosing block, or NULL at file scope */
  const Stmt **returns;  /* returns below the directive in block */
  int nreturns, returns_cap;
} Declare;

struct Program {
  TranslationUnit *tu;
  XfOptions opts;
  Kernel **kernels;
  int nkernels, kernels_cap;
  DataRegion **datas;
  int ndatas, datas_cap;
  Standalone **standalones;
  int nstandalones, standalones_cap;
  Declare **declares;
  int ndeclares, declares_cap;
  Function **device_funcs; /* called from kernels, in file order */
  int ndevice_funcs, device_funcs_cap;
  Function **device_protos; /* device functions called before their definition (C prototypes): declared first */
  int ndevice_protos, device_protos_cap;
  const HeaderFunction **device_header_fns; /* functions of user headers called from kernels (written with the header) */
  int ndevice_header_fns, device_header_fns_cap;
  OffsetRange *hoisted_types; /* type declarations in functions that kernels use: copied to the .gt.cu's file scope (names.c), file order */
  int nhoisted_types, hoisted_types_cap;
  bool isinf_sign; /* device code calls glibc's isinf (the sign form, devfuncs.c): the .gt.cu gives it glibc's values */
  const CVar **device_consts; /* const scalar globals that device functions read: their declarations go to the .gt.cu (devfuncs.c) */
  int ndevice_consts, device_consts_cap;
  const CVar **device_globals; /* other globals that device functions use: reached through gt_dg_NAME (devfuncs.c) */
  int ndevice_globals, device_globals_cap;
};

/* Passes inside the transform (each one entry function). */
void xf_form_regions(Program *p);          /* regions.c */
void xf_capture(Program *p, Kernel *k);     /* capture.c */
void xf_declares(Program *p);               /* declare.c: before the regions, whose captures see them */
void xf_check_declares(const Program *p);   /* declare.c: none in offload code */
/* declare.c: v is in an acc declare whose scope holds offset (file scope: anywhere). */
bool xf_declared_at(const Program *p, const CVar *v, unsigned offset);
bool xf_has_file_declares(const Program *p);
/* regions.c: is the label goto g names defined inside region? */
bool xf_goto_stays_in(const char *text, const Stmt *region, const Stmt *g);
bool xf_is_local(const Stmt *s, const CVar *v); /* capture.c: v is declared inside s (not a global) */
bool xf_is_atomic(const Directive *d);          /* capture.c: acc atomic / omp atomic */
void xf_device_functions(Program *p);       /* devfuncs.c */
/* devfuncs.c: whether device functions reach global v through the region's copy
 * (every global but a const scalar, which the .gt.cu declares itself). */
bool xf_global_via_copy(const CVar *v);
void xf_check_names(Program *p);            /* names.c: what reaches the .gt.cu compiles as C++ */
void xf_nested(Program *p, Kernel *k);      /* nested.c: decides KS_NESTED */
void xf_free_nested(Nested *n);             /* nested.c: frees what xf_nested built (NULL: nothing) */
/* tasks.c: if the construct at s->dirs[di] (omp parallel / target) creates
 * tasks, lowers it to a KS_TASKS kernel (or reports why not) and returns true. */
bool xf_task_region(Program *p, Stmt *s, int di);
/* Lowers the block under a single that is not one task loop nest (tasks.c
 * decided) to a KS_PHASED kernel, or reports why not (phases.c). */
void xf_phased_region(Program *p, Kernel *k, Stmt *body, int body_di);
/* host_split.c: what a statement's own expressions (not its kids) need of
 * the memory the tasks of block (the region's body) can reach, added to hs
 * (vars, why_*, opaque_call); where the split goes in the header of a loop
 * or if around tasks (false: nowhere). */
void xf_host_needs(const Program *p, const Stmt *block, const Stmt *s, HostSplit *hs);
bool xf_header_places(const Program *p, const Stmt *s, HostSplit *hs);
bool xf_pointerish(const CVar *v); /* an array, pointer or pointer to a VLA */
void xf_split_var(HostSplit *hs, CVar *v, bool write); /* adds v once; write accumulates */
/* The split code runs where variables declared inside s do not exist yet:
 * when s reads or writes through one of them (a row pointer declared in a
 * block), every array and pointer s names from outside comes back instead,
 * with the globals the tasks use. */
void xf_split_outer_only(const Stmt *s, HostSplit *hs);
/* host_split.c: whether t[at..] is the word kw (not the start of a longer name). */
bool xf_word_at(const char *t, size_t len, size_t at, const char *kw);
bool xf_text_reads_memory(const Program *p, const char *expr_text); /* x[i], p->f, *q or a call that may read memory */
bool xf_text_has_call(const char *expr_text);
/* tasks.c, shared with phases.c: the depth of the perfect task loop nest at
 * s, ignoring its directives before index di0 (its task statement to
 * *task), 0 if s is not one; and the checks,
 * depend items, captures and affine analysis of one task type k (k->tasks,
 * loops, collapse, body and dir set; collapse 0 for a single task). */
int xf_task_nest_depth(const Program *p, Stmt *s, int di0, Stmt **task);
bool xf_task_stage(Program *p, Kernel *k);
/* tasks.c: does s (its directives or any statement below) create a task;
 * the first standalone directive at a file offset in [begin, end); threads
 * per worker from --task-worker, dflt when it is auto. */
bool xf_has_task(const Stmt *s);
const Directive *xf_standalone_in(const Program *p, unsigned begin, unsigned end);
int xf_task_worker(const XfOptions *o, int dflt);
/* A pointer-to-VLA parameter (`int (*H)[m]`, `int H[n][m]`) of a device
 * function, passed as a gtrt_vla view in the device copy (devfuncs.c). */
bool xf_param_as_view(const CVar *v);
/* Whether kernels call fn, a function of a user header (devfuncs.c). */
bool xf_header_function_on_device(const Program *p, const HeaderFunction *fn);
/* Whether statement s's own expressions (not its kids') use v (regions.c):
 * e.g. a loop header that reads an outer loop variable. */
bool xf_stmt_uses(const Stmt *s, const CVar *v);
/* The single statement inside s, looking through { } with one item. */
Stmt *xf_only_stmt(Stmt *s);
/* n of a collapse(n) clause: a constant from 1 to 3, else an error and -1. */
int xf_collapse_depth(const Clause *c);
/* The first use of v below s that is one of `kinds` (any use for XF_USE_ANY), or NULL. */
enum { XF_USE_ANY = 0, XF_USE_WRITE = 1, XF_USE_ELEM_WRITE = 2, XF_USE_ADDR = 4, XF_USE_DECAY = 8 };
const VarUse *xf_find_use(const Stmt *s, const CVar *v, unsigned kinds);
/* v used (only writes: assigned, incremented, address taken) anywhere below s; *where the first such use. */
bool xf_subtree_uses(const Stmt *s, const CVar *v, bool writes_only, SrcLoc *where);
/* Reports a return, a goto to a label outside body, a break or a continue
 * that leaves body, a task body or (loop_body) a loop's body, where
 * continue is fine (regions.c). */
bool xf_check_jumps(const Program *p, const Stmt *body, const char *what, bool loop_body);
bool xf_check_critical(const Program *p, const Stmt *s); /* regions.c: no jump out of an omp critical block */
Capture *xf_find_capture(const Kernel *k, const CVar *v); /* capture.c: k's capture of v, or NULL */
/* Is the character before file offset `at` (spaces skipped) the unary
 * operator op (`&x`, `*p`), not a binary one (regions.c)? */
bool xf_unary_before(const char *text, size_t at, char op);
/* The parenthesized text at `at` (after blanks; literals skipped): open and close are the
 * offsets of its '(' and ')'; semi[0..1] the first two ';' at depth 1 (host_split.c). */
bool xf_paren_at(const char *t, size_t len, size_t at, size_t *open, size_t *close, size_t semi[2]);
/* Kernel name for a construct (regions.c). */
char *xf_kernel_name(const Program *p, const Directive *d, int id);
/* Reports bad gtcc_cdp / gtcc_threshold arguments (nested.c). */
void xf_check_gtcc_clauses(const Directive *d);
/* Turns a data clause into DataMaps (datamap.c). */
void xf_clause_maps(Program *p, const Directive *d, const Clause *c, XMapKind kind, bool force_delete, DataMapList *out);
/* The variable a clause item names, as seen at offset (nearest declaration before it). */
CVar *xf_lookup_var(const Program *p, const char *name, unsigned offset);
/* " (it is a macro: ...)" when name is a macro, for messages about a clause
 * item that is not a variable; else "" (datamap.c). */
const char *xf_macro_hint(const Program *p, const char *name);
/* Reports clause item it, which names no variable in scope (datamap.c). */
void xf_unknown_clause_item(const Program *p, const Clause *c, const VarItem *it);
/* Is v's section known on the device in kernel k: mapped by its construct
 * (k->maps), an enclosing data region, or an unstructured enter data in this
 * file (capture.c)? */
bool xf_has_mapping(const Program *p, const Kernel *k, const CVar *v);
/* v is a const object (a const scalar or struct, or an array of const
 * elements): copying data back into it would write read-only memory (datamap.c). */
bool xf_object_is_const(const CVar *v);
/* Reports OpenMP's copyin (threadprivate data, not a mapping) and says
 * whether c was one (datamap.c). */
bool xf_misused_copyin(const Directive *d, const Clause *c);
/* The data clauses on d (copy, copyin, ..., map) as DataMaps. */
void xf_directive_maps(Program *p, const Directive *d, DataMapList *out);

#endif
