/* Directives: what `#pragma acc ...` / `#pragma omp ...` lines say.
 *
 * fe_scan_pragmas() finds the pragma lines of a C file (flex, file level:
 * skips comments and string literals, joins `\` continuations);
 * fe_parse_directive() parses one pragma's text (flex + bison) into a
 * Directive. Expressions inside clauses are kept as C source text: gtcc
 * copies them into generated code where the host compiler parses them. */
#ifndef GTCC_DIRECTIVE_H
#define GTCC_DIRECTIVE_H

#include <stdbool.h>

#include "../support/diag.h"

typedef enum DirFamily { FAM_ACC, FAM_OMP } DirFamily;

enum {
  DF_STANDALONE = 1 << 0, /* no statement follows (update, taskwait, enter data, ...) */
  DF_LOOP = 1 << 1,       /* a for loop must follow */
  DF_COMPUTE = 1 << 2,    /* offload compute construct */
  DF_DATA = 1 << 3,       /* structured data region */
  DF_DECLARATIVE = 1 << 4,/* acc routine, omp declare target: marks functions for the device */
  DF_HINT = 1 << 5,       /* acc cache: no statement follows, nothing to lower */
};

typedef enum DirKind {
#define DIR(id, fam, spelling, flags) DIR_##id,
#include "directive.def"
#undef DIR
  DIR__COUNT
} DirKind;

typedef enum ClauseKind {
#define CLAUSE(id, spelling, arg) CL_##id,
#include "clause.def"
#undef CLAUSE
  CL__COUNT
} ClauseKind;

typedef enum ClauseArg { CA_NONE, CA_OPTEXPR, CA_EXPR, CA_VARS, CA_RED, CA_MAP, CA_DEPEND, CA_DEFAULT } ClauseArg;

typedef enum RedOp { RED_ADD, RED_MUL, RED_MAX, RED_MIN, RED_BITAND, RED_BITOR, RED_BITXOR, RED_LAND, RED_LOR } RedOp;
typedef enum MapKind { MAP_TO, MAP_FROM, MAP_TOFROM, MAP_ALLOC, MAP_RELEASE, MAP_DELETE } MapKind;
typedef enum DependKind { DEP_IN, DEP_OUT, DEP_INOUT } DependKind;
typedef enum DefaultKind { DEFAULT_NONE, DEFAULT_SHARED, DEFAULT_PRESENT } DefaultKind;

/* An expression kept as source text, with where it starts. */
typedef struct Expr {
  char *text; /* NULL when absent */
  SrcLoc loc;
  bool folded;      /* value holds text's value as a C constant (fe_fold_clause_constants) */
  long long value;
} Expr;

/* The value of a clause argument gtcc needs as a constant: folded, or an
 * integer literal (frontend/clause_consts.c). */
bool fe_expr_int(const Expr *e, long long *value);

/* One subscript of a clause item: `[e]` (is_section false, lo = e) or an
 * array section `[lo:len]`, where lo or len may be absent (`[:n]`, `[2:]`). */
typedef struct Subscript {
  bool is_section;
  Expr lo;
  Expr len;
} Subscript;

enum { MAX_SUBSCRIPTS = 4 };

/* A clause item: `x`, `x[0:n]`, `H[i-1][j]`, `a[0:n][0:m]`. */
typedef struct VarItem {
  char *name;
  char *member;   /* `A.rp[0:n]`, `P->s.v[0:n]`: ".rp", "->s.v" (data clauses only); NULL for none */
  SrcLoc loc;
  int nsubs;
  Subscript subs[MAX_SUBSCRIPTS];
} VarItem;

typedef struct Clause {
  ClauseKind kind;
  SrcLoc loc; /* of the clause name */
  Expr expr;  /* CA_EXPR / CA_OPTEXPR argument (text NULL when absent) */
  union {
    RedOp red_op;       /* CA_RED */
    MapKind map_kind;   /* CA_MAP */
    DependKind dep_kind;/* CA_DEPEND */
    DefaultKind def_kind;/* CA_DEFAULT */
  } u;
  VarItem *items; /* CA_VARS, CA_RED, CA_MAP, CA_DEPEND */
  int nitems;
  bool map_always; /* CA_MAP: map(always, ...) */
} Clause;

typedef struct Directive {
  DirKind kind;
  SrcLoc loc;          /* of the `#` of `#pragma` */
  unsigned end_offset; /* file offset just past the pragma's last line (incl. continuations) */
  Clause *clauses;
  int nclauses;
  /* The list in parentheses right after the name: `acc routine(f)`,
   * `omp declare target(f, g)`; the only directives that take one. */
  VarItem *names;
  int nnames;
} Directive;

/* A pragma line found in a file, not yet parsed. */
typedef struct PragmaLine {
  DirFamily family;
  SrcLoc loc;          /* of `#` */
  unsigned end_offset; /* just past the terminating newline (or EOF) */
  char *text;          /* the words after `acc`/`omp`, continuation lines joined */
  SrcLoc text_loc;     /* where text starts in the file */
  /* Maps a position in text back to the file: text[i] came from file offset
   * text_offsets[i] (continuations make this non-linear). fe_scan_pragmas
   * gives it strlen(text) + 1 entries, the last one just past the text. */
  unsigned *text_offsets;
  /* The macro whose #define body holds this `_Pragma`; NULL for directives
   * written in the code. gtcc does not lower those (see fe_parse). */
  char *macro;
  /* The text is an argument of a call of macro, which makes it a `_Pragma` by stringizing it
   * (`#define DO_PRAGMA(x) _Pragma(#x)`, then `DO_PRAGMA(acc parallel loop)`). */
  bool macro_argument;
} PragmaLine;

/* Finds every `#pragma acc` / `#pragma omp` line of f, in file order.
 * Returns the number found; *out is a malloc'ed array. Never fails. */
int fe_scan_pragmas(const SrcFile *f, PragmaLine **out);
/* Is p an `acc atomic` / `omp atomic` line (before parsing it)? */
bool fe_pragma_is_atomic(const PragmaLine *p);
void fe_free_pragmas(PragmaLine *p, int n);

/* Parses one pragma. Reports located errors (diag_error) for bad syntax,
 * unknown directives or clauses and clauses the directive does not allow;
 * returns NULL if any error was reported for it. */
Directive *fe_parse_directive(const PragmaLine *p);
void fe_free_directive(Directive *d);

/* Tables (directive.def / clause.def). */
const char *dir_spelling(DirKind k);     /* "parallel loop" */
DirFamily dir_family(DirKind k);
unsigned dir_flags(DirKind k);
const char *dir_name(DirKind k);         /* "acc parallel loop" / "omp target teams ..." */
const char *clause_spelling(ClauseKind k);
ClauseArg clause_arg(ClauseKind k);
/* Whether clause c may appear on directive d (the legality table). */
bool dir_allows_clause(DirKind d, ClauseKind c);
const char *redop_spelling(RedOp op);    /* "+", "max", "&&", ... */
/* The first clause of kind k on d, or NULL. */
const Clause *dir_find_clause(const Directive *d, ClauseKind k);

#endif
