/* Directives: the tables from directive.def / clause.def, the clause
 * legality table, and the builder that dir_parser.y's actions call to turn
 * one pragma's text into a Directive.
 *
 * The builder collects the parts of the clause being parsed (subscripts,
 * items, modifiers) as the parser reduces them bottom-up, and makes a Clause
 * when the clause's rule is reduced. Every location the parser hands over is
 * a byte span of PragmaLine.text; map_off() turns it into a file location. */
#include "directive.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

#include "dir_parser.h"
#define YYSTYPE DP_STYPE
#define YYLTYPE DP_LTYPE
#include "dir_lexer.h"

/* ---- Tables ------------------------------------------------------------ */

static const struct {
  DirFamily fam;
  const char *spelling;
  const char *name;
  unsigned flags;
} dir_table[DIR__COUNT] = {
#define DIR(id, fam, spelling, flags) [DIR_##id] = {FAM_##fam, spelling, FAMWORD_##fam " " spelling, flags},
#define FAMWORD_ACC "acc"
#define FAMWORD_OMP "omp"
#include "directive.def"
#undef FAMWORD_ACC
#undef FAMWORD_OMP
#undef DIR
};

static const struct {
  const char *spelling;
  ClauseArg arg;
} clause_table[CL__COUNT] = {
#define CLAUSE(id, spelling, arg) [CL_##id] = {spelling, arg},
#include "clause.def"
#undef CLAUSE
};

static bool dir_ok(DirKind k) { return (unsigned)k < DIR__COUNT; }
static bool clause_ok(ClauseKind k) { return (unsigned)k < CL__COUNT; }

const char *dir_spelling(DirKind k) { return dir_ok(k) ? dir_table[k].spelling : "?"; }
DirFamily dir_family(DirKind k) { return dir_ok(k) ? dir_table[k].fam : FAM_ACC; }
unsigned dir_flags(DirKind k) { return dir_ok(k) ? dir_table[k].flags : 0; }
const char *dir_name(DirKind k) { return dir_ok(k) ? dir_table[k].name : "?"; }
const char *clause_spelling(ClauseKind k) { return clause_ok(k) ? clause_table[k].spelling : "?"; }
ClauseArg clause_arg(ClauseKind k) { return clause_ok(k) ? clause_table[k].arg : CA_NONE; }

static const char *const redop_names[] = {
    [RED_ADD] = "+",    [RED_MUL] = "*",   [RED_MAX] = "max",    [RED_MIN] = "min", [RED_BITAND] = "&",
    [RED_BITOR] = "|",  [RED_BITXOR] = "^", [RED_LAND] = "&&",   [RED_LOR] = "||",
};

const char *redop_spelling(RedOp op) {
  return (unsigned)op < sizeof redop_names / sizeof *redop_names ? redop_names[op] : "?";
}

static const char *const map_names[] = {
    [MAP_TO] = "to", [MAP_FROM] = "from", [MAP_TOFROM] = "tofrom",
    [MAP_ALLOC] = "alloc", [MAP_RELEASE] = "release", [MAP_DELETE] = "delete",
};

const Clause *dir_find_clause(const Directive *d, ClauseKind k) {
  if (!d) return NULL;
  for (int i = 0; i < d->nclauses; i++)
    if (d->clauses[i].kind == k) return &d->clauses[i];
  return NULL;
}

/* ---- The legality table -----------------------------------------------
 * Each directive is made of parts (the leaf constructs of a combined one);
 * it allows the union of its parts' clauses (OpenACC 3.x, OpenMP 5.x). */

typedef enum Part {
  P_ACC_PARALLEL, P_ACC_KERNELS, P_ACC_SERIAL, P_ACC_LOOP, P_ACC_DATA, P_ACC_HOST_DATA, P_ACC_ENTER_DATA,
  P_ACC_EXIT_DATA, P_ACC_UPDATE,
  P_TARGET, P_TEAMS, P_DISTRIBUTE, P_PARALLEL, P_FOR, P_SIMD, P_TARGET_DATA, P_TARGET_ENTER_DATA,
  P_TARGET_EXIT_DATA, P_TARGET_UPDATE, P_TASK, P_TASKWAIT, P_SINGLE, P_ACC_ATOMIC, P_OMP_ATOMIC,
  P_ACC_ROUTINE, P_ACC_DECLARE, P_DECLARE_TARGET, P_BEGIN_DECLARE_TARGET, P_LOOP, P_TASKLOOP, P_MASKED, P_CRITICAL, P_SECTIONS,
  P_FLUSH, P__COUNT
} Part;

