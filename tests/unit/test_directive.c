/* Unit tests of the directive frontend: pragma scanning (pragma_scan.l),
 * directive parsing (dir_lexer.l + dir_parser.y + directive.c) and the
 * tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "directive.h"
#include "strbuf.h"
#include "unit.h"

/* ---- helpers ------------------------------------------------------------ */

static char *diag_buf;
static size_t diag_size;
static FILE *diag_fp;

/* Starts capturing diagnostics. */
static void capture(void) {
  diag_reset();
  free(diag_buf);
  diag_buf = NULL;
  diag_fp = open_memstream(&diag_buf, &diag_size);
  diag_set_stream(diag_fp);
}

/* Stops capturing; returns what was reported (valid until the next capture). */
static const char *captured(void) {
  diag_set_stream(NULL);
  if (diag_fp) fclose(diag_fp);
  diag_fp = NULL;
  return diag_buf ? diag_buf : "";
}

/* A parsed source: the file, its pragmas, and the first pragma's directive. */
typedef struct Parsed {
  SrcFile *f;
  PragmaLine *p;
  int n;
  Directive *d;
  const char *diags;
  int nerr;
} Parsed;

static Parsed parse_src(const char *src) {
  Parsed r;
  memset(&r, 0, sizeof r);
  r.f = srcfile_from_string("t.c", src, strlen(src));
  r.n = fe_scan_pragmas(r.f, &r.p);
  capture();
  if (r.n > 0) r.d = fe_parse_directive(&r.p[0]);
  r.nerr = diag_error_count();
  r.diags = captured();
  return r;
}

static void parsed_free(Parsed *r) {
  fe_free_directive(r->d);
  fe_free_pragmas(r->p, r->n);
  srcfile_free(r->f);
}

/* Parses `#pragma <text>` alone on line 1. */
static Parsed parse_line(const char *text) {
  char *src = xasprintf("#pragma %s\n", text);
  Parsed r = parse_src(src);
  free(src);
  return r;
}

/* Expects text to parse without errors into a directive of kind k. */
static int ok_kind(const char *text, DirKind k) {
  Parsed r = parse_line(text);
  int ok = r.d && r.d->kind == k && r.nerr == 0;
  if (!ok) fprintf(stderr, "  '%s' -> %s", text, r.diags);
  parsed_free(&r);
  return ok;
}

/* Expects an error whose text contains want. */
static int err_has(const char *src, const char *want) {
  Parsed r = parse_src(src);
  int ok = !r.d && r.nerr > 0 && strstr(r.diags, want) != NULL;
  if (!ok) fprintf(stderr, "  '%s': wanted \"%s\", got \"%s\"\n", src, want, r.diags);
  parsed_free(&r);
  return ok;
}

/* ---- scanning ----------------------------------------------------------- */

