/* Frontend entry: source file -> TranslationUnit (directives + light AST). */
#ifndef GTCC_FRONTEND_H
#define GTCC_FRONTEND_H

#include <stdio.h>

#include "ast.h"

typedef struct FeOptions {
  const char *const *clang_args; /* -I, -D, -U for libclang */
  int nclang_args;
} FeOptions;

/* Scans and parses the directives, parses the C code with libclang
 * (without -fopenmp), attaches directives to statements and checks loops
 * under loop directives. Errors are reported through diag; returns NULL
 * when the file cannot be read or parsed at all. Callers check
 * diag_error_count() for errors in a returned unit. */
TranslationUnit *fe_parse(const char *path, const FeOptions *opts);
/* Cheap test used for pass-through: does the file have any acc/omp pragma? */
int fe_file_has_pragmas(const char *path);
void fe_dump(const TranslationUnit *tu, FILE *out);
void fe_free(TranslationUnit *tu);

/* Building blocks, exposed for tests. */
/* Parses the C file with libclang into tu (funcs, tops, vars). */
int fe_parse_c(TranslationUnit *tu, const FeOptions *opts);
/* The arguments libclang parses the file with (at most max): the language,
 * gtcc's own, then opts'. Returns how many. */
int fe_clang_args(const FeOptions *opts, const char **args, int max);
/* Gives the clause arguments gtcc needs as constants (collapse,
 * vector_length, thread_limit, gtcc_threshold) their value where they are
 * not plain numbers: macros, enumerators, sizeof (frontend/clause_consts.c). */
void fe_fold_clause_constants(TranslationUnit *tu, const FeOptions *opts);
/* Reports located errors for clause arguments that are no C expression of
 * the type the clause needs, where the directive is: undeclared names,
 * syntax, a struct in if() (frontend/clause_check.c). */
void fe_check_clause_exprs(TranslationUnit *tu, const FeOptions *opts);
/* The function whose body holds offset, or NULL (attach.c). */
Function *fe_function_at(const TranslationUnit *tu, unsigned offset);
/* Attaches tu->dirs to statements and checks DF_LOOP directives. */
void fe_attach_directives(TranslationUnit *tu);
/* Checks the statement of each atomic construct and records its rewrite for
 * device code (tu->atomics, tu->cxx_fixes; atomics.c). After attachment. */
void fe_plan_atomics(TranslationUnit *tu);
/* critical.c: the locks around `omp critical` blocks in device code (edits in tu->cxx_fixes). */
void fe_plan_criticals(TranslationUnit *tu);
void fe_free_shape(ExprShape *e);
/* Checks `acc routine` / `omp declare target` and marks the functions they
 * name or enclose (Function.device_marked; device_decls.c). */
void fe_mark_device_functions(TranslationUnit *tu);
/* Gives the body of each `omp taskloop`'s loop nest an `omp task` directive
 * with the taskloop's data-sharing clauses (taskloop.c). After folding. */
void fe_lower_taskloops(TranslationUnit *tu);
/* Text of [begin, end) of the unit's file (malloc'ed). */
char *fe_text(const TranslationUnit *tu, unsigned begin, unsigned end);
/* Whether name is a word C++ reserves (nvcc's dialect) that C allows as a name. */
bool fe_is_cxx_keyword(const char *name);

#endif
