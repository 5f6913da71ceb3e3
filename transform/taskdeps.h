/* taskdeps: compile-time dependence analysis of task loop nests.
 *
 * A loop nest whose body is one `omp task depend(...)` runs one task per
 * iteration. When every depend item is an affine subscript of the loop
 * variables, the dependences are a fixed set of distance vectors (the
 * paper's matrix D): task k waits for the tasks k - e that lie inside the
 * iteration box, and releases k + e. No graph is built at run time. This
 * module parses subscripts, computes the distances, tiles them and emits
 * the predecessor-count and successor code. It knows nothing of the AST:
 * its input is text and small structs. See docs/taskdeps.md. */
#ifndef GTCC_TASKDEPS_H
#define GTCC_TASKDEPS_H

#include <stdbool.h>

#include "strbuf.h"

enum { TD_MAX_DEPTH = 3, TD_MAX_DIMS = 4, TD_MAX_DIST = 64 };

/* An affine form over the loop variables of a task loop nest:
 * sum coef[l]*iv[l] + c + sym, where sym is an iv-free symbolic part in
 * canonical text ("m", "2*m*n - p"; NULL when none). Constants are always
 * in c, never in sym, so "n - 1" is sym "n", c -1 and two forms that
 * differ only by a constant have equal sym (strcmp). */
typedef struct TdAffine {
  long long coef[TD_MAX_DEPTH];
  long long c;
  char *sym;
} TdAffine;

/* Parses C expression text (a subscript as written in a depend clause:
 * "i-1", "(i) + 2*j - 3", "m - j", "2*(i+1)") as affine in the loop
 * variables ivs[0..niv-1] (niv <= TD_MAX_DEPTH). Integer literals,
 * + - *, unary - and +, parentheses. Other identifiers are symbols; a
 * product is fine unless it multiplies a loop variable by another loop
 * variable or by a symbol. Returns false with *why set (a static string)
 * for anything else: calls, casts, array reads, division, member access,
 * non-integer literals, assignments, other operators. On success the
 * caller frees out with td_affine_free. why may be NULL. */
bool td_parse_affine(const char *text, const char *const *ivs, int niv, TdAffine *out, const char **why);
void td_affine_free(TdAffine *a);

/* Is text (same grammar as td_parse_affine) a polynomial in which no
 * term multiplies two loop variables (a loop variable squared, i*j):
 * affine in the loop variables with coefficients that may be symbols
 * ((b+1)*bs)? Every symbol is passed to sym_ok(name, arg), which must
 * accept it (the caller's check that it cannot change inside the nest). */
bool td_linear_in_ivs(const char *text, const char *const *ivs, int niv, bool (*sym_ok)(const char *, void *),
                      void *arg);

/* Delinearises a flattened subscript A*S + B (also S*A + B, B + A*S,
 * (i-1)*m + j, ...) where S is one symbolic identifier and A, B are
 * affine with no symbols: gives row form A, column form B and S (the
 * caller frees all three) so that x[A*S + B] becomes the 2-D item x[A][B].
 * False when the text has no such form (no symbol, two symbols, S*S,
 * i*j, anything td_parse_affine rejects); then *sym is NULL and nothing
 * needs freeing. The split is exact only while B stays in [0, S): the
 * caller checks that at run time (x[i*m + j + 1] at j = m - 1 is the
 * element of the next row) and items of one array must share S. */
bool td_delinearize(const char *text, const char *const *ivs, int niv, TdAffine *row, TdAffine *col, char **sym);

/* Rewrites a form in the loop variables into the normalised iteration
 * space, where loop l runs k[l] = 0, 1, ... and iv[l] = lb[l] + step[l]*k[l]:
 * coef[l] *= step[l], and coef[l]*lb[l] is added to c and sym. lb[l]
 * must be iv-free (a rectangular nest). False on overflow (a unchanged). */
bool td_affine_normalise(TdAffine *a, int depth, const TdAffine *lb, const long long *step);

typedef enum TdKind { TD_IN, TD_OUT, TD_INOUT } TdKind;

/* One depend item, its subscripts already in the normalised iteration
 * space (td_affine_normalise). array is an id: items with different ids
 * never overlap (the caller decides aliasing). ndims 0 is a scalar. */
typedef struct TdItem {
  int array;
  TdKind kind;
  int ndims;
  TdAffine sub[TD_MAX_DIMS];
} TdItem;

typedef struct TdDeps {
  bool affine;         /* distances are constant: the fields below are valid */
  const char *why_not; /* otherwise: why (the caller falls back to an inspector) */
  int ndist;
  /* Every lexicographically positive e such that task q depends on task
   * q - e whenever q - e is inside the iteration box; no duplicates. */
  long long dist[TD_MAX_DIST][TD_MAX_DEPTH];
} TdDeps;

/* Distance vectors of a perfect rectangular nest of depth loops, tasks in
 * lexicographic order of k. OpenMP semantics: two tasks conflict when
 * they name the same element of the same array and one of the two items
 * is out/inout; the later task depends on the earlier. Exact: the edge
 * set {(q - e, q) : both in the box} equals the conflict set for every
 * box. affine = false (why_not set) when an array that is written has
 * items of different rank, coefficient matrix or symbolic part, or a
 * matrix that is not injective (tasks along a free direction touch the
 * same element: x[i] in a 2-deep nest, a scalar). Integral constants
 * with no integral solution (x[2i] vs x[2i+1]) are simply no conflict. */
void td_analyze(int depth, const TdItem *items, int nitems, TdDeps *out);

/* #{e : k - e inside the box [0, n[l])}: the predecessors of task k.
 * Its successors are the k + e inside the box. */
int td_npred(const TdDeps *d, int depth, const long long *n, const long long *k);

/* Every distance componentwise >= 0: rectangular tiles are legal, and
 * cells inside a tile may run in hyperplane order (sum of coordinates). */
bool td_nonnegative(const TdDeps *d, int depth);

/* Tile-level distances for tile sizes B[l] >= 1: for each e, all
 * combinations of floor(e_l/B_l) and ceil(e_l/B_l), zero dropped, no
 * duplicates. tiles->affine = false when cell is not affine or not
 * nonnegative, or when there are more than TD_MAX_DIST of them. */
void td_tile_deps(const TdDeps *cell, int depth, const long long *B, TdDeps *tiles);

/* Drops each distance that is the sum of two others, when all are
 * non-negative (the path through the middle task stays in the box), so a
 * task updates fewer counters: (1,1) of a wavefront goes. Both the counts
 * and the successors must then come from the pruned set. */
void td_prune_implied(TdDeps *d, int depth);

/* Code for the megakernel. kvar[l] names a long long holding task
 * coordinate k[l] ("gt_k0", ...), nvar[l] the box extent n[l] ("gt_n0").
 * td_emit_npred appends straight-line statements that assign the
 * predecessor count to the int lvalue out. td_emit_succ appends, per
 * distance, `if (successor in box) { ... }` where emit appends the
 * statement for the successor whose coordinate expressions are
 * coords[0..depth-1] (e.g. "gt_k0 + 1", "gt_k1 - 2", "gt_k2"). */
void td_emit_npred(StrBuf *sb, const TdDeps *d, int depth, const char *const *kvar, const char *const *nvar,
                   const char *out);
void td_emit_succ(StrBuf *sb, const TdDeps *d, int depth, const char *const *kvar, const char *const *nvar,
                  void (*emit)(StrBuf *sb, const char *const *coords, void *ctx), void *ctx);

#endif