static void test_scan(void) {
  const char *src = "#include <stdio.h>\n"                      /* 1 */
                    "#pragma once\n"                            /* 2 */
                    "// #pragma omp parallel\n"                 /* 3 */
                    "/* #pragma acc kernels\n"                  /* 4 */
                    "   #pragma acc kernels */\n"               /* 5 */
                    "const char *s = \"#pragma omp for\";\n"    /* 6 */
                    "  #  pragma   omp parallel for \\\n"       /* 7 */
                    "    private(i)\n"                          /* 8 */
                    "#pragma GCC ivdep\n"                       /* 9 */
                    "#pragma acc parallel loop /* c */ gang\n"  /* 10 */
                    "#pragma ompx foo\n"                        /* 11 */
                    "#pragma accparallel\n"                     /* 12 */
                    "char c = '\"'; _Pragma(\"omp barrier\")\n" /* 13 */
                    "#define P _Pragma(\"omp for\")\n"          /* 14 */
                    "#pragma omp";                              /* 15: no newline */
  SrcFile *f = srcfile_from_string("t.c", src, strlen(src));
  PragmaLine *p;
  int n = fe_scan_pragmas(f, &p);
  CHECK(n == 5);
  if (n == 5) {
    CHECK(p[0].family == FAM_OMP);
    CHECK(p[0].loc.line == 7 && p[0].loc.col == 3);
    CHECK_STR(p[0].text, "parallel for     private(i)"); /* the splice itself leaves nothing (C's phase 2) */
    CHECK(p[0].text_loc.line == 7 && p[0].text_loc.col == 19);
    /* `private` is on line 8, col 5; the blanks before it map to both lines. */
    const char *pr = strstr(p[0].text, "private");
    SrcLoc l = srcfile_loc(f, p[0].text_offsets[pr - p[0].text]);
    CHECK(l.line == 8 && l.col == 5);
    CHECK(src[p[0].text_offsets[12]] == ' ' && srcfile_loc(f, p[0].text_offsets[13]).line == 8);
    CHECK(p[0].end_offset == (unsigned)(strstr(src, "#pragma GCC") - src));

    CHECK(p[1].family == FAM_ACC);
    CHECK_STR(p[1].text, "parallel loop   gang");
    CHECK(p[1].loc.line == 10 && p[1].loc.col == 1);
    l = srcfile_loc(f, p[1].text_offsets[strlen(p[1].text) - 4]);
    CHECK(l.line == 10 && l.col == 35);

    CHECK(p[2].family == FAM_OMP);
    CHECK_STR(p[2].text, "barrier");
    CHECK(p[2].loc.line == 13 && p[2].loc.col == 15);
    CHECK(p[2].text_loc.line == 13 && p[2].text_loc.col == 28);
    CHECK(src[p[2].end_offset - 1] == ')');

    CHECK(!p[0].macro && !p[1].macro && !p[2].macro);
    /* A _Pragma in a #define body: recorded with its macro's name. */
    CHECK(p[3].family == FAM_OMP);
    CHECK_STR(p[3].text, "for");
    CHECK(p[3].macro && !strcmp(p[3].macro, "P"));
    CHECK(p[3].loc.line == 14 && p[3].loc.col == 11);
    CHECK(p[3].text_loc.line == 14 && p[3].text_loc.col == 24);

    CHECK(p[4].family == FAM_OMP);
    CHECK_STR(p[4].text, "");
    CHECK(p[4].loc.line == 15 && p[4].end_offset == f->len && !p[4].macro);
  }
  fe_free_pragmas(p, n);
  srcfile_free(f);

  /* _Pragma with escaped quotes; a string with an escaped quote before it. */
  const char *src2 = "x = \"a\\\"b\"; _Pragma ( \"acc update host(s) if(t == \\\"x\\\"[0])\" ) y;\n";
  f = srcfile_from_string("u.c", src2, strlen(src2));
  n = fe_scan_pragmas(f, &p);
  CHECK(n == 1);
  if (n == 1) {
    CHECK(p[0].family == FAM_ACC);
    CHECK_STR(p[0].text, "update host(s) if(t == \"x\"[0])");
    CHECK(src2[p[0].end_offset - 1] == ')' && src2[p[0].end_offset] == ' ');
  }
  fe_free_pragmas(p, n);
  srcfile_free(f);

  /* Empty file, CRLF line ends. */
  f = srcfile_from_string("e.c", "", 0);
  n = fe_scan_pragmas(f, &p);
  CHECK(n == 0);
  fe_free_pragmas(p, n);
  srcfile_free(f);
  const char *src3 = "#pragma omp simd \\\r\n  collapse(2)\r\nint x;\r\n";
  f = srcfile_from_string("w.c", src3, strlen(src3));
  n = fe_scan_pragmas(f, &p);
  CHECK(n == 1 && !strcmp(p[0].text, "simd   collapse(2)"));
  fe_free_pragmas(p, n);
  srcfile_free(f);
  const char *src_splice = "#pragma acc parallel loop red\\\nuction(+:s)\nint y;\n"; /* a splice inside a word */
  f = srcfile_from_string("s.c", src_splice, strlen(src_splice));
  n = fe_scan_pragmas(f, &p);
  CHECK(n == 1 && !strcmp(p[0].text, "parallel loop reduction(+:s)"));
  fe_free_pragmas(p, n);
  srcfile_free(f);

  /* A #define continued over lines; _Pragma inside a string of the body is text. */
  const char *src4 = "#define T(x) puts(\"_Pragma(\\\"omp task\\\")\"); \\\n"
                     "  _Pragma ( \"omp task depend(inout: x)\" ) x++\n"
                     "#  define  ACC_LOOP _Pragma(\"acc loop\")\n";
  f = srcfile_from_string("m.c", src4, strlen(src4));
  n = fe_scan_pragmas(f, &p);
  CHECK(n == 2);
  if (n == 2) {
    CHECK(p[0].macro && !strcmp(p[0].macro, "T") && !strcmp(p[0].text, "task depend(inout: x)"));
    CHECK(p[0].loc.line == 2 && p[0].loc.col == 3);
    CHECK(src4[p[0].end_offset - 1] == ')');
    CHECK(p[1].macro && !strcmp(p[1].macro, "ACC_LOOP") && p[1].family == FAM_ACC);
    CHECK(p[1].loc.line == 3 && p[1].loc.col == 21 && !strcmp(p[1].text, "loop"));
  }
  fe_free_pragmas(p, n);
  srcfile_free(f);
}

/* ---- valid directives --------------------------------------------------- */

