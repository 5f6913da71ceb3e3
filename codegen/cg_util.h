/* Helpers shared by the .gt.cu and .gt.c emitters (internal to codegen). */
#ifndef GTCC_CG_UTIL_H
#define GTCC_CG_UTIL_H

#include "../transform/lir.h"
#include "codegen.h"
#include "../frontend/frontend.h"
#include "edits.h"
#include "strbuf.h"

/* `#line N "file"` on a line of its own: the unit's file, or path. */
void cg_line_directive(StrBuf *sb, const TranslationUnit *tu, int line);
void cg_line_directive_to(StrBuf *sb, const char *path, int line);
/* A user header that defines functions, written out in place of its
 * #include without those regions do not call (emit_headers.c; see
 * UserHeader in ast.h). */
void cg_emit_user_header(StrBuf *sb, const Program *p, int header, bool line_directives);
/* `static const gtrt_site VAR = {"file", line, "what"};` */
void cg_site(StrBuf *sb, const TranslationUnit *tu, const char *var, SrcLoc loc, const char *what);
/* Source text [begin, end) with inner pragma lines commented out. */
void cg_copy_source(StrBuf *sb, const TranslationUnit *tu, unsigned begin, unsigned end);
/* The same with extra edits (sorted by fe_fix_order) applied together with the C++ edits. */
void cg_copy_source_edited(StrBuf *sb, const TranslationUnit *tu, unsigned begin, unsigned end, const TextFix *extra,
                           int nextra);
/* The preprocessor lines between a construct's directive and its statement
 * ([begin, end)) other than the directives gtcc lowers: `#else`, `#endif`
 * and the skipped directives of `#if A / #pragma acc ... / #else / #pragma
 * omp ... / #endif`. The construct's replacement ends with them so that the
 * conditional stays balanced. */
void cg_gap_directives(StrBuf *sb, const TranslationUnit *tu, unsigned begin, unsigned end);
const char *cg_map_kind(const DataMap *m);
const char *cg_red_op(RedOp op);
/* The gtrt_trip relation constant (gtrt_cdp.cuh) of a loop's comparison. */
const char *cg_rel_const(RelOp r);
/* Declarations (malloc'ed): pointer form of an array/pointer variable, and a by-value one. */
char *cg_pointer_decl(const CVar *v, const char *name);
char *cg_value_decl(const CVar *v, const char *name);
char *cg_cast_type(const CVar *v);
/* At a kernel's end: each reduction's block total into PARTS<name>[blockIdx.x] (emit_cu.c). */
void cg_block_partials(StrBuf *sb, const Kernel *k, const char *parts);
/* In a launch stub, after *v holds a reduction's result: the copy of v a
 * data region or map clause has on the device gets it too (emit_cu.c). */
void cg_reduction_to_present(StrBuf *sb, const CVar *v);
/* Blanks the qualifiers of the outermost pointer of a type's text, those
 * after its last '*' (`T *const restrict` -> `T *`), or for a function
 * pointer after its `(*` (`double (*const)(double *)`). */
void cg_blank_pointer_qualifiers(char *t);

/* Runtime calls that enter (or exit, in reverse) each map (emit_host.c). */
void cg_map_calls(StrBuf *sb, const DataMapList *maps, const char *site, int enter);
void cg_map_exits_reversed(StrBuf *sb, const DataMapList *maps, const char *site);
/* OpenACC and OpenMP take a data region's sections once, at the entry: the
 * body may change `n` in x[0:n] before the exit. Writes declarations of
 * PREFIX_aI / PREFIX_bI (the start and size of map I, evaluated when the C
 * expression `on` holds, else 0) into sb unless it is NULL, and returns maps
 * naming them instead (cg_free_frozen frees it). */
DataMapList cg_frozen_maps(StrBuf *sb, const DataMapList *maps, const char *prefix, const char *on);
void cg_free_frozen(DataMapList *l);
/* acc declare in the .gt.c (emit_declare.c): the edits of function-scope
 * declares (entry, exits at the block's end and before returns) and the
 * file-scope ones' pragmas; gt_declares(), which enters the file-scope ones
 * once, after the file's text. */
void cg_declare_edits(EditList *el, const Program *p);
void cg_declares_function(StrBuf *sb, const Program *p);