#define END_ CL__COUNT
static const ClauseKind part_clauses[P__COUNT][24] = {
    [P_ACC_PARALLEL] = {CL_ASYNC, CL_WAIT, CL_NUM_GANGS, CL_NUM_WORKERS, CL_VECTOR_LENGTH, CL_IF, CL_REDUCTION,
                        CL_COPY, CL_COPYIN, CL_COPYOUT, CL_CREATE, CL_NO_CREATE, CL_PRESENT, CL_DEVICEPTR,
                        CL_ATTACH, CL_PRIVATE, CL_FIRSTPRIVATE, CL_DEFAULT, END_},
    [P_ACC_KERNELS] = {CL_ASYNC, CL_WAIT, CL_NUM_GANGS, CL_NUM_WORKERS, CL_VECTOR_LENGTH, CL_IF, CL_COPY,
                       CL_COPYIN, CL_COPYOUT, CL_CREATE, CL_NO_CREATE, CL_PRESENT, CL_DEVICEPTR, CL_ATTACH,
                       CL_DEFAULT, END_},
    [P_ACC_SERIAL] = {CL_ASYNC, CL_WAIT, CL_IF, CL_REDUCTION, CL_COPY, CL_COPYIN, CL_COPYOUT, CL_CREATE, CL_NO_CREATE,
                      CL_PRESENT, CL_DEVICEPTR, CL_ATTACH, CL_PRIVATE, CL_FIRSTPRIVATE, CL_DEFAULT, END_},
    [P_ACC_LOOP] = {CL_COLLAPSE, CL_GANG, CL_WORKER, CL_VECTOR, CL_SEQ, CL_INDEPENDENT, CL_AUTO, CL_TILE,
                    CL_PRIVATE, CL_REDUCTION, END_},
    [P_ACC_DATA] = {CL_IF, CL_ASYNC, CL_WAIT, CL_COPY, CL_COPYIN, CL_COPYOUT, CL_CREATE, CL_NO_CREATE,
                    CL_PRESENT, CL_DEVICEPTR, CL_ATTACH, CL_DEFAULT, END_},
    [P_ACC_HOST_DATA] = {CL_USE_DEVICE, CL_IF, CL_IF_PRESENT, END_},
    [P_ACC_ENTER_DATA] = {CL_IF, CL_ASYNC, CL_WAIT, CL_COPYIN, CL_CREATE, CL_ATTACH, END_},
    [P_ACC_EXIT_DATA] = {CL_IF, CL_ASYNC, CL_WAIT, CL_COPYOUT, CL_DELETE, CL_DETACH, CL_FINALIZE, END_},
    [P_ACC_UPDATE] = {CL_ASYNC, CL_WAIT, CL_IF, CL_IF_PRESENT, CL_SELF, CL_HOST, CL_DEVICE, END_},
    [P_TARGET] = {CL_IF, CL_DEVICE_NUM, CL_PRIVATE, CL_FIRSTPRIVATE, CL_MAP, CL_IS_DEVICE_PTR, CL_DEFAULTMAP,
                  CL_NOWAIT, CL_DEPEND, CL_THREAD_LIMIT, END_},
    [P_TEAMS] = {CL_NUM_TEAMS, CL_THREAD_LIMIT, CL_DEFAULT, CL_PRIVATE, CL_FIRSTPRIVATE, CL_SHARED, CL_REDUCTION,
                 END_},
    [P_DISTRIBUTE] = {CL_PRIVATE, CL_FIRSTPRIVATE, CL_LASTPRIVATE, CL_COLLAPSE, CL_DIST_SCHEDULE, END_},
    [P_PARALLEL] = {CL_IF, CL_NUM_THREADS, CL_DEFAULT, CL_PRIVATE, CL_FIRSTPRIVATE, CL_SHARED, CL_COPYIN,
                    CL_REDUCTION, CL_PROC_BIND, END_},
    [P_FOR] = {CL_PRIVATE, CL_FIRSTPRIVATE, CL_LASTPRIVATE, CL_LINEAR, CL_REDUCTION, CL_SCHEDULE, CL_COLLAPSE,
               CL_ORDERED, CL_NOWAIT, END_},
    [P_SIMD] = {CL_SAFELEN, CL_SIMDLEN, CL_LINEAR, CL_ALIGNED, CL_PRIVATE, CL_LASTPRIVATE, CL_REDUCTION,
                CL_COLLAPSE, CL_IF, END_},
    [P_TARGET_DATA] = {CL_IF, CL_DEVICE_NUM, CL_MAP, CL_USE_DEVICE_PTR, CL_USE_DEVICE_ADDR, END_},
    [P_TARGET_ENTER_DATA] = {CL_IF, CL_DEVICE_NUM, CL_MAP, CL_DEPEND, CL_NOWAIT, END_},
    [P_TARGET_EXIT_DATA] = {CL_IF, CL_DEVICE_NUM, CL_MAP, CL_DEPEND, CL_NOWAIT, END_},
    [P_TARGET_UPDATE] = {CL_IF, CL_DEVICE_NUM, CL_TO, CL_FROM, CL_DEPEND, CL_NOWAIT, END_},
    [P_TASK] = {CL_IF, CL_FINAL, CL_UNTIED, CL_DEFAULT, CL_MERGEABLE, CL_PRIVATE, CL_FIRSTPRIVATE, CL_SHARED,
                CL_DEPEND, CL_PRIORITY, END_},
    [P_TASKWAIT] = {CL_DEPEND, END_},
    [P_SINGLE] = {CL_PRIVATE, CL_FIRSTPRIVATE, CL_NOWAIT, END_},
    [P_ACC_ATOMIC] = {CL_READ, CL_WRITE, CL_UPDATE, CL_CAPTURE, END_},
    [P_OMP_ATOMIC] = {CL_READ, CL_WRITE, CL_UPDATE, CL_CAPTURE, CL_COMPARE, CL_SEQ_CST, CL_ACQ_REL, CL_ACQUIRE,
                      CL_RELEASE, CL_RELAXED, CL_HINT, END_},
    [P_ACC_ROUTINE] = {CL_GANG, CL_WORKER, CL_VECTOR, CL_SEQ, CL_BIND, CL_NOHOST, CL_DEVICE_TYPE, END_},
    [P_ACC_DECLARE] = {CL_COPY, CL_COPYIN, CL_COPYOUT, CL_CREATE, CL_PRESENT, CL_DEVICEPTR, CL_DEVICE_RESIDENT,
                       CL_LINK, END_},
    [P_DECLARE_TARGET] = {CL_TO, CL_ENTER, CL_LINK, CL_DEVICE_TYPE, CL_INDIRECT, END_},
    [P_BEGIN_DECLARE_TARGET] = {CL_DEVICE_TYPE, CL_INDIRECT, END_},
    [P_LOOP] = {CL_BIND, CL_COLLAPSE, CL_ORDER, CL_PRIVATE, CL_LASTPRIVATE, CL_REDUCTION, END_},
    [P_TASKLOOP] = {CL_IF, CL_SHARED, CL_PRIVATE, CL_FIRSTPRIVATE, CL_LASTPRIVATE, CL_REDUCTION, CL_DEFAULT,
                    CL_GRAINSIZE, CL_NUM_TASKS, CL_COLLAPSE, CL_FINAL, CL_PRIORITY, CL_UNTIED, CL_MERGEABLE,
                    CL_NOGROUP, END_},
    [P_MASKED] = {CL_FILTER, END_},
    [P_CRITICAL] = {CL_HINT, END_},
    [P_SECTIONS] = {CL_PRIVATE, CL_FIRSTPRIVATE, CL_LASTPRIVATE, CL_REDUCTION, CL_NOWAIT, END_},
    [P_FLUSH] = {CL_SEQ_CST, CL_ACQ_REL, CL_ACQUIRE, CL_RELEASE, END_},
};
#undef END_