static void test_acc(void) {
  Parsed r = parse_line("acc parallel loop gang vector(128) collapse(2) reduction(+:sum) "
                        "copyin(a[0:n], b[:n][0:m]), copyout(c[i-1][j]) private(t) async");
  CHECK(r.d != NULL);
  if (r.d) {
    CHECK(r.d->kind == DIR_ACC_PARALLEL_LOOP);
    CHECK(r.d->nclauses == 8);
    CHECK(r.d->loc.line == 1 && r.d->loc.col == 1);
    const Clause *c = dir_find_clause(r.d, CL_GANG);
    CHECK(c && c->expr.text == NULL);
    c = dir_find_clause(r.d, CL_VECTOR);
    CHECK(c && !strcmp(c->expr.text, "128"));
    c = dir_find_clause(r.d, CL_COLLAPSE);
    CHECK(c && !strcmp(c->expr.text, "2") && c->expr.loc.col == 53);
    c = dir_find_clause(r.d, CL_REDUCTION);
    CHECK(c && c->u.red_op == RED_ADD && c->nitems == 1 && !strcmp(c->items[0].name, "sum"));
    c = dir_find_clause(r.d, CL_COPYIN);
    CHECK(c && c->nitems == 2);
    if (c && c->nitems == 2) {
      const VarItem *a = &c->items[0], *b = &c->items[1];
      CHECK_STR(a->name, "a");
      CHECK(a->nsubs == 1 && a->subs[0].is_section);
      CHECK_STR(a->subs[0].lo.text, "0");
      CHECK_STR(a->subs[0].len.text, "n");
      CHECK(b->nsubs == 2 && b->subs[0].is_section && b->subs[0].lo.text == NULL);
      CHECK_STR(b->subs[0].len.text, "n");
      CHECK_STR(b->subs[1].len.text, "m");
      CHECK(b->loc.offset == (unsigned)(strstr(r.f->text, "b[:n]") - r.f->text));
    }
    c = dir_find_clause(r.d, CL_COPYOUT);
    CHECK(c && c->nitems == 1 && c->items[0].nsubs == 2 && !c->items[0].subs[0].is_section);
    if (c && c->nitems == 1) {
      CHECK_STR(c->items[0].subs[0].lo.text, "i-1");
      CHECK_STR(c->items[0].subs[1].lo.text, "j");
    }
    c = dir_find_clause(r.d, CL_ASYNC);
    CHECK(c && c->expr.text == NULL);
    CHECK(dir_find_clause(r.d, CL_WAIT) == NULL);
  }
  parsed_free(&r);

  r = parse_line("acc kernels loop independent gang(num: 4) worker(8) vector(length: n*2) "
                 "reduction(max:m) reduction(&&:ok) gtcc_cdp(auto) gtcc_threshold(1<<20)");
  CHECK(r.d && r.d->kind == DIR_ACC_KERNELS_LOOP && r.d->nclauses == 8);
  if (r.d && r.d->nclauses == 8) {
    CHECK_STR(r.d->clauses[1].expr.text, "4");
    CHECK_STR(r.d->clauses[3].expr.text, "n*2");
    CHECK(r.d->clauses[4].u.red_op == RED_MAX);
    CHECK(r.d->clauses[5].u.red_op == RED_LAND);
    CHECK_STR(r.d->clauses[6].expr.text, "auto");
    CHECK_STR(r.d->clauses[7].expr.text, "1<<20");
  }
  parsed_free(&r);

  r = parse_line("acc data copy(x[0:n]) present(y) default(present) pcopyin(z)");
  CHECK(r.d && r.d->kind == DIR_ACC_DATA && r.d->nclauses == 4);
  if (r.d && r.d->nclauses == 4) {
    CHECK(r.d->clauses[2].u.def_kind == DEFAULT_PRESENT);
    CHECK(r.d->clauses[3].kind == CL_COPYIN);
  }
  parsed_free(&r);

  CHECK(ok_kind("acc parallel num_gangs(n / 2) vector_length(256) default(none) copy(a)", DIR_ACC_PARALLEL));
  CHECK(ok_kind("acc kernels if(n > 100) copyin(readonly: a[0:n])", DIR_ACC_KERNELS));
  CHECK(ok_kind("acc loop seq", DIR_ACC_LOOP));
  CHECK(ok_kind("acc loop tile(8, 8) private(t[0:4])", DIR_ACC_LOOP));
  CHECK(ok_kind("acc enter data copyin(a[0:n]) create(b[0:n])", DIR_ACC_ENTER_DATA));
  CHECK(ok_kind("acc exit data copyout(b[0:n]) delete(a) finalize", DIR_ACC_EXIT_DATA));
  CHECK(ok_kind("acc update host(a[lo:hi-lo]) if_present", DIR_ACC_UPDATE));
  CHECK(ok_kind("acc update device(a[0:n]) self(b) async(1) wait", DIR_ACC_UPDATE));
  CHECK(ok_kind("acc parallel loop reduction(||:f) reduction(^:x) reduction(|:y) reduction(&:z) reduction(*:p) "
                "reduction(min:q)",
                DIR_ACC_PARALLEL_LOOP));
}

