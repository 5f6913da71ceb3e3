/* dir_parser.y: the grammar of one `#pragma acc|omp` text.
 *
 *   directive  := DIRNAME [ '(' items ')' ] clause ([,] clause)*
 *                 (the list: `acc routine(f)`, `omp declare target(a, f)`)
 *   clause     := name [ '(' argument ')' ]      (argument form from clause.def)
 *   item       := IDENT ('[' subscript ']')*     subscript: e | lo:len | :len | lo: | :
 *                 (IDENT may be a member access, `A.rp` / `P->s.v`: the lexer's
 *                 one token inside parentheses; data clauses only, directive.c)
 *
 * Expressions are kept as text: an expression is a balanced token sequence
 * that ends at a top-level `,` `:` `)` or `]` (a `:` closing a `?` belongs to
 * it). Semantic values are only ints (a DirKind or ClauseKind); the builder
 * (directive.c) collects items and subscripts as they are reduced, and each
 * action is one builder call. Locations are byte spans of the pragma text. */

%define api.pure full
%define api.prefix {dp_}
%define api.token.prefix {DPT_}
%define api.value.type {int}
%define api.location.type {DirSpan}
%define parse.error detailed
%define parse.lac full
%locations
%expect 0

%param {void *scanner}
%parse-param {struct DirBuilder *B}

%code requires {
#include <stdbool.h>
#include <stddef.h>

#include "directive.h"

/* A half-open byte range [begin, end) of PragmaLine.text. */
typedef struct DirSpan {
  unsigned begin, end;
} DirSpan;

struct DirBuilder;

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                            \
  do {                                                                         \
    if (N) {                                                                   \
      (Cur).begin = YYRHSLOC(Rhs, 1).begin;                                    \
      (Cur).end = YYRHSLOC(Rhs, N).end;                                        \
    } else {                                                                   \
      (Cur).begin = (Cur).end = YYRHSLOC(Rhs, 0).end;                          \
    }                                                                          \
  } while (0)
}

%code provides {
/* The builder (directive.c), called by the grammar's actions. */
typedef struct DirBuilder DirBuilder;
void b_directive(DirBuilder *b, int kind, DirSpan name);
void b_dir_names(DirBuilder *b, DirSpan list);
void b_bad_directive(DirBuilder *b, DirSpan name);
void b_unknown_clause(DirBuilder *b, DirSpan name);
void b_clause_plain(DirBuilder *b, int kind, DirSpan name);
void b_clause_noarg(DirBuilder *b, int kind, DirSpan name, DirSpan arg);
void b_clause_needarg(DirBuilder *b, int kind, DirSpan name);
void b_clause_expr(DirBuilder *b, int kind, DirSpan name, DirSpan arg);
void b_clause_items(DirBuilder *b, int kind, DirSpan name);
void b_clause_default(DirBuilder *b, int kind, DirSpan name, DirSpan arg);
void b_clause_reduction(DirBuilder *b, int kind, DirSpan name, DirSpan op);
void b_depend_iterator(DirBuilder *b, DirSpan word);
void b_modifiers(DirBuilder *b, DirSpan mods);
void b_item(DirBuilder *b, DirSpan name);
void b_index(DirBuilder *b, DirSpan e);
void b_section(DirBuilder *b, const DirSpan *lo, const DirSpan *len, DirSpan brackets);
void b_empty_subscript(DirBuilder *b, DirSpan brackets);
void b_syntax_error(DirBuilder *b, DirSpan at, const char *msg);

/* For the lexer. */
DirFamily b_family(const DirBuilder *b);
unsigned b_lex_pos(const DirBuilder *b);
void b_lex_advance(DirBuilder *b, unsigned n);
void b_lex_setpos(DirBuilder *b, unsigned pos);
int b_lex_depth(const DirBuilder *b);
void b_lex_paren(DirBuilder *b, int delta);
/* A word at parenthesis depth 0: the clause token for it (*kind = ClauseKind). */
int b_lex_clause(DirBuilder *b, const char *word, size_t n, int *kind);
void b_lex_error(DirBuilder *b, DirSpan at, char c);
/* Longest directive spelling of fam that the words s[0..n) start with:
 * returns its DirKind and sets *len to the bytes it covers, or -1. */
int fe_match_dirname(DirFamily fam, const char *s, size_t n, size_t *len);

int dp_parse(void *scanner, struct DirBuilder *B);
}

%code {
/* The lexer (dir_lexer.l, flex prefix dl_). */
int dl_lex(DP_STYPE *lval, DP_LTYPE *lloc, void *scanner);
#define dp_lex dl_lex

static void dp_error(DP_LTYPE *loc, void *scanner, struct DirBuilder *B, const char *msg) {
  (void)scanner;
  b_syntax_error(B, *loc, msg);
}
}

