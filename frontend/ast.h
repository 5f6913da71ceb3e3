/* The frontend's view of a C file: a light statement tree built from
 * libclang (cparse.c), with the directives attached to the statements they
 * precede (attach.c). Statements and expressions keep their source ranges
 * (file offsets, half-open); codegen copies source text by range, so this
 * tree holds only what the analyses need: loops in canonical form, the
 * variables each statement reads and writes, the functions it calls. */
#ifndef GTCC_AST_H
#define GTCC_AST_H

#include <stdbool.h>

#include "directive.h"

typedef enum VarTypeKind {
  VT_SCALAR,      /* arithmetic or enum type */
  VT_POINTER,     /* T * (T not an array) */
  VT_ARRAY,       /* T [N]... with constant sizes */
  VT_VLA_POINTER, /* T (*)[m]...: pointer to a variably modified array */
  VT_RECORD,      /* struct / union by value */
  VT_OTHER,       /* anything else (function pointers, VLAs by value, ...) */
} VarTypeKind;

enum { MAX_DIMS = 4 };

/* A name in the code that the .gt.cu may not compile: a C++ keyword, or a
 * type (or enumerator) whose declaration codegen does not copy there.
 * transform/names.c reports those that reach the .gt.cu. */
typedef enum NameRefKind {
  NR_CXX_KEYWORD, /* declares or names something called by a C++ keyword */
  NR_LOCAL_TYPE,  /* a type declared inside a function (at decl_offset) */
  NR_VAR_TYPE,    /* a type defined in a file-scope variable's declaration (`struct S {...} g;`) */
  NR_VLA_TYPE,    /* a cast or compound literal whose type has a run-time array size, `(double (*)[m])p` */
  NR_C_ONLY,      /* a C construct CUDA C++ has no form of: `_Generic`, `_Complex` (name says which) */
  NR_VLA_SIZEOF,  /* `sizeof a[i]` of a variable-length array (a run-time value C++ has no form of) */
} NameRefKind;

typedef struct NameRef {
  NameRefKind kind;
  char *name;        /* "new", "word", "struct acc", "N" */
  SrcLoc loc;        /* where it is written */
  unsigned decl_offset; /* of its declaration (in the main file for types) */
  bool enumerator;   /* NR_*_TYPE: an enumeration constant, not a type */
} NameRef;

typedef struct CVar {
  char *name;
  SrcLoc loc;        /* declaration */
  unsigned decl_offset;
  unsigned scope_end; /* where the name stops being visible (its block's end; UINT_MAX at file scope) */
  unsigned decl_begin, decl_end; /* parameters: the whole declaration's text (0, 0 if unknown) */
  VarTypeKind tkind;
  char *type;        /* spelling of the declared type, e.g. "const double *" */
  char *elem_type;   /* element type for pointers/arrays ("double"), the type itself for scalars */
  long long elem_size; /* sizeof(elem_type) in bytes, -1 if unknown */
  int ndims;         /* VT_ARRAY: number of dimensions; VT_VLA_POINTER: dims after the first */
  long long dims[MAX_DIMS]; /* constant sizes (VT_ARRAY), -1 where not constant */
  char *dim_text[MAX_DIMS]; /* VT_VLA_POINTER: the size expressions as text ("m") */
  bool is_global;
  bool is_param;
  bool is_const;     /* the variable itself is const */
  bool is_vla;       /* an array of run-time size (`double t[n]`): none in CUDA device code */
  char *vla_type;    /* is_vla: the type as declared ("double[n]"; type is the pointer it decays to) */
  bool has_value;    /* a const integer local initialised by a constant expression: value */
  long long value;
  bool is_float;     /* scalar of floating type */
  bool is_static;
  bool is_fn_pointer; /* VT_OTHER: a pointer to a function (double (*op)(double), op_t f) */
  bool holds_pointer; /* a pointer is in its bytes: itself, an element or a member (double *f[2], s.p) */
  bool const_member; /* VT_RECORD: a member, or a part of one, is const (C++ cannot assign it) */
  NameRef *type_ref; /* NR_LOCAL_TYPE / NR_VAR_TYPE named by its type, or NULL */
} CVar;

/* A reference to a variable inside some statement's own expressions. */
typedef struct VarUse {
  CVar *var;
  SrcLoc loc;
  bool write;      /* assigned, incremented, or its address taken */
  bool elem_write; /* an element or member of it is assigned (a[i] = ...) */
  bool ptr_member; /* a pointer-typed member is read through it (s.p, sp->p, a[i].p) */
  bool addr_taken; /* under a unary & (&v, &(v), (T *)&v, &v[i], &v.f) */
  bool decays;     /* its array, or an array in it, becomes a pointer value (p = v, f(v), v + 1, f(s.a)) */
} VarUse;

/* A read of an element `a[v]` whose array and index are plain variables
 * (not an assignment target, not under &): its text is [begin, end). */