static void test_omp(void) {
  Parsed r = parse_line("omp target teams distribute parallel for simd collapse(2) "
                        "map(tofrom: a[0:n]) map(to: b[0:n][0:m], c) map(always, from: d[1:]) "
                        "num_teams(nt) thread_limit(128) schedule(static, 4) if(target: n > (a ? 1 : 2)) nowait");
  CHECK(r.d != NULL);
  if (r.d) {
    CHECK(r.d->kind == DIR_OMP_TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR_SIMD);
    CHECK(r.d->nclauses == 9);
    CHECK(r.d->clauses[1].u.map_kind == MAP_TOFROM);
    CHECK(r.d->clauses[2].u.map_kind == MAP_TO && r.d->clauses[2].nitems == 2);
    CHECK(r.d->clauses[3].u.map_kind == MAP_FROM);
    const VarItem *d = r.d->clauses[3].nitems == 1 ? &r.d->clauses[3].items[0] : NULL;
    CHECK(d && d->nsubs == 1 && d->subs[0].is_section && d->subs[0].len.text == NULL);
    if (d) CHECK_STR(d->subs[0].lo.text, "1");
    const Clause *c = dir_find_clause(r.d, CL_SCHEDULE);
    CHECK(c && !strcmp(c->expr.text, "static, 4"));
    c = dir_find_clause(r.d, CL_IF);
    CHECK(c && !strcmp(c->expr.text, "n > (a ? 1 : 2)"));
    if (c) {
      const char *want = strstr(r.f->text, "n > (a");
      CHECK(c->expr.loc.offset == (unsigned)(want - r.f->text));
    }
    CHECK(dir_find_clause(r.d, CL_NOWAIT) != NULL);
  }
  parsed_free(&r);

  /* host-only directives: parsed, kept for the host */
  r = parse_line("omp critical(acc_lock) hint(0)");
  CHECK(r.d && r.d->kind == DIR_OMP_CRITICAL && r.d->nnames == 1 && r.d->nclauses == 1);
  if (r.d && r.d->nnames == 1) CHECK_STR(r.d->names[0].name, "acc_lock");
  parsed_free(&r);
  r = parse_line("omp parallel masked filter(0) num_threads(4)");
  CHECK(r.d && r.d->kind == DIR_OMP_PARALLEL_MASKED && r.d->nclauses == 2);
  parsed_free(&r);
  r = parse_line("omp parallel sections reduction(+:s)");
  CHECK(r.d && r.d->kind == DIR_OMP_PARALLEL_SECTIONS && r.d->nclauses == 1);
  parsed_free(&r);
  r = parse_line("omp flush(a, b) acq_rel");
  CHECK(r.d && r.d->kind == DIR_OMP_FLUSH && r.d->nnames == 2);
  parsed_free(&r);
  r = parse_line("acc cache(readonly: a[i-1:3], b)"); /* a hint: the list is parsed, nothing is lowered */
  CHECK(r.d && r.d->kind == DIR_ACC_CACHE && r.d->nnames == 2);
  if (r.d && r.d->nnames == 2) CHECK_STR(r.d->names[1].name, "b");
  parsed_free(&r);
  r = parse_line("acc cache(a[0:4])");
  CHECK(r.d && r.d->kind == DIR_ACC_CACHE && r.d->nnames == 1);
  parsed_free(&r);
  CHECK(err_has("#pragma acc cache\n", "'acc cache' needs a list"));
  CHECK(err_has("#pragma omp flush(acq: a)\n", "modifier 'acq' is not supported on 'omp flush'"));
  r = parse_line("acc wait(1, 2) async(3)"); /* a runtime directive: kept for the host, arguments unparsed */
  CHECK(r.d && r.d->kind == DIR_ACC_WAIT && r.d->nclauses == 0);
  parsed_free(&r);
  r = parse_line("acc shutdown device_type(nvidia)");
  CHECK(r.d && r.d->kind == DIR_ACC_SHUTDOWN);
  parsed_free(&r);
  r = parse_line("acc parallel loop async(1) wait(2)"); /* wait as a clause stays a clause */
  CHECK(r.d && r.d->kind == DIR_ACC_PARALLEL_LOOP && r.d->nclauses == 2);
  parsed_free(&r);
  r = parse_line("acc serial loop reduction(+:s) copyin(v[0:n]) if(n > 0)");
  CHECK(r.d && r.d->kind == DIR_ACC_SERIAL_LOOP && r.d->nclauses == 3);
  parsed_free(&r);
  r = parse_line("acc declare create(a, b[0:n]) device_resident(c) copyin(t) link(g)");
  CHECK(r.d && r.d->kind == DIR_ACC_DECLARE && r.d->nclauses == 4);
  if (r.d && r.d->nclauses == 4) {
    CHECK(r.d->clauses[0].kind == CL_CREATE && r.d->clauses[0].nitems == 2);
    CHECK(r.d->clauses[1].kind == CL_DEVICE_RESIDENT && r.d->clauses[1].nitems == 1);
  }
  parsed_free(&r);
  r = parse_line("acc declare reduction(+:s)"); /* not a clause of declare */
  CHECK(r.d == NULL);
  parsed_free(&r);

  r = parse_line("omp target enter data map(to: a[0:n]) map(alloc: b[0:n]) depend(in: a[0], x) device(1)");
  CHECK(r.d && r.d->kind == DIR_OMP_TARGET_ENTER_DATA && r.d->nclauses == 4);
  if (r.d && r.d->nclauses == 4) {
    CHECK(r.d->clauses[1].u.map_kind == MAP_ALLOC);
    CHECK(r.d->clauses[2].kind == CL_DEPEND && r.d->clauses[2].u.dep_kind == DEP_IN);
    CHECK(r.d->clauses[2].nitems == 2);
    CHECK(r.d->clauses[3].kind == CL_DEVICE_NUM);
  }
  parsed_free(&r);

  r = parse_line("omp target exit data map(a[0:n]) map(delete: b) depend(inout: y) depend(out: z)");
  CHECK(r.d && r.d->nclauses == 4);
  if (r.d && r.d->nclauses == 4) {
    CHECK(r.d->clauses[0].u.map_kind == MAP_FROM);
    CHECK(r.d->clauses[1].u.map_kind == MAP_DELETE);
    CHECK(r.d->clauses[2].u.dep_kind == DEP_INOUT);
    CHECK(r.d->clauses[3].u.dep_kind == DEP_OUT);
  }
  parsed_free(&r);

  r = parse_line("acc data copyin(A.rp[0:n+1], P -> s.v[1:m], x) present(q)");
  CHECK(r.d && r.d->nclauses == 2 && r.d->clauses[0].nitems == 3);
  if (r.d && r.d->nclauses == 2 && r.d->clauses[0].nitems == 3) {
    const VarItem *it = r.d->clauses[0].items;
    CHECK(!strcmp(it[0].name, "A") && it[0].member && !strcmp(it[0].member, ".rp") && it[0].nsubs == 1);
    CHECK(!strcmp(it[1].name, "P") && it[1].member && !strcmp(it[1].member, "->s.v") && it[1].nsubs == 1);
    CHECK(!strcmp(it[2].name, "x") && !it[2].member);
  }
  parsed_free(&r);
  CHECK(err_has("#pragma acc parallel loop private(s.t)\n", "'s.t' names a struct member: gtcc takes members in data "
                                                             "clauses only, not in 'private'"));
  CHECK(err_has("#pragma omp task depend(in: a[i].v)\n", "'a[i].v' names a struct member"));
  r = parse_line("omp target data map(to: arr[k+1].rp[0:n], q[2] -> v[1:m])");
  CHECK(r.d && r.d->nclauses == 1 && r.d->clauses[0].nitems == 2);
  if (r.d && r.d->nclauses == 1 && r.d->clauses[0].nitems == 2) {
    const VarItem *it = r.d->clauses[0].items;
    CHECK(!strcmp(it[0].name, "arr") && !strcmp(it[0].member, "[k+1].rp") && it[0].nsubs == 1);
    CHECK(!strcmp(it[1].name, "q") && !strcmp(it[1].member, "[2]->v") && it[1].nsubs == 1);
  }
  parsed_free(&r);
  CHECK(err_has("#pragma omp task depend(in: s.v)\n", "'s.v' names a struct member"));

  r = parse_line("acc host_data use_device(p, a) if_present if(n > 0)");
  CHECK(r.d && r.d->kind == DIR_ACC_HOST_DATA && r.d->nclauses == 3);
  if (r.d && r.d->nclauses == 3) {
    CHECK(r.d->clauses[0].kind == CL_USE_DEVICE && r.d->clauses[0].nitems == 2);
    CHECK(r.d->clauses[1].kind == CL_IF_PRESENT && r.d->clauses[2].kind == CL_IF);
  }
  parsed_free(&r);
  r = parse_line("omp target data map(to: x[0:n]) use_device_ptr(x) use_device_addr(a)");
  CHECK(r.d && r.d->kind == DIR_OMP_TARGET_DATA && r.d->nclauses == 3);
  if (r.d && r.d->nclauses == 3)
    CHECK(r.d->clauses[1].kind == CL_USE_DEVICE_PTR && r.d->clauses[2].kind == CL_USE_DEVICE_ADDR);
  parsed_free(&r);

  r = parse_line("omp target enter data map(always: x)");
  CHECK(r.d && r.d->nclauses == 1 && r.d->clauses[0].u.map_kind == MAP_TO && r.d->clauses[0].map_always);
  parsed_free(&r);
  r = parse_line("omp target map(close, from: x) map(always, close, to: y) map(z)");
  CHECK(r.d && r.d->nclauses == 3);
  if (r.d && r.d->nclauses == 3) {
    CHECK(r.d->clauses[0].u.map_kind == MAP_FROM && !r.d->clauses[0].map_always);
    CHECK(r.d->clauses[1].u.map_kind == MAP_TO && r.d->clauses[1].map_always);
    CHECK(!r.d->clauses[2].map_always);
  }
  parsed_free(&r);
  r = parse_line("omp target map(present, to: x)"); /* OpenMP 5.1's present modifier: not supported */
  CHECK(r.d == NULL);
  parsed_free(&r);

  r = parse_line("omp target map(x)");
  CHECK(r.d && r.d->nclauses == 1 && r.d->clauses[0].u.map_kind == MAP_TOFROM);
  parsed_free(&r);

  CHECK(ok_kind("omp target", DIR_OMP_TARGET));
  CHECK(ok_kind("omp target teams", DIR_OMP_TARGET_TEAMS));
  CHECK(ok_kind("omp target teams distribute dist_schedule(static)", DIR_OMP_TARGET_TEAMS_DISTRIBUTE));
  CHECK(ok_kind("omp target teams distribute parallel for private(i, j) firstprivate(n)",
                DIR_OMP_TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR));
  CHECK(ok_kind("omp target parallel for num_threads(4)", DIR_OMP_TARGET_PARALLEL_FOR));
  CHECK(ok_kind("omp target parallel", DIR_OMP_TARGET_PARALLEL));
  CHECK(ok_kind("omp target data map(tofrom: a[0:n]) if(use_gpu)", DIR_OMP_TARGET_DATA));
  CHECK(ok_kind("omp target update to(a[0:n]) from(b[0:n]) nowait", DIR_OMP_TARGET_UPDATE));
  CHECK(ok_kind("omp teams distribute parallel for", DIR_OMP_TEAMS_DISTRIBUTE_PARALLEL_FOR));
  CHECK(ok_kind("omp parallel for reduction(+: s) schedule(dynamic) default(shared) if(parallel: n > 1)",
                DIR_OMP_PARALLEL_FOR));
  CHECK(ok_kind("omp parallel for simd", DIR_OMP_PARALLEL_FOR_SIMD));
  CHECK(ok_kind("omp for simd lastprivate(x) nowait", DIR_OMP_FOR_SIMD));
  CHECK(ok_kind("omp simd safelen(8) aligned(a, b: 64) linear(i: 2)", DIR_OMP_SIMD));
  CHECK(ok_kind("omp task depend(out: a[i][0:n]) firstprivate(i) priority(2)", DIR_OMP_TASK));
  CHECK(ok_kind("omp taskwait", DIR_OMP_TASKWAIT));
  CHECK(ok_kind("omp taskgroup", DIR_OMP_TASKGROUP));
  CHECK(ok_kind("omp single nowait", DIR_OMP_SINGLE));
  CHECK(ok_kind("omp master", DIR_OMP_MASTER));
  CHECK(ok_kind("omp barrier", DIR_OMP_BARRIER));
  CHECK(ok_kind("omp distribute parallel for", DIR_OMP_DISTRIBUTE_PARALLEL_FOR));
  CHECK(ok_kind("omp parallel\tfor  ,private(x),shared(y)", DIR_OMP_PARALLEL_FOR));
  CHECK(ok_kind("omp parallel for gtcc_cdp(on) gtcc_threshold(4096)", DIR_OMP_PARALLEL_FOR));

  /* Expressions with nested brackets, strings and a ternary inside a subscript. */
  r = parse_line("omp target map(to: a[f(x, y)][n ? 1 : 2 : m], s[\"]\"[0]])");
  CHECK(r.d && r.d->nclauses == 1 && r.d->clauses[0].nitems == 2);
  if (r.d && r.d->nclauses == 1 && r.d->clauses[0].nitems == 2) {
    const VarItem *a = &r.d->clauses[0].items[0];
    CHECK(a->nsubs == 2);
    CHECK_STR(a->subs[0].lo.text, "f(x, y)");
    CHECK(a->subs[1].is_section);
    CHECK_STR(a->subs[1].lo.text, "n ? 1 : 2");
    CHECK_STR(a->subs[1].len.text, "m");
    CHECK_STR(r.d->clauses[0].items[1].subs[0].lo.text, "\"]\"[0]");
  }
  parsed_free(&r);

  /* Continuation lines: clause locations land on the right line. */
  r = parse_src("int x;\n#pragma omp parallel for \\\n   reduction(+:s) \\\n      private(t)\nfor(;;);\n");
  CHECK(r.d && r.d->nclauses == 2);
  if (r.d && r.d->nclauses == 2) {
    CHECK(r.d->clauses[0].loc.line == 3 && r.d->clauses[0].loc.col == 4);
    CHECK(r.d->clauses[1].loc.line == 4 && r.d->clauses[1].loc.col == 7);
    CHECK(r.d->clauses[1].items[0].loc.line == 4 && r.d->clauses[1].items[0].loc.col == 15);
    CHECK(r.d->end_offset == (unsigned)(strstr(r.f->text, "for(;;)") - r.f->text));
  }
  parsed_free(&r);

  /* _Pragma texts parse too. */
  r = parse_src("void f(void) {\n  _Pragma(\"omp parallel for private(\\\"x\\\")\")\n}\n");
  CHECK(r.n == 1 && r.d == NULL); /* private("x") is not a variable list */
  CHECK(strstr(r.diags, "t.c:2:") != NULL);
  parsed_free(&r);
  r = parse_src("_Pragma(\"omp target teams map(to: a[0:n])\") x;\n");
  CHECK(r.d && r.d->kind == DIR_OMP_TARGET_TEAMS && r.d->nclauses == 1);
  if (r.d && r.d->nclauses == 1) CHECK(r.d->clauses[0].items[0].loc.col == 35);
  parsed_free(&r);
}