#define P(x) (1ull << P_##x)
static const unsigned long long dir_parts[DIR__COUNT] = {
    [DIR_ACC_PARALLEL] = P(ACC_PARALLEL),
    [DIR_ACC_PARALLEL_LOOP] = P(ACC_PARALLEL) | P(ACC_LOOP),
    [DIR_ACC_KERNELS] = P(ACC_KERNELS),
    [DIR_ACC_KERNELS_LOOP] = P(ACC_KERNELS) | P(ACC_LOOP),
    [DIR_ACC_SERIAL] = P(ACC_SERIAL),
    [DIR_ACC_SERIAL_LOOP] = P(ACC_SERIAL) | P(ACC_LOOP),
    [DIR_ACC_LOOP] = P(ACC_LOOP),
    [DIR_ACC_DATA] = P(ACC_DATA),
    [DIR_ACC_HOST_DATA] = P(ACC_HOST_DATA),
    [DIR_ACC_ENTER_DATA] = P(ACC_ENTER_DATA),
    [DIR_ACC_EXIT_DATA] = P(ACC_EXIT_DATA),
    [DIR_ACC_UPDATE] = P(ACC_UPDATE),
    [DIR_OMP_TARGET] = P(TARGET),
    [DIR_OMP_TARGET_TEAMS] = P(TARGET) | P(TEAMS),
    [DIR_OMP_TARGET_TEAMS_DISTRIBUTE] = P(TARGET) | P(TEAMS) | P(DISTRIBUTE),
    [DIR_OMP_TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR] = P(TARGET) | P(TEAMS) | P(DISTRIBUTE) | P(PARALLEL) | P(FOR),
    [DIR_OMP_TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR_SIMD] =
        P(TARGET) | P(TEAMS) | P(DISTRIBUTE) | P(PARALLEL) | P(FOR) | P(SIMD),
    [DIR_OMP_TARGET_PARALLEL] = P(TARGET) | P(PARALLEL),
    [DIR_OMP_TARGET_PARALLEL_FOR] = P(TARGET) | P(PARALLEL) | P(FOR),
    [DIR_OMP_TARGET_TEAMS_LOOP] = P(TARGET) | P(TEAMS) | P(LOOP),
    [DIR_OMP_TARGET_PARALLEL_LOOP] = P(TARGET) | P(PARALLEL) | P(LOOP),
    [DIR_OMP_TARGET_DATA] = P(TARGET_DATA),
    [DIR_OMP_TARGET_ENTER_DATA] = P(TARGET_ENTER_DATA),
    [DIR_OMP_TARGET_EXIT_DATA] = P(TARGET_EXIT_DATA),
    [DIR_OMP_TARGET_UPDATE] = P(TARGET_UPDATE),
    [DIR_OMP_TEAMS] = P(TEAMS),
    [DIR_OMP_TEAMS_DISTRIBUTE] = P(TEAMS) | P(DISTRIBUTE),
    [DIR_OMP_TEAMS_DISTRIBUTE_PARALLEL_FOR] = P(TEAMS) | P(DISTRIBUTE) | P(PARALLEL) | P(FOR),
    [DIR_OMP_DISTRIBUTE] = P(DISTRIBUTE),
    [DIR_OMP_DISTRIBUTE_PARALLEL_FOR] = P(DISTRIBUTE) | P(PARALLEL) | P(FOR),
    [DIR_OMP_PARALLEL] = P(PARALLEL),
    [DIR_OMP_PARALLEL_FOR] = P(PARALLEL) | P(FOR),
    [DIR_OMP_PARALLEL_FOR_SIMD] = P(PARALLEL) | P(FOR) | P(SIMD),
    [DIR_OMP_FOR] = P(FOR),
    [DIR_OMP_FOR_SIMD] = P(FOR) | P(SIMD),
    [DIR_OMP_SIMD] = P(SIMD),
    [DIR_OMP_LOOP] = P(LOOP),
    [DIR_OMP_TEAMS_LOOP] = P(TEAMS) | P(LOOP),
    [DIR_OMP_PARALLEL_LOOP] = P(PARALLEL) | P(LOOP),
    [DIR_OMP_TASK] = P(TASK),
    [DIR_OMP_TASKWAIT] = P(TASKWAIT),
    [DIR_OMP_TASKGROUP] = 0,
    [DIR_OMP_TASKLOOP] = P(TASKLOOP),
    [DIR_OMP_SINGLE] = P(SINGLE),
    [DIR_OMP_MASTER] = 0,
    [DIR_OMP_BARRIER] = 0,
    [DIR_ACC_ATOMIC] = P(ACC_ATOMIC),
    [DIR_OMP_ATOMIC] = P(OMP_ATOMIC),
    [DIR_ACC_ROUTINE] = P(ACC_ROUTINE),
    [DIR_ACC_DECLARE] = P(ACC_DECLARE),
    [DIR_ACC_WAIT] = 0,
    [DIR_ACC_INIT] = 0,
    [DIR_ACC_SHUTDOWN] = 0,
    [DIR_ACC_SET] = 0,
    [DIR_OMP_DECLARE_TARGET] = P(DECLARE_TARGET),
    [DIR_OMP_BEGIN_DECLARE_TARGET] = P(BEGIN_DECLARE_TARGET),
    [DIR_OMP_END_DECLARE_TARGET] = 0,
    [DIR_OMP_MASKED] = P(MASKED),
    [DIR_OMP_PARALLEL_MASKED] = P(PARALLEL) | P(MASKED),
    [DIR_OMP_PARALLEL_MASTER] = P(PARALLEL),
    [DIR_OMP_CRITICAL] = P(CRITICAL),
    [DIR_OMP_SECTIONS] = P(SECTIONS),
    [DIR_OMP_PARALLEL_SECTIONS] = P(PARALLEL) | P(SECTIONS),
    [DIR_OMP_SECTION] = 0,
    [DIR_OMP_FLUSH] = P(FLUSH),
    [DIR_OMP_TASKYIELD] = 0,
    [DIR_OMP_THREADPRIVATE] = 0,
};

bool dir_allows_clause(DirKind d, ClauseKind c) {
  if (!dir_ok(d) || !clause_ok(c)) return false;
  /* gtcc's own clauses go on every loop directive and compute construct (the construct of an
   * outer loop: `acc parallel gtcc_cdp(tail)` around `acc loop gang`). */
  if (c == CL_GTCC_CDP || c == CL_GTCC_THRESHOLD) return (dir_table[d].flags & (DF_LOOP | DF_COMPUTE)) != 0;
  unsigned long long parts = dir_parts[d];
  /* A combined `parallel for` has no nowait of its own (only target's). */
  if (c == CL_NOWAIT && (parts & P(PARALLEL)) && (parts & P(FOR)) && !(parts & P(TARGET))) return false;
  for (int p = 0; p < P__COUNT; p++) {
    if (!(parts & (1ull << p))) continue;
    for (const ClauseKind *k = part_clauses[p]; *k != CL__COUNT; k++)
      if (*k == c) return true;
  }
  return false;
}