/* The two emitters. */
char *cg_emit_cu(const Program *p, const CgOptions *opts);
char *cg_emit_host(const Program *p, const CgOptions *opts);
/* CollectiveDP kernels, NLK and stub of a KS_NESTED kernel (emit_nested.c). */
void cg_emit_nested(StrBuf *sb, const Program *p, const Kernel *k);
/* Task megakernel, its init kernel and stub of a KS_TASKS kernel (emit_tasks.c). */
void cg_emit_tasks(StrBuf *sb, const Program *p, const Kernel *k, const CgOptions *opts);
/* Host code of a task region run before the stub call: the inspector walk
 * when dependences are not known at compile time (emit_tasks.c). */
void cg_task_host_prelude(StrBuf *sb, const Kernel *k);
/* Host code after a task loop nest that ran as tasks: its loop variables
 * declared outside the loop get the value the source loop leaves. */
void cg_task_final_ivs(StrBuf *sb, const Kernel *k, const char *indent);
/* Pieces of a task megakernel shared with phased regions (emit_tasks.c):
 * gt_N[l] / gt_total from gt_n[l]; coordinates gt_k[l] from the linear id t;
 * what one worker does with task gt_k (ivs, body); the inspector lines
 * `REPORT, gt_t, &item, kind);` of each depend item. */
void cg_task_box(StrBuf *sb, const Kernel *k, const char *indent);
/* Host code: `gt_lb<l>`, `gt_st<l>`, `gt_n<l>` (trip count) of each of k's loops (emit_host.c). */
void cg_loop_bounds(StrBuf *sb, const Kernel *k, const char *indent);
void cg_task_decode(StrBuf *sb, const Kernel *k, const char *t, const char *indent);
/* w: the worker width in the generated code ("GT_W", the kernel's template parameter, named
 * GT_ because user code is copied into the kernel; or "32" for a warp of a block worker). */
void cg_task_run(StrBuf *sb, const Program *p, const Kernel *k, const CgOptions *opts, const char *w);
void cg_task_report_deps(StrBuf *sb, const TaskRegion *tr, const char *report, const char *indent);
/* The address of a depend item: (const void *)&(name[sub]...). */
void cg_task_dep_addr(StrBuf *sb, const TaskDep *dp);
/* The inspector's kind number of a depend kind: "0" in, "1" out, "2" inout. */
const char *cg_task_dep_kind(DependKind kd);
/* Phased task regions (KS_PHASED, emit_phases.c): the megakernel and stub in
 * the .gt.cu, and the host walk that records the plan before the stub call
 * (stub_call, which also runs where host code splits the region). */
void cg_emit_phases(StrBuf *sb, const Program *p, const Kernel *k, const CgOptions *opts);
void cg_phases_host_walk(StrBuf *sb, const Program *p, const Kernel *k, const char *stub_call);
/* The (collapsed) loops' trip counts, bounds and steps as kernel parameters
 * (`long long gt_n0, long long gt_lb0, long long gt_st0, ...`) and as launch
 * arguments; their iteration count `gt_n0 * gt_n1 * ...` (emit_cu.c). */
void cg_loop_params(StrBuf *sb, const Kernel *k);
void cg_loop_args(StrBuf *sb, const Kernel *k);
void cg_trip_product(StrBuf *sb, const Kernel *k);
/* Kernel parameters / arguments for the captures and loop bounds, and the
 * per-thread private copies (emit_cu.c). */
void cg_kernel_params(StrBuf *sb, const Kernel *k);
void cg_kernel_args(StrBuf *sb, const Kernel *k);
void cg_kernel_locals(StrBuf *sb, const Kernel *k);
/* The thread's copy of a private variable of the construct (as cg_kernel_locals declares it). */
void cg_private_local(StrBuf *sb, const CVar *v, const char *indent);
/* CAP_SHARED captures (emit_cu.c): the kernel parameter (a pointer to the
 * device copy), and the references under the variables' own names that
 * every function holding user code declares first. */
char *cg_shared_param(const CVar *v);
void cg_shared_aliases(StrBuf *sb, const Kernel *k, const char *indent);
/* Launch stub parameters (emit_cu.c); the host prototype uses the same list. */
void cg_stub_params(StrBuf *sb, const Kernel *k, int with_names);
/* Device pointers and launch size at the top of a stub (emit_cu.c). */
void cg_stub_prologue(StrBuf *sb, const Kernel *k, const char *trip);
/* Where the kernel's host code finds a mapped variable's section (for
 * sections that do not start at the base pointer), or NULL. */
const DataMap *cg_section_of(const Program *p, const Kernel *k, const CVar *v);

#endif