/* ---- errors -------------------------------------------------------------- */

static void test_errors(void) {
  Parsed r0;
  CHECK(err_has("int a;\n\n#pragma acc paralel loop\n", "t.c:3:13: error: unknown OpenACC directive 'paralel'"));
  CHECK(err_has("#pragma omp\n", "t.c:1:12: error: expected a directive name after 'omp'"));
  CHECK(err_has("#pragma acc   \n", "error: expected a directive name after 'acc'"));
  CHECK(err_has("#pragma omp ordered\n", "OpenMP directive 'ordered' is not supported by gtcc"));
  CHECK(err_has("#pragma acc host_data use_device(p) copy(q)\n", "clause 'copy' is not allowed on 'acc host_data'"));
  CHECK(err_has("#pragma omp target data use_device(p)\n", "clause 'use_device' is not allowed on 'omp target data'"));
  CHECK(err_has("#pragma omp masked nowait\n", "clause 'nowait' is not allowed on 'omp masked'"));
  CHECK(err_has("#pragma omp sections(x)\n", "'omp sections' takes no list in parentheses"));
  CHECK(err_has("#pragma omp (x)\n", "t.c:1:13: error: expected a directive name after 'omp'"));
  CHECK(err_has("\n\n#pragma acc parallel loop depend(in: x)\n",
                "t.c:3:27: error: clause 'depend' is not allowed on 'acc parallel loop'"));
  CHECK(err_has("#pragma omp target foo(1, 2) map(x)\n", "t.c:1:20: error: unknown clause 'foo' on 'omp target'"));
  CHECK(err_has("#pragma omp parallel for reduction(-:s)\n",
                "t.c:1:36: error: reduction operator '-' is not supported; use '+'"));
  CHECK(err_has("#pragma omp parallel for reduction(foo:s)\n", "unknown reduction operator 'foo'"));
  CHECK(err_has("#pragma omp target depend(sink: i-1)\n",
                "t.c:1:27: error: depend(...) form not supported by gtcc"));
  CHECK(err_has("#pragma omp task depend(mutexinoutset: x)\n", "depend(...) form not supported by gtcc"));
  CHECK(err_has("#pragma omp task depend(iterator(it=0:n), in: a[it])\n",
                "t.c:1:25: error: depend(...) form not supported by gtcc"));
  CHECK(err_has("#pragma omp taskwait depend(source)\n", "depend(...) form not supported by gtcc"));
  CHECK(err_has("#pragma omp parallel for private(x\n", "t.c:1:35: error: expected"));
  CHECK(err_has("#pragma omp parallel for private(x\n", "')'"));
  CHECK(err_has("#pragma acc parallel loop copyin(a[0:n)\n", "t.c:1:39: error: unexpected ')'"));
  CHECK(err_has("#pragma acc parallel loop collapse\n", "clause 'collapse' needs an argument"));
  CHECK(err_has("#pragma acc loop seq(2)\n", "clause 'seq' takes no argument"));
  CHECK(err_has("#pragma acc loop gang gang\n", "t.c:1:23: error: clause 'gang' appears more than once"));
  CHECK(err_has("#pragma omp target map(tofrom: x) map(release: y)\n",
                "t.c:1:39: error: map type 'release' is not allowed on 'omp target'"));
  CHECK(err_has("#pragma omp target enter data map(from: y)\n", "map type 'from' is not allowed"));
  CHECK(err_has("#pragma omp target map(sometimes: x)\n", "t.c:1:24: error: unknown map type or modifier 'sometimes'"));
  CHECK(err_has("#pragma omp parallel default(present)\n", "unknown default kind 'present'"));
  CHECK(err_has("#pragma acc parallel default(shared)\n", "t.c:1:30: error: unknown default kind 'shared'"));
  CHECK(err_has("#pragma omp parallel for nowait\n", "clause 'nowait' is not allowed on 'omp parallel for'"));
  CHECK(err_has("#pragma omp target teams distribute simd\n",
                "t.c:1:37: error: 'omp target teams distribute simd' is not a directive gtcc supports"));
  CHECK(err_has("#pragma acc loop private(a[1][2][3][4][5])\n", "too many subscripts on 'a'"));
  CHECK(err_has("#pragma acc loop private(x @ y)\n", "t.c:1:28: error: stray '@' in directive"));
  CHECK(err_has("#pragma acc loop private(x\xc3\xa9)\n", "t.c:1:27: error: non-ASCII character in directive"));
  CHECK(err_has("#pragma acc kernels if(s == \"x)\n", "missing terminating \" character"));
  CHECK(err_has("#pragma omp target if(parallel: n > 0)\n", "modifier 'parallel:' in clause 'if' is not supported"));
  CHECK(err_has("#pragma omp parallel for private(x),\n", "unexpected end of directive 'omp parallel for'"));
  CHECK(err_has("#pragma omp parallel for private(1)\n", "t.c:1:34: error: expected identifier"));
  CHECK(err_has("#pragma acc loop gang(static: 4)\n", "modifier 'static:' in clause 'gang' is not supported"));
  CHECK(err_has("#pragma omp parallel for \\\n  private(x) \\\n  schedule(static) schedule(static)\n",
                "t.c:3:20: error: clause 'schedule' appears more than once"));
  CHECK(err_has("#pragma omp for collapse()\n", "clause 'collapse' needs an argument"));

  CHECK(err_has("#pragma acc parallel loop copy(x[])\n",
                "t.c:1:33: error: empty subscript: write an index [i] or an array section [lo:len]"));
  CHECK(err_has("#pragma omp target map(tofrom x[0:n])\n", "t.c:1:31: error: expected ':' before 'x' in 'map' clause"));
  CHECK(err_has("#pragma omp target teams distribute paralel for map(tofrom: x)\n",
                "t.c:1:37: error: unknown OpenMP directive 'target teams distribute paralel'"));
  r0 = parse_line("omp target teams distribute paralel for bogus(1)");
  CHECK(r0.d == NULL && r0.nerr >= 1 && strstr(r0.diags, "clause 'bogus'") == NULL); /* no cascade */
  parsed_free(&r0);

  /* One error per bad pragma; the count is exact. */
  Parsed r = parse_line("acc parallel loop foo bar(x) gang");
  CHECK(r.d == NULL && r.nerr == 2);
  parsed_free(&r);

  /* A PragmaLine built by hand (no text_offsets) is handled. */
  SrcFile *f = srcfile_from_string("h.c", "#pragma acc loop gang(\n", 23);
  PragmaLine pl;
  memset(&pl, 0, sizeof pl);
  pl.family = FAM_ACC;
  pl.loc = srcfile_loc(f, 0);
  pl.text = (char *)"loop gang(";
  pl.text_loc = srcfile_loc(f, 12);
  capture();
  Directive *d = fe_parse_directive(&pl);
  const char *out = captured();
  CHECK(d == NULL && strstr(out, "h.c:1:23: error:") != NULL);
  srcfile_free(f);
  CHECK(fe_parse_directive(NULL) == NULL);
}