%token END 0 "end of directive"
%token DIRNAME "directive name"
%token BADDIR "unknown directive"
%token KW_NONE "clause name"
%token KW_OPTEXPR "clause name with optional argument"
%token KW_EXPR "clause name with argument"
%token KW_VARS "data clause name"
%token KW_RED "reduction clause"
%token KW_MAP "map clause"
%token KW_DEPEND "depend clause"
%token KW_DEFAULT "default clause"
%token KW_UNKNOWN "unknown clause"
%token IDENT "identifier"
%token NUMBER "number"
%token STRING "string literal"
%token CHARLIT "character literal"
%token OP "operator"
%token BADCHAR "invalid character"

%%

directive
  : dirname dirnames clauses
  | BADDIR                              { b_bad_directive(B, @1); }
  ;

dirnames
  : %empty
  | '(' items ')'                       { b_dir_names(B, @$); }
  | '(' modifiers items ')'             { b_dir_names(B, @$); }
  ;

dirname
  : DIRNAME                             { b_directive(B, $1, @1); }
  ;

clauses
  : %empty
  | clauses clause
  | clauses ',' clause
  ;

clause
  : KW_NONE                             { b_clause_plain(B, $1, @1); }
  | KW_NONE '(' argtext_opt ')'         { b_clause_noarg(B, $1, @1, @3); }
  | KW_OPTEXPR                          { b_clause_plain(B, $1, @1); }
  | KW_OPTEXPR '(' argtext ')'          { b_clause_expr(B, $1, @1, @3); }
  | KW_OPTEXPR '(' ')'                  { b_clause_needarg(B, $1, @1); }
  | KW_EXPR                             { b_clause_needarg(B, $1, @1); }
  | KW_EXPR '(' ')'                     { b_clause_needarg(B, $1, @1); }
  | KW_EXPR '(' argtext ')'             { b_clause_expr(B, $1, @1, @3); }
  | KW_VARS                             { b_clause_needarg(B, $1, @1); }
  | KW_VARS '(' items ')'               { b_clause_items(B, $1, @1); }
  | KW_VARS '(' modifiers items ')'     { b_clause_items(B, $1, @1); }
  | KW_MAP                              { b_clause_needarg(B, $1, @1); }
  | KW_MAP '(' items ')'                { b_clause_items(B, $1, @1); }
  | KW_MAP '(' modifiers items ')'      { b_clause_items(B, $1, @1); }
  | KW_DEPEND                           { b_clause_needarg(B, $1, @1); }
  | KW_DEPEND '(' items ')'             { b_clause_items(B, $1, @1); }
  | KW_DEPEND '(' modifiers items ')'   { b_clause_items(B, $1, @1); }
  | KW_DEPEND '(' IDENT '(' argtext_opt ')' ',' argtext ')'  { b_depend_iterator(B, @3); }
  | KW_RED                              { b_clause_needarg(B, $1, @1); }
  | KW_RED '(' OP ':' items ')'         { b_clause_reduction(B, $1, @1, @3); }
  | KW_RED '(' IDENT ':' items ')'      { b_clause_reduction(B, $1, @1, @3); }
  | KW_DEFAULT                          { b_clause_needarg(B, $1, @1); }
  | KW_DEFAULT '(' IDENT ')'            { b_clause_default(B, $1, @1, @3); }
  | KW_UNKNOWN                          { b_unknown_clause(B, @1); }
  | KW_UNKNOWN '(' argtext_opt ')'      { b_unknown_clause(B, @1); }
  ;

/* `always, to:` / `in:` / `readonly:`: kept as items, checked by the clause. */
modifiers
  : items ':'                           { b_modifiers(B, @1); }
  ;

items
  : item
  | items ',' item
  ;

item
  : IDENT subscripts                    { b_item(B, @1); }
  ;

subscripts
  : %empty
  | subscripts subscript
  ;

subscript
  : '[' expr ']'                        { b_index(B, @2); }
  | '[' expr ':' expr ']'               { b_section(B, &@2, &@4, @$); }
  | '[' expr ':' ']'                    { b_section(B, &@2, NULL, @$); }
  | '[' ':' expr ']'                    { b_section(B, NULL, &@3, @$); }
  | '[' ':' ']'                         { b_section(B, NULL, NULL, @$); }
  | '[' ']'                             { b_empty_subscript(B, @$); }
  ;

/* An expression: tokens up to a top-level , : ) or ]. */
expr
  : etok
  | expr etok
  ;

etok
  : IDENT
  | NUMBER
  | STRING
  | CHARLIT
  | OP
  | '(' argtext_opt ')'
  | '[' argtext ']'
  | '?' qtext ':'
  ;

/* Inside parentheses and brackets , and : are part of the text. */
argtext_opt
  : %empty
  | argtext
  ;

argtext
  : aitem
  | argtext aitem
  ;

aitem
  : etok
  | ','
  | ':'
  ;

/* Between ? and its : */
qtext
  : qitem
  | qtext qitem
  ;

qitem
  : etok
  | ','
  ;

%%