typedef struct ElemRead {
  CVar *base, *index;
  unsigned begin, end;
} ElemRead;

struct Function;

typedef struct CallUse {
  char *name;
  SrcLoc loc;
  struct Function *def; /* defined in this file, or NULL */
} CallUse;

typedef enum StmtKind {
  ST_FOR, ST_COMPOUND, ST_IF, ST_WHILE, ST_DO, ST_SWITCH, ST_DECL, ST_EXPR,
  ST_RETURN, ST_BREAK, ST_CONTINUE, ST_GOTO, ST_LABEL, ST_NULL, ST_OTHER,
} StmtKind;

typedef enum RelOp { REL_LT, REL_LE, REL_GT, REL_GE } RelOp;

/* A for loop in OpenMP canonical form: for (iv = lb; iv relop ub; iv += step). */
typedef struct ForLoop {
  bool canonical;
  const char *why_not; /* when !canonical: what is wrong, for the diagnostic */
  SrcLoc why_loc;
  CVar *iv;
  bool iv_declared;    /* `for (int i = ...)`: iv is declared by the loop */
  Expr lb, ub;         /* text */
  RelOp relop;
  Expr step;           /* signed step as text: "1", "-1", "(2*k)", "-(s)" */
  bool step_is_const;
  long long step_value;/* when step_is_const */
  bool trip_is_const;  /* lb and ub are integer constant expressions (clang folds them) */
  long long trip_value;/* when trip_is_const: iterations, >= 0 */
} ForLoop;

/* The shape of an expression, as far as an atomic construct needs it
 * (frontend/cparse.c fills it for the statements after `acc|omp atomic`;
 * frontend/atomics.c reads it). Offsets are of the main file, where the
 * expression is written (a macro counts at its invocation). */
typedef enum ExprForm {
  EF_OTHER,   /* anything else (a call, a literal, ...) */
  EF_LVALUE,  /* a variable, a[i], s.f, p->f, *p */
  EF_ASSIGN,  /* a = b */
  EF_OPASSIGN,/* a op= b */
  EF_PRE,     /* ++a, --a */
  EF_POST,    /* a++, a-- */
  EF_BINARY,  /* a op b (arithmetic, shifts, <, >, ==) */
  EF_COND,    /* a ? b : c */
} ExprForm;

typedef enum ValueClass { VC_OTHER, VC_INT32, VC_INT64, VC_FLOAT, VC_DOUBLE } ValueClass;

typedef struct ExprShape {
  ExprForm form;
  unsigned begin, end;           /* the whole expression, parentheses included */
  unsigned op_begin, op_end;     /* the operator token ("=", "+=", "++", "*") */
  char op[4];                    /* its spelling ("" when unknown) */
  struct ExprShape *a, *b, *c;   /* operands (b: NULL for ++/--; c: EF_COND only; none for EF_LVALUE/EF_OTHER) */
  ValueClass vclass;             /* the expression's type, for lvalues */
  char *type;                    /* its spelling */
  CVar *root;                    /* EF_LVALUE: the variable it starts from, or NULL */
  bool root_storage;             /* EF_LVALUE: it lies in root's own storage (v, v.f, v[i] of an array v) */
  char *macro;                   /* the macro whose invocation it starts in, or NULL */
} ExprShape;

typedef struct Stmt {
  StmtKind kind;
  SrcLoc loc;            /* start */
  unsigned begin, end;   /* half-open file offsets; expression statements include their ';' */
  struct Stmt *parent;
  struct Stmt **kids;    /* FOR: [body]; IF: [then, else?]; WHILE/DO/SWITCH/LABEL: [body]; COMPOUND: items */
  int nkids;
  ForLoop *loop;         /* ST_FOR */
  VarUse *uses;          /* in this statement's own expressions, not in kids */
  int nuses;
  CallUse *calls;
  int ncalls;
  ElemRead *elem_reads;  /* in this statement's own expressions */
  int nelem_reads;
  CVar **decls;          /* variables this statement declares (ST_DECL, for-init) */
  int ndecls;
  NameRef *names;        /* in this statement's own expressions and declarations (not variables: see uses, decls) */
  int nnames;
  Directive **dirs;      /* directives written just before this statement, in order */
  int ndirs;
  struct Function *func;
  ExprShape *shape;      /* ST_EXPR after an atomic directive (or in the block after one): its expression;
                            ST_IF after one: its condition */
} Stmt;

typedef struct Function {
  char *name;
  SrcLoc loc;
  unsigned begin, end;   /* the whole definition */
  Stmt *body;            /* NULL for declarations without a body */
  bool is_static;
  bool device_marked;    /* by `acc routine` or `omp declare target` (device_decls.c) */
  CVar **params;
  int nparams;
} Function;

/* TOP_LAYOUT: a `#pragma pack` line, which changes the layout of the structs after it. */
typedef enum TopKind { TOP_INCLUDE, TOP_MACRO, TOP_TYPE, TOP_VAR, TOP_FUNC, TOP_LAYOUT } TopKind;