/* Token soups: whatever the input, the parser neither crashes nor leaks
 * (run under ASan), and returns NULL exactly when it reported an error. */
static void test_fuzz(void) {
  static const char *const words[] = {
      "parallel", "loop", "target", "teams", "distribute", "for", "simd", "map", "(", ")", "[", "]", ":", ",",
      "?",        "x",    "n",      "0",     "+",          "-",   "to",   "tofrom", "reduction", "depend",
      "in",       "copy", "gang",   "collapse", "default", "none", "\"", "'", "@", "if", "max", "sink",
      "\xff",    "always", "private", "num_gangs", "1.5e3", "a->b", "update", "data", "enter", "exit"};
  static const char *const bases[] = {
      "#pragma acc parallel loop gang vector(128) reduction(+:s) copyin(a[0:n], b[i][:m]) async(1)\n",
      "#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) if(target: n > (k ? 1 : 2))\n",
      "#pragma omp task depend(in: a[i][0:n]) firstprivate(i) default(shared)\n",
      "#pragma acc update host(a[lo:hi-lo]) if_present wait\n"};
  unsigned seed = 12345, bad = 0, runs = 0, good = 0;
  for (int iter = 0; iter < 3000; iter++) {
    seed = seed * 1103515245u + 12345u;
    const char *base = bases[(seed >> 4) % 4];
    size_t len = strlen(base), at = 8 + (seed >> 8) % (len - 9);
    StrBuf sb;
    sb_init(&sb);
    sb_putn(&sb, base, at);
    switch (iter % 3) {
    case 0: sb_puts(&sb, base + at); break;         /* unchanged */
    case 1: sb_puts(&sb, base + at + 1); break;     /* one byte deleted */
    default:                                        /* one word inserted */
      sb_puts(&sb, words[(seed >> 16) % (sizeof words / sizeof *words)]);
      sb_puts(&sb, base + at);
    }
    Parsed r = parse_src(sb.data);
    runs++;
    if (r.n > 0 && (r.d != NULL) != (r.nerr == 0)) bad++;
    if (iter % 3 == 0 && !r.d) bad++;
    good += r.d != NULL;
    parsed_free(&r);
    sb_free(&sb);
  }
  CHECK(runs == 3000 && bad == 0 && good >= 1000);

  /* Byte soups through the scanner: offsets stay inside the file. */
  static const char *const bits[] = {"#", "pragma", " omp", " acc", " x", "\\", "\n", "\"", "'", "/", "*",
                                     "_Pragma(", ")", "\\\n", "\r\n", " ", "\t", "for",
                                     "\n#pragma omp ", "\n#pragma acc ", "_Pragma(\"acc "};
  bad = 0;
  int total = 0;
  for (int iter = 0; iter < 2000; iter++) {
    StrBuf sb;
    sb_init(&sb);
    int n = 1 + (int)(seed % 40);
    for (int i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      sb_puts(&sb, bits[(seed >> 8) % (sizeof bits / sizeof *bits)]);
    }
    SrcFile *f = srcfile_from_string("z.c", sb.data, sb.len);
    PragmaLine *p;
    int np = fe_scan_pragmas(f, &p);
    total += np;
    for (int i = 0; i < np; i++) {
      size_t len = strlen(p[i].text);
      if (p[i].end_offset > f->len || p[i].loc.offset >= p[i].end_offset) bad++;
      for (size_t k = 0; k <= len; k++)
        if (p[i].text_offsets[k] > f->len) bad++;
      capture();
      Directive *d = fe_parse_directive(&p[i]);
      captured();
      fe_free_directive(d);
    }
    fe_free_pragmas(p, np);
    srcfile_free(f);
    sb_free(&sb);
  }
  CHECK(bad == 0 && total > 500);
}