/* ---- Names ------------------------------------------------------------- */

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n'; }
static bool is_idchar(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether s[0..n) starts with the blank-separated words of spelling (each
 * a whole word); *m gets the bytes they cover. */
static bool words_prefix(const char *sp, const char *s, size_t n, size_t *m) {
  size_t i = 0;
  for (;;) {
    size_t wl = strcspn(sp, " ");
    if (i + wl > n || memcmp(s + i, sp, wl) != 0) return false;
    i += wl;
    if (i < n && is_idchar(s[i])) return false;
    sp += wl;
    if (!*sp) {
      *m = i;
      return true;
    }
    sp++;
    if (i >= n || !is_blank(s[i])) return false;
    while (i < n && is_blank(s[i])) i++;
  }
}

int fe_match_dirname(DirFamily fam, const char *s, size_t n, size_t *len) {
  int best = -1;
  size_t bestlen = 0, m = 0;
  for (int k = 0; k < DIR__COUNT; k++)
    if (dir_table[k].fam == fam && words_prefix(dir_table[k].spelling, s, n, &m) && m > bestlen)
      best = k, bestlen = m;
  *len = bestlen;
  return best;
}

static bool word_is(const char *s, size_t n, const char *w) { return strlen(w) == n && memcmp(s, w, n) == 0; }

/* The clause a word names in fam, or -1. */
static int lookup_clause(DirFamily fam, const char *s, size_t n) {
  if (word_is(s, n, "device")) return fam == FAM_OMP ? CL_DEVICE_NUM : CL_DEVICE;
  if (fam == FAM_ACC) { /* OpenACC 1/2 spellings */
    static const struct {
      const char *alias;
      ClauseKind k;
    } aliases[] = {{"pcopy", CL_COPY},       {"present_or_copy", CL_COPY},       {"pcopyin", CL_COPYIN},
                   {"present_or_copyin", CL_COPYIN}, {"pcopyout", CL_COPYOUT}, {"present_or_copyout", CL_COPYOUT},
                   {"pcreate", CL_CREATE},   {"present_or_create", CL_CREATE}, {"dtype", CL_DEVICE_TYPE}};
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
      if (word_is(s, n, aliases[i].alias)) return aliases[i].k;
  }
  for (int k = 0; k < CL__COUNT; k++)
    if (k != CL_DEVICE_NUM && word_is(s, n, clause_table[k].spelling)) return k;
  return -1;
}

bool fe_pragma_is_atomic(const PragmaLine *p) {
  const char *t = p->text;
  while (*t == ' ' || *t == '\t') t++;
  return !strncmp(t, "atomic", 6) && !is_idchar(t[6]);
}

/* Directives of the specs that gtcc does not handle (a clearer message
 * than "unknown"). */
static bool known_unsupported(DirFamily fam, const char *s, size_t n) {
  static const char *const acc[] = {NULL};
  static const char *const omp[] = {"ordered", "declare", "cancel", "cancellation",
                                    "scope", "requires", "metadirective",
                                    "allocate", "depobj", "scan", "tile", "unroll", "workshare",
                                    "interop", "dispatch", "assume", "error", "nothing", NULL};
  for (const char *const *w = fam == FAM_ACC ? acc : omp; *w; w++)
    if (word_is(s, n, *w)) return true;
  return false;
}

/* Whether word is one of the words of fam's directive spellings. */
static bool is_directive_word(DirFamily fam, const char *s, size_t n) {
  for (int k = 0; k < DIR__COUNT; k++) {
    if (dir_table[k].fam != fam) continue;
    for (const char *sp = dir_table[k].spelling; *sp;) {
      size_t wl = strcspn(sp, " ");
      if (wl == n && memcmp(sp, s, n) == 0) return true;
      sp += wl;
      if (*sp) sp++;
    }
  }
  return false;
}

/* Whether a and b[0..n) differ by at most two edits (a misspelt word). */
static bool near_miss(const char *a, const char *b, size_t n) {
  size_t m = strlen(a);
  if (m > 30 || n > 30 || (m > n ? m - n : n - m) > 2) return false;
  unsigned d[31][31];
  for (size_t i = 0; i <= m; i++) d[i][0] = (unsigned)i;
  for (size_t j = 0; j <= n; j++) d[0][j] = (unsigned)j;
  for (size_t i = 1; i <= m; i++)
    for (size_t j = 1; j <= n; j++) {
      unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
      d[i][j] = best;
    }
  return m >= 4 && d[m][n] <= (m >= 6 ? 2u : 1u);
}

/* Whether word looks like a misspelt directive word of fam. */
static bool near_directive_word(DirFamily fam, const char *s, size_t n) {
  char w[32];
  for (int k = 0; k < DIR__COUNT; k++) {
    if (dir_table[k].fam != fam) continue;
    for (const char *sp = dir_table[k].spelling; *sp;) {
      size_t wl = strcspn(sp, " ");
      if (wl < sizeof w) {
        memcpy(w, sp, wl);
        w[wl] = '\0';
        if (near_miss(w, s, n)) return true;
      }
      sp += wl;
      if (*sp) sp++;
    }
  }
  return false;
}

static const char *fam_word(DirFamily fam) { return fam == FAM_ACC ? "acc" : "omp"; }
static const char *fam_title(DirFamily fam) { return fam == FAM_ACC ? "OpenACC" : "OpenMP"; }

/* ---- The builder ------------------------------------------------------- */

struct DirBuilder {
  const PragmaLine *p;
  const char *text;
  size_t textlen;
  unsigned pos;        /* lexer position in text */
  int depth;           /* parenthesis depth (lexer) */
  int last_clause;     /* ClauseKind of the last clause name lexed, or -1 */
  int nerrors;
  bool quiet;          /* a reported error makes later syntax errors noise */
  bool rest_ignored;   /* the directive name was wrong: later errors are noise */
  Directive *d;
  int capclauses;
  unsigned dirname_end;
  /* Parts of the clause being parsed. */
  Subscript subs[MAX_SUBSCRIPTS];
  int nsubs;
  bool too_many_subs;
  VarItem *items;
  int nitems, capitems;
  bool has_mods, mods_bad, has_map_type;
  bool mod_always; /* map(always, ...): copy even when present */
  MapKind mod_map;
  SrcLoc mod_map_loc; /* of the map type word */
  DependKind mod_dep;
};

/* The file location of byte off of the pragma text. */
static SrcLoc map_off(const DirBuilder *b, unsigned off) {
  const PragmaLine *p = b->p;
  const SrcFile *f = p->text_loc.file ? p->text_loc.file : p->loc.file;
  unsigned fo;
  if (!p->text_offsets) fo = p->text_loc.offset + off;
  else if (off < b->textlen) fo = p->text_offsets[off];
  else if (b->textlen) fo = p->text_offsets[b->textlen - 1] + 1;
  else fo = p->text_loc.offset;
  return f ? srcfile_loc(f, fo) : p->text_loc;
}

/* Reports an error of this pragma (counted even when not shown). */
static void vberror(DirBuilder *b, SrcLoc loc, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
static void vberror(DirBuilder *b, SrcLoc loc, const char *fmt, va_list ap) {
  b->nerrors++;
  if (b->rest_ignored) return;
  StrBuf sb;
  sb_init(&sb);
  sb_vprintf(&sb, fmt, ap);
  diag_error(loc, "%s", sb.data ? sb.data : "");
  sb_free(&sb);
}

static void berror(DirBuilder *b, DirSpan at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void berror(DirBuilder *b, DirSpan at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vberror(b, map_off(b, at.begin), fmt, ap);
  va_end(ap);
}

static void berror_at(DirBuilder *b, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void berror_at(DirBuilder *b, SrcLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vberror(b, loc, fmt, ap);
  va_end(ap);
}

/* The text of a span (malloc'ed). */
static char *span_text(const DirBuilder *b, DirSpan s) {
  if (s.begin > b->textlen) s.begin = (unsigned)b->textlen;
  if (s.end > b->textlen) s.end = (unsigned)b->textlen;
  if (s.end < s.begin) s.end = s.begin;
  return xstrndup(b->text + s.begin, s.end - s.begin);
}

static Expr make_expr(const DirBuilder *b, DirSpan s) {
  Expr e = {0};
  e.text = span_text(b, s);
  e.loc = map_off(b, s.begin);
  return e;
}

static Expr no_expr(const DirBuilder *b, unsigned off) {
  Expr e = {0};
  e.text = NULL;
  e.loc = map_off(b, off);
  return e;
}

static const char *cur_name(const DirBuilder *b) {
  return b->d ? dir_name(b->d->kind) : fam_word(b->p->family);
}

static void free_subscript(Subscript *s) {
  free(s->lo.text);
  free(s->len.text);
}

static void free_items(VarItem *items, int n) {
  for (int i = 0; i < n; i++) {
    free(items[i].name);
    free(items[i].member);
    for (int j = 0; j < items[i].nsubs; j++) free_subscript(&items[i].subs[j]);
  }
  free(items);
}

/* Drops the collected parts of a clause (after an error, or at the end). */
static void drop_pending(DirBuilder *b) {
  for (int i = 0; i < b->nsubs; i++) free_subscript(&b->subs[i]);
  b->nsubs = 0;
  b->too_many_subs = false;
  free_items(b->items, b->nitems);
  b->items = NULL;
  b->nitems = b->capitems = 0;
  b->has_mods = b->mods_bad = b->has_map_type = b->mod_always = false;
}

/* Clauses that may appear at most once on a directive. */
static bool clause_unique(ClauseKind k) {
  ClauseArg a = clause_arg(k);
  return (a == CA_NONE || a == CA_OPTEXPR || a == CA_EXPR || a == CA_DEFAULT) && k != CL_IF && k != CL_WAIT &&
         k != CL_LINEAR && k != CL_ALIGNED;
}

/* Appends a clause of kind k to the directive after the legality checks;
 * NULL (error reported) when it may not be there. */
static Clause *add_clause(DirBuilder *b, int k, DirSpan name) {
  if (!b->d || !clause_ok((ClauseKind)k)) return NULL;
  Directive *d = b->d;
  if (!dir_allows_clause(d->kind, (ClauseKind)k)) {
    berror(b, name, "clause '%s' is not allowed on '%s'", clause_spelling((ClauseKind)k), dir_name(d->kind));
    return NULL;
  }
  if (clause_unique((ClauseKind)k) && dir_find_clause(d, (ClauseKind)k)) {
    berror(b, name, "clause '%s' appears more than once on '%s'", clause_spelling((ClauseKind)k),
           dir_name(d->kind));
    return NULL;
  }
  if (d->nclauses == b->capclauses) {
    b->capclauses = b->capclauses ? 2 * b->capclauses : 4;
    d->clauses = xrealloc(d->clauses, (size_t)b->capclauses * sizeof *d->clauses);
  }
  Clause *c = &d->clauses[d->nclauses++];
  memset(c, 0, sizeof *c);
  c->kind = (ClauseKind)k;
  c->loc = map_off(b, name.begin);
  c->expr = no_expr(b, name.end);
  return c;
}

/* Clauses that may name a struct member's section (copyin(A.rp[0:n])):
 * its data moves, the struct does not. Elsewhere gtcc would act on the
 * whole struct, so a member there is an error. */
static bool clause_takes_members(ClauseKind k) {
  return k == CL_COPY || k == CL_COPYIN || k == CL_COPYOUT || k == CL_CREATE || k == CL_PRESENT || k == CL_DELETE ||
         k == CL_MAP || k == CL_TO || k == CL_FROM || k == CL_SELF || k == CL_HOST || k == CL_DEVICE;
}

static void check_members(DirBuilder *b, const char *where, bool allowed, bool depend) {
  for (int i = 0; i < b->nitems; i++)
    if (b->items[i].member && !allowed)
      berror_at(b, b->items[i].loc,
                "'%s%s' names a struct member: gtcc takes members in data clauses only, not in %s%s", b->items[i].name,
                b->items[i].member, where, depend ? " (depend on an element of an array of tokens instead)" : "");
}

/* Hands the collected items to c. */
static void take_items(DirBuilder *b, Clause *c) {
  char where[64];
  snprintf(where, sizeof where, "'%s'", clause_spelling(c->kind));
  check_members(b, where, clause_takes_members(c->kind), c->kind == CL_DEPEND);
  c->items = b->items;
  c->nitems = b->nitems;
  b->items = NULL;
  b->nitems = b->capitems = 0;
}

void b_directive(DirBuilder *b, int kind, DirSpan name) {
  if (b->d) return;
  b->d = xcalloc(1, sizeof *b->d);
  b->d->kind = (DirKind)kind;
  b->d->loc = b->p->loc;
  b->d->end_offset = b->p->end_offset;
  b->dirname_end = name.end;
}

/* `acc routine(f)`, `omp declare target(a, f)`, `omp critical(name)`, `omp flush(a)`,
 * `omp threadprivate(x)`, `acc cache(readonly: a[i:4])`: the names go to d->names. */
void b_dir_names(DirBuilder *b, DirSpan list) {
  if (!b->d) return;
  if (b->mods_bad) {
    drop_pending(b);
    return;
  }
  if (b->d->kind != DIR_ACC_ROUTINE && b->d->kind != DIR_OMP_DECLARE_TARGET && b->d->kind != DIR_OMP_CRITICAL &&
      b->d->kind != DIR_OMP_FLUSH && b->d->kind != DIR_OMP_THREADPRIVATE && b->d->kind != DIR_ACC_CACHE) {
    berror(b, list, "'%s' takes no list in parentheses", dir_name(b->d->kind));
    drop_pending(b);
    return;
  }
  check_members(b, "a directive's list", false, false);
  b->d->names = b->items;
  b->d->nnames = b->nitems;
  b->items = NULL;
  b->nitems = b->capitems = 0;
  b->has_mods = false;
}

void b_bad_directive(DirBuilder *b, DirSpan name) {
  const char *s = b->text + name.begin;
  size_t n = name.end - name.begin;
  DirFamily fam = b->p->family;
  if (n == 0 || !is_idchar(s[0]))
    berror(b, name, "expected a directive name after '%s'", fam_word(fam));
  else if (fam == FAM_OMP && word_is(s, n, "end")) /* `omp end declare variant`, ... */
    berror(b, name, "OpenMP directive 'end ...' is not supported by gtcc (of the 'end' directives, gtcc knows 'end "
                    "declare target')");
  else if (known_unsupported(fam, s, n))
    berror(b, name, "%s directive '%.*s' is not supported by gtcc", fam_title(fam), (int)n, s);
  else
    berror(b, name, "unknown %s directive '%.*s'", fam_title(fam), (int)n, s);
}

/* Whether the next non-blank byte after off is '('. */
static bool next_is_paren(const DirBuilder *b, unsigned off) {
  while (off < b->textlen && is_blank(b->text[off])) off++;
  return off < b->textlen && b->text[off] == '(';
}

void b_unknown_clause(DirBuilder *b, DirSpan name) {
  const char *s = b->text + name.begin;
  size_t n = name.end - name.begin;
  drop_pending(b);
  if (!b->d) return;
  /* `omp target teams distribute simd`: a directive word right after the name. */
  bool right_after = b->d->nclauses == 0 && b->nerrors == 0;
  for (unsigned i = b->dirname_end; i < name.begin && right_after; i++)
    if (!is_blank(b->text[i])) right_after = false;
  if (right_after && (is_directive_word(b->p->family, s, n) || known_unsupported(b->p->family, s, n))) {
    berror(b, name, "'%s %.*s' is not a directive gtcc supports", dir_name(b->d->kind), (int)n, s);
    b->rest_ignored = b->quiet = true;
  } else if (right_after && near_directive_word(b->p->family, s, n) && !next_is_paren(b, name.end)) {
    berror(b, name, "unknown %s directive '%s %.*s'", fam_title(b->p->family), dir_spelling(b->d->kind), (int)n, s);
    b->rest_ignored = b->quiet = true;
  } else {
    berror(b, name, "unknown clause '%.*s' on '%s'", (int)n, s, dir_name(b->d->kind));
  }
}

void b_clause_plain(DirBuilder *b, int kind, DirSpan name) { add_clause(b, kind, name); }

void b_clause_noarg(DirBuilder *b, int kind, DirSpan name, DirSpan arg) {
  (void)arg;
  drop_pending(b);
  berror(b, name, "clause '%s' takes no argument", clause_spelling((ClauseKind)kind));
}

void b_clause_needarg(DirBuilder *b, int kind, DirSpan name) {
  drop_pending(b);
  berror(b, name, "clause '%s' needs an argument: %s(...)", clause_spelling((ClauseKind)kind),
         clause_spelling((ClauseKind)kind));
}

/* `word [word...] :` at the start of s[0..n) (not `::`): returns the length
 * up to and including the blanks after the colon, and the words' end in
 * *wend; 0 when there is none. */
static size_t leading_modifier(const char *s, size_t n, size_t *wend) {
  size_t i = 0;
  if (i >= n || !is_idchar(s[i]) || (s[i] >= '0' && s[i] <= '9')) return 0;
  for (;;) {
    while (i < n && is_idchar(s[i])) i++;
    *wend = i;
    while (i < n && is_blank(s[i])) i++;
    if (i < n && s[i] == ':') break;
    if (i >= n || !is_idchar(s[i])) return 0;
  }
  if (i + 1 < n && s[i + 1] == ':') return 0;
  i++;
  while (i < n && is_blank(s[i])) i++;
  return i;
}

/* Whether the words mod[0..n) equal spelling (blanks normalised). */
static bool words_equal(const char *spelling, const char *mod, size_t n) {
  size_t m = 0;
  return words_prefix(spelling, mod, n, &m) && m == n;
}

/* The directive-name modifier of OpenMP's if(name: e): IF_MOD_KEEP when it
 * names the construct the condition applies to for gtcc (target for
 * offloading constructs, otherwise the directive itself: the modifier is
 * dropped); IF_MOD_DROP when it names another leaf of a combined target
 * construct (parallel, teams, simd: false would only run the loop with
 * fewer threads, which gives a conforming loop the same result, so the
 * clause is left out); IF_MOD_BAD otherwise. */
enum { IF_MOD_BAD, IF_MOD_KEEP, IF_MOD_DROP };

static int if_modifier(DirKind d, const char *mod, size_t n) {
  const char *sp = dir_spelling(d);
  size_t first = strcspn(sp, " ");
  if (words_equal(sp, mod, n)) return IF_MOD_KEEP;
  if (first == 6 && !strncmp(sp, "target", 6)) {
    if (word_is(mod, n, "target")) return IF_MOD_KEEP;
    static const char *const leaves[] = {"parallel", "teams", "simd"};
    for (size_t i = 0; i < sizeof leaves / sizeof *leaves; i++) {
      size_t len = strlen(leaves[i]);
      const char *w = strstr(sp, leaves[i]);
      if (word_is(mod, n, leaves[i]) && w && (w[len] == ' ' || !w[len]) && w[-1] == ' ') return IF_MOD_DROP;
    }
    return IF_MOD_BAD;
  }
  return n == first && !memcmp(mod, sp, n) ? IF_MOD_KEEP : IF_MOD_BAD;
}

void b_clause_expr(DirBuilder *b, int kind, DirSpan name, DirSpan arg) {
  const char *s = b->text + arg.begin;
  size_t n = arg.end - arg.begin, wend = 0;
  size_t skip = leading_modifier(s, n, &wend);
  ClauseKind k = (ClauseKind)kind;
  if (skip) {
    bool ok = false;
    if (k == CL_IF) { /* OpenACC's if has no modifier */
      int m = b->p->family == FAM_OMP && b->d ? if_modifier(b->d->kind, s, wend) : IF_MOD_BAD;
      if (m == IF_MOD_DROP) return;
      ok = m == IF_MOD_KEEP;
    } else if (k == CL_GANG || k == CL_WORKER) {
      ok = word_is(s, wend, "num");
    } else if (k == CL_VECTOR) {
      ok = word_is(s, wend, "length");
    } else {
      skip = 0; /* schedule(monotonic: dynamic), linear(i: 2), ...: kept */
    }
    if (skip && !ok) {
      berror(b, arg, "modifier '%.*s:' in clause '%s' is not supported by gtcc", (int)wend, s, clause_spelling(k));
      return;
    }
  }
  Clause *c = add_clause(b, kind, name);
  if (!c) return;
  arg.begin += (unsigned)skip;
  c->expr = make_expr(b, arg);
}

void b_modifiers(DirBuilder *b, DirSpan mods) {
  int k = b->last_clause;
  b->has_mods = true;
  b->mods_bad = false;
  b->mod_map = MAP_TOFROM;
  b->mod_map_loc = map_off(b, mods.begin);
  b->mod_always = false;
  b->mod_dep = DEP_INOUT;
  bool have_type = false;
  b->has_map_type = false;
  for (int i = 0; i < b->nitems && !b->mods_bad; i++) {
    const VarItem *it = &b->items[i];
    const char *w = it->name;
    SrcLoc loc = it->loc;
    if (it->nsubs) {
      berror_at(b, loc, "unexpected subscript on modifier '%s'", w);
      b->mods_bad = true;
      break;
    }
    if (k == CL_MAP) {
      int m = -1;
      for (int j = 0; j < (int)(sizeof map_names / sizeof *map_names); j++)
        if (!strcmp(w, map_names[j])) m = j;
      if (m >= 0 && !have_type) {
        b->mod_map = (MapKind)m, have_type = b->has_map_type = true;
        b->mod_map_loc = loc;
      } else if (m >= 0) {
        berror_at(b, loc, "more than one map type in 'map' clause");
        b->mods_bad = true;
      } else if (!strcmp(w, "always")) {
        b->mod_always = true;
      } else if (!strcmp(w, "present") || !strcmp(w, "mapper") || !strcmp(w, "iterator") || !strcmp(w, "ompx_hold")) {
        berror_at(b, loc, "map modifier '%s' is not supported by gtcc (it has always and close)", w);
        b->mods_bad = true;
      } else if (strcmp(w, "close")) { /* close: a placement hint */
        berror_at(b, loc, "unknown map type or modifier '%s'; expected to, from, tofrom, alloc, release or delete", w);
        b->mods_bad = true;
      }
    } else if (k == CL_DEPEND) {
      if (b->nitems == 1 && !strcmp(w, "in")) b->mod_dep = DEP_IN;
      else if (b->nitems == 1 && !strcmp(w, "out")) b->mod_dep = DEP_OUT;
      else if (b->nitems == 1 && !strcmp(w, "inout")) b->mod_dep = DEP_INOUT;
      else {
        static const char *const other[] = {"mutexinoutset", "inoutset", "depobj", "sink", "source", "iterator"};
        bool known = false;
        for (size_t j = 0; j < sizeof other / sizeof *other; j++) known |= !strcmp(w, other[j]);
        if (known) berror_at(b, loc, "depend(...) form not supported by gtcc: '%s' (gtcc has in, out and inout)", w);
        else berror_at(b, loc, "unknown dependence type '%s'; expected in, out or inout", w);
        b->mods_bad = true;
        b->quiet = true; /* depend(sink: i-1) does not parse as items */
      }
    } else if (k == CL_COPYIN && b->p->family == FAM_ACC && !strcmp(w, "readonly")) {
      /* a hint; nothing to do */
    } else if (k < 0 && b->d && b->d->kind == DIR_ACC_CACHE && !strcmp(w, "readonly")) {
      /* likewise */
    } else if (k < 0) { /* a directive's own list: `cache(readonly: ...)` */
      berror_at(b, loc, "modifier '%s' is not supported on '%s'", w, b->d ? dir_name(b->d->kind) : "?");
      b->mods_bad = true;
    } else {
      berror_at(b, loc, "modifier '%s' is not supported on clause '%s'", w, clause_spelling((ClauseKind)k));
      b->mods_bad = true;
    }
  }
  free_items(b->items, b->nitems);
  b->items = NULL;
  b->nitems = b->capitems = 0;
}

void b_clause_items(DirBuilder *b, int kind, DirSpan name) {
  ClauseKind k = (ClauseKind)kind;
  if (b->mods_bad) {
    drop_pending(b);
    return;
  }
  if (k == CL_DEPEND && !b->has_mods) {
    bool source = b->nitems == 1 && !strcmp(b->items[0].name, "source");
    if (source) berror(b, name, "depend(...) form not supported by gtcc: 'source' (gtcc has in, out and inout)");
    else berror(b, name, "depend clause needs a dependence type: depend(in|out|inout: ...)");
    drop_pending(b);
    return;
  }
  if (k == CL_MAP && !b->has_map_type && b->d) { /* map(x), map(always: x) */
    b->mod_map_loc = map_off(b, name.begin);
    b->mod_map = b->d->kind == DIR_OMP_TARGET_ENTER_DATA  ? MAP_TO
                 : b->d->kind == DIR_OMP_TARGET_EXIT_DATA ? MAP_FROM
                                                          : MAP_TOFROM;
  }
  if (k == CL_MAP && b->d) {
    MapKind m = b->mod_map;
    bool ok = b->d->kind == DIR_OMP_TARGET_ENTER_DATA  ? (m == MAP_TO || m == MAP_ALLOC)
              : b->d->kind == DIR_OMP_TARGET_EXIT_DATA ? (m == MAP_FROM || m == MAP_RELEASE || m == MAP_DELETE)
                                                       : (m != MAP_RELEASE && m != MAP_DELETE);
    if (!ok) {
      berror_at(b, b->mod_map_loc, "map type '%s' is not allowed on '%s'", map_names[m], dir_name(b->d->kind));
      drop_pending(b);
      return;
    }
  }
  Clause *c = add_clause(b, kind, name);
  if (c) {
    if (k == CL_MAP) c->u.map_kind = b->mod_map, c->map_always = b->mod_always;
    if (k == CL_DEPEND) c->u.dep_kind = b->mod_dep;
    take_items(b, c);
  }
  drop_pending(b);
}

void b_clause_default(DirBuilder *b, int kind, DirSpan name, DirSpan arg) {
  const char *s = b->text + arg.begin;
  size_t n = arg.end - arg.begin;
  bool acc = b->p->family == FAM_ACC;
  DefaultKind dk;
  if (word_is(s, n, "none")) dk = DEFAULT_NONE;
  else if (acc && word_is(s, n, "present")) dk = DEFAULT_PRESENT;
  else if (!acc && word_is(s, n, "shared")) dk = DEFAULT_SHARED;
  else if (!acc && (word_is(s, n, "private") || word_is(s, n, "firstprivate"))) {
    berror(b, arg, "default(%.*s) is not supported by gtcc", (int)n, s);
    return;
  } else {
    berror(b, arg, "unknown default kind '%.*s'; expected %s", (int)n, s,
           acc ? "'none' or 'present'" : "'none' or 'shared'");
    return;
  }
  Clause *c = add_clause(b, kind, name);
  if (c) c->u.def_kind = dk;
}

void b_clause_reduction(DirBuilder *b, int kind, DirSpan name, DirSpan op) {
  const char *s = b->text + op.begin;
  size_t n = op.end - op.begin;
  int r = -1;
  for (int i = 0; i < (int)(sizeof redop_names / sizeof *redop_names); i++)
    if (word_is(s, n, redop_names[i])) r = i;
  if (r < 0) {
    if (word_is(s, n, "-")) berror(b, op, "reduction operator '-' is not supported; use '+'");
    else berror(b, op, "unknown reduction operator '%.*s'", (int)n, s);
    drop_pending(b);
    return;
  }
  Clause *c = add_clause(b, kind, name);
  if (c) {
    c->u.red_op = (RedOp)r;
    take_items(b, c);
  }
  drop_pending(b);
}

void b_depend_iterator(DirBuilder *b, DirSpan word) {
  drop_pending(b);
  berror(b, word, "depend(...) form not supported by gtcc: 'iterator' (name each item)");
}

void b_item(DirBuilder *b, DirSpan name) {
  VarItem it;
  memset(&it, 0, sizeof it);
  it.name = span_text(b, name);
  size_t base = strspn(it.name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
  if (it.name[base]) { /* `A.rp`: name "A", member ".rp" (without blanks: it is also a name in messages) */
    it.member = xstrdup(it.name + base);
    it.name[base] = '\0';
    size_t k = 0;
    int depth = 0; /* blanks inside an element's subscript stay: `[sizeof x]` */
    for (const char *q = it.member; *q; q++) {
      depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
      if (depth > 0 || !isspace((unsigned char)*q)) it.member[k++] = *q;
    }
    it.member[k] = '\0';
  }
  it.loc = map_off(b, name.begin);
  if (b->too_many_subs) {
    berror(b, name, "too many subscripts on '%s' (gtcc handles at most %d)", it.name, MAX_SUBSCRIPTS);
    for (int i = 0; i < b->nsubs; i++) free_subscript(&b->subs[i]);
  } else {
    it.nsubs = b->nsubs;
    memcpy(it.subs, b->subs, (size_t)b->nsubs * sizeof *b->subs);
  }
  b->nsubs = 0;
  b->too_many_subs = false;
  VEC_PUSH(b->items, b->nitems, b->capitems, it);
}

static void push_sub(DirBuilder *b, Subscript s) {
  if (b->nsubs == MAX_SUBSCRIPTS) {
    b->too_many_subs = true;
    free_subscript(&s);
    return;
  }
  b->subs[b->nsubs++] = s;
}

void b_index(DirBuilder *b, DirSpan e) {
  Subscript s;
  s.is_section = false;
  s.lo = make_expr(b, e);
  s.len = no_expr(b, e.end);
  push_sub(b, s);
}

void b_section(DirBuilder *b, const DirSpan *lo, const DirSpan *len, DirSpan brackets) {
  Subscript s;
  s.is_section = true;
  s.lo = lo ? make_expr(b, *lo) : no_expr(b, brackets.begin + 1);
  s.len = len ? make_expr(b, *len) : no_expr(b, brackets.end - 1);
  push_sub(b, s);
}

void b_empty_subscript(DirBuilder *b, DirSpan brackets) {
  berror(b, brackets, "empty subscript: write an index [i] or an array section [lo:len]");
  b->quiet = true;
}

/* Bison's "syntax error, unexpected X, expecting A or B" in user terms:
 * "expected A or B before 'x' in 'omp target'". */
void b_syntax_error(DirBuilder *b, DirSpan at, const char *msg) {
  if (b->quiet) { /* the cause was reported already */
    b->nerrors++;
    return;
  }
  if (!strncmp(msg, "memory exhausted", 16)) {
    berror(b, at, "directive too deeply nested for gtcc");
    return;
  }
  const char *exp = strstr(msg, ", expecting ");
  StrBuf where;
  sb_init(&where);
  if (at.begin >= b->textlen) {
    sb_puts(&where, "at end of directive");
  } else {
    size_t n = at.end > at.begin ? at.end - at.begin : 1;
    if (n > 32) n = 32;
    sb_printf(&where, "before '%.*s'", (int)n, b->text + at.begin);
  }
  bool at_end = at.begin >= b->textlen;
  bool word = !at_end && is_idchar(b->text[at.begin]);
  int k = b->last_clause;
  if (k == CL_DEPEND && b->depth > 0 && !at_end && strchr("*(.&", b->text[at.begin]))
    /* valid OpenMP lvalues (*p, s[i].v) that gtcc's depend items do not take */
    berror(b, at, "gtcc's depend items name a variable or one element (x[i]); '%.*s' here is not supported: write "
                  "*p as p[0], depend on an element of an array of scalars instead of a member, and write out a "
                  "macro (depend items are read as written)",
           (int)(at.end - at.begin), b->text + at.begin);
  else if (exp && word && b->depth > 0 && strstr(exp, "':'") && (k == CL_MAP || k == CL_DEPEND || k == CL_REDUCTION))
    berror(b, at, "expected ':' before '%.*s' in '%s' clause", (int)(at.end - at.begin), b->text + at.begin,
           clause_spelling((ClauseKind)k));
  else if (exp && at_end && strstr(exp, "')'"))
    berror(b, at, "expected ')' at end of directive '%s'", cur_name(b));
  else if (exp)
    berror(b, at, "expected %s %s in '%s'", exp + strlen(", expecting "), where.data, cur_name(b));
  else if (at_end)
    berror(b, at, "unexpected end of directive '%s'", cur_name(b));
  else
    berror(b, at, "unexpected '%.*s' in '%s'", (int)(at.end - at.begin), b->text + at.begin, cur_name(b));
  sb_free(&where);
}

/* ---- Lexer hooks ------------------------------------------------------- */

DirFamily b_family(const DirBuilder *b) { return b->p->family; }
unsigned b_lex_pos(const DirBuilder *b) { return b->pos; }
void b_lex_advance(DirBuilder *b, unsigned n) { b->pos += n; }
void b_lex_setpos(DirBuilder *b, unsigned pos) { b->pos = pos; }
int b_lex_depth(const DirBuilder *b) { return b->depth; }

void b_lex_paren(DirBuilder *b, int delta) {
  b->depth += delta;
  if (b->depth < 0) b->depth = 0;
}

int b_lex_clause(DirBuilder *b, const char *word, size_t n, int *kind) {
  int k = lookup_clause(b->p->family, word, n);
  b->last_clause = k;
  *kind = k;
  if (k < 0) return DPT_KW_UNKNOWN;
  switch (clause_arg((ClauseKind)k)) {
  case CA_NONE: return DPT_KW_NONE;
  case CA_OPTEXPR: return DPT_KW_OPTEXPR;
  case CA_EXPR: return DPT_KW_EXPR;
  case CA_VARS: return DPT_KW_VARS;
  case CA_RED: return DPT_KW_RED;
  case CA_MAP: return DPT_KW_MAP;
  case CA_DEPEND: return DPT_KW_DEPEND;
  case CA_DEFAULT: return DPT_KW_DEFAULT;
  }
  unreachable("clause argument kind");
}

void b_lex_error(DirBuilder *b, DirSpan at, char c) {
  unsigned char u = (unsigned char)c;
  if (c == '"' || c == '\'') berror(b, at, "missing terminating %c character", c);
  else if (u >= 0x80) berror(b, at, "non-ASCII character in directive");
  else if (u > 32 && u < 127) berror(b, at, "stray '%c' in directive", c);
  else berror(b, at, "stray byte 0x%02x in directive", u);
  b->quiet = true;
}

/* ---- Entry points ------------------------------------------------------ */

Directive *fe_parse_directive(const PragmaLine *p) {
  if (!p) return NULL;
  DirBuilder b;
  memset(&b, 0, sizeof b);
  b.p = p;
  b.text = p->text ? p->text : "";
  b.textlen = strlen(b.text);
  b.last_clause = -1;
  size_t i = 0;
  while (i < b.textlen && is_blank(b.text[i])) i++;
  if (i == b.textlen) {
    DirSpan at = {0, 0};
    berror(&b, at, "expected a directive name after '%s'", fam_word(p->family));
    return NULL;
  }
  /* OpenACC's wait, init, shutdown and set: gtcc runs every kernel and copy synchronously on
   * one device (async queues included), so they have nothing to do; their arguments (`wait(1, 2)`
   * holds queue numbers, not variables) are the host compiler's. */
  if (p->family == FAM_ACC) {
    static const DirKind runtime_dirs[] = {DIR_ACC_WAIT, DIR_ACC_INIT, DIR_ACC_SHUTDOWN, DIR_ACC_SET};
    size_t n = 0;
    while (i + n < b.textlen && is_idchar(b.text[i + n])) n++;
    for (size_t r = 0; r < sizeof runtime_dirs / sizeof *runtime_dirs; r++)
      if (word_is(b.text + i, n, dir_table[runtime_dirs[r]].spelling)) {
        Directive *d = xcalloc(1, sizeof *d);
        d->kind = runtime_dirs[r];
        d->loc = p->loc;
        d->end_offset = p->end_offset;
        return d;
      }
  }
  yyscan_t scanner;
  if (dl_lex_init_extra(&b, &scanner) != 0) {
    diag_error(p->loc, "out of memory while parsing a directive");
    return NULL;
  }
  YY_BUFFER_STATE buf = dl__scan_string(b.text, scanner);
  int rc = dp_parse(scanner, &b);
  dl__delete_buffer(buf, scanner);
  dl_lex_destroy(scanner);
  drop_pending(&b);
  if (rc != 0 && b.nerrors == 0) {
    DirSpan at = {0, 0};
    berror(&b, at, "cannot parse directive");
  }
  if (!b.nerrors && b.d && b.d->kind == DIR_ACC_CACHE && b.d->nnames == 0) {
    DirSpan at = {0, b.dirname_end};
    berror(&b, at, "'acc cache' needs a list of variables or array sections: 'acc cache(a[i-1:3])'");
  }
  if (b.nerrors || !b.d) {
    fe_free_directive(b.d);
    return NULL;
  }
  return b.d;
}

void fe_free_directive(Directive *d) {
  if (!d) return;
  for (int i = 0; i < d->nclauses; i++) {
    free(d->clauses[i].expr.text);
    free_items(d->clauses[i].items, d->clauses[i].nitems);
  }
  free(d->clauses);
  free_items(d->names, d->nnames);
  free(d);
}