/* A file-scope item of the main file, in file order: codegen copies includes,
 * macros and type declarations into the .gt.cu so kernel bodies compile. */
typedef struct TopDecl {
  TopKind kind;
  char *name;
  unsigned begin, end;
  SrcLoc loc;
  bool system;           /* TOP_INCLUDE: <...> */
  int header;            /* TOP_INCLUDE: the user header it names (index in tu->headers), or -1 */
} TopDecl;

/* An edit of the main file's text for the .gt.cu: [begin, end) becomes
 * text (begin == end: an insertion). See frontend/cxx_fixes.c. */
typedef struct TextFix {
  unsigned begin, end;
  char *text;
  int order; /* among insertions at one position: lower first (an atomic's opening -1, its closing +1) */
} TextFix;

/* An `acc atomic` / `omp atomic` and the statement it applies to
 * (frontend/atomics.c). Its rewrite for device code is in cxx_fixes. */
typedef struct AtomicSite {
  struct Directive *dir;
  struct Stmt *stmt;
  CVar *target;      /* the variable the updated lvalue x starts from, or NULL */
  bool in_storage;   /* x lies in target's own storage (the scalar, a member, an element of an array) */
  SrcLoc target_loc; /* where x is written */
} AtomicSite;

typedef struct OffsetRange {
  unsigned begin, end;
} OffsetRange;

/* A macro definition's text after `#define ` (TranslationUnit.outer_macros). */
typedef struct MacroText {
  char *name;
  char *text;
} MacroText;

/* A `#include` line of a user header that names another user header. */
typedef struct IncludeSite {
  unsigned offset; /* in the includer's text: where the directive is */
  int header;      /* index in tu->headers */
} IncludeSite;

/* A header of the program's own (not a system header), included directly or
 * through other headers. nvcc compiles the .gt.cu as C++, and the regions
 * call few of a header's functions, so where a header defines functions the
 * .gt.cu gets its text without the definitions the regions do not call: C
 * that C++ rejects in them (`double *p = malloc(...)`, a parameter named
 * `class`) does not reach nvcc; those they call become device functions
 * (frontend/user_headers.c, transform/devfuncs.c, codegen/emit_headers.c). */
typedef struct HeaderFunction {
  char *name;
  OffsetRange def;        /* the definition, head and body */
  char **calls;           /* names of the functions it calls */
  int ncalls;
  char **globals;         /* file-scope variables it uses that device code cannot read (not const scalars) */
  int nglobals;
  bool has_atomic;        /* holds an atomic directive (gtcc does not rewrite directives in headers) */
} HeaderFunction;

typedef struct UserHeader {
  char *path;             /* as clang names it */
  char *text;             /* what clang read */
  size_t len;
  HeaderFunction *fns;    /* the functions it defines, file order */
  int nfns;
  IncludeSite *includes;  /* file order */
  int nincludes;
  unsigned *renames;      /* where a function named like one of CUDA's (max) is named: gt_c_ goes before */
  int nrenames;
  bool strip;             /* it or a user header it includes defines functions */
} UserHeader;

typedef struct TranslationUnit {
  SrcFile *file;
  Function **funcs;
  int nfuncs;
  Directive **dirs;      /* every parsed directive, in file order */
  int ndirs;
  PragmaLine *pragmas;   /* every pragma line (parsed or not), in file order */
  int npragmas;
  TopDecl *tops;
  int ntops;
  NameRef *top_names;    /* C++ keywords declared in the TOP_TYPE declarations (copied into the .gt.cu) */
  int ntop_names;
  char **enumerators;    /* names of the enumeration constants declared at file scope of the main file */
  int nenumerators;
  char **macros;         /* names of every macro defined in the translation unit (headers too) */
  int nmacros;
  CVar **vars;           /* every variable seen (owner of the CVars) */
  int nvars;
  char **clang_args;     /* arguments the file was parsed with */
  int nclang_args;
  OffsetRange *skipped;  /* blocks of the main file the preprocessor skips (#if 0, ...), file order */
  int nskipped;
  TextFix *cxx_fixes;    /* where C++ needs other text than the C file has (frontend/cxx_fixes.c), file order */
  int ncxx_fixes;
  MacroText *outer_macros; /* header definitions of macros the file defines again (after #undef) */
  int nouter_macros;
  UserHeader *headers;   /* the file's own headers (see UserHeader) */
  int nheaders;
  char **cuda_named_types; /* types of the file named like CUDA's vector types (float2): #define'd away in the .gt.cu */
  int ncuda_named_types;
  AtomicSite *atomics;   /* every atomic construct, file order */
  int natomics;
  bool has_critical;     /* an `omp critical` (its lock for device code: frontend/critical.c) */
  char **critical_names; /* their names: lock i + 1 (lock 0 is the unnamed one's) */
  int ncritical_names;
} TranslationUnit;

#endif