/* ---- tables --------------------------------------------------------------- */

static void test_tables(void) {
  CHECK_STR(dir_spelling(DIR_ACC_PARALLEL_LOOP), "parallel loop");
  CHECK_STR(dir_name(DIR_OMP_TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR), "omp target teams distribute parallel for");
  CHECK(dir_family(DIR_OMP_TASK) == FAM_OMP && dir_family(DIR_ACC_UPDATE) == FAM_ACC);
  CHECK(dir_flags(DIR_ACC_UPDATE) & DF_STANDALONE);
  CHECK((dir_flags(DIR_ACC_KERNELS_LOOP) & (DF_COMPUTE | DF_LOOP)) == (DF_COMPUTE | DF_LOOP));
  CHECK_STR(clause_spelling(CL_NUM_GANGS), "num_gangs");
  CHECK(clause_arg(CL_MAP) == CA_MAP && clause_arg(CL_GANG) == CA_OPTEXPR && clause_arg(CL_COPYIN) == CA_VARS);
  CHECK_STR(redop_spelling(RED_LOR), "||");
  CHECK_STR(redop_spelling(RED_MIN), "min");

  CHECK(dir_allows_clause(DIR_ACC_PARALLEL_LOOP, CL_GANG));
  CHECK(dir_allows_clause(DIR_ACC_PARALLEL_LOOP, CL_NUM_GANGS));
  CHECK(dir_allows_clause(DIR_ACC_PARALLEL_LOOP, CL_GTCC_CDP));
  CHECK(dir_allows_clause(DIR_ACC_LOOP, CL_GTCC_THRESHOLD));
  CHECK(dir_allows_clause(DIR_ACC_KERNELS_LOOP, CL_GTCC_CDP));
  CHECK(dir_allows_clause(DIR_ACC_PARALLEL, CL_GTCC_CDP)); /* the construct of an outer acc loop */
  CHECK(!dir_allows_clause(DIR_ACC_DATA, CL_GTCC_CDP) && !dir_allows_clause(DIR_OMP_PARALLEL, CL_GTCC_THRESHOLD));
  CHECK(!dir_allows_clause(DIR_ACC_PARALLEL_LOOP, CL_DEPEND));
  CHECK(!dir_allows_clause(DIR_ACC_LOOP, CL_COPYIN));
  CHECK(!dir_allows_clause(DIR_ACC_KERNELS, CL_REDUCTION));
  CHECK(dir_allows_clause(DIR_ACC_UPDATE, CL_HOST) && !dir_allows_clause(DIR_ACC_UPDATE, CL_COPY));
  CHECK(dir_allows_clause(DIR_OMP_TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR, CL_MAP));
  CHECK(dir_allows_clause(DIR_OMP_TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR, CL_NUM_TEAMS));
  CHECK(dir_allows_clause(DIR_OMP_TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR, CL_SCHEDULE));
  CHECK(dir_allows_clause(DIR_OMP_TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR, CL_GTCC_THRESHOLD));
  CHECK(dir_allows_clause(DIR_OMP_TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR, CL_NOWAIT));
  CHECK(!dir_allows_clause(DIR_OMP_PARALLEL_FOR, CL_NOWAIT));
  CHECK(dir_allows_clause(DIR_OMP_FOR, CL_NOWAIT));
  CHECK(!dir_allows_clause(DIR_OMP_TARGET, CL_SCHEDULE));
  CHECK(dir_allows_clause(DIR_OMP_TARGET, CL_GTCC_CDP));
  CHECK(!dir_allows_clause(DIR_OMP_TARGET_DATA, CL_GTCC_CDP) && !dir_allows_clause(DIR_OMP_TASK, CL_GTCC_CDP));
  CHECK(dir_allows_clause(DIR_OMP_TARGET_UPDATE, CL_TO) && !dir_allows_clause(DIR_OMP_TARGET_UPDATE, CL_MAP));
  CHECK(!dir_allows_clause(DIR_OMP_BARRIER, CL_NOWAIT));
  CHECK(!dir_allows_clause(DIR__COUNT, CL_GANG) && !dir_allows_clause(DIR_ACC_LOOP, CL__COUNT));

  Directive d;
  memset(&d, 0, sizeof d);
  CHECK(dir_find_clause(&d, CL_GANG) == NULL && dir_find_clause(NULL, CL_GANG) == NULL);
}

int main(void) {
  test_scan();
  test_acc();
  test_omp();
  test_errors();
  test_tables();
  test_fuzz();
  free(diag_buf);
  return unit_result();
}
