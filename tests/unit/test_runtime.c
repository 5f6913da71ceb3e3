/* libgtrt core without a GPU: trip counts, grid sizing, and the present
 * table driven by a fake device whose "device memory" is host malloc. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gtrt_core.h"
#include "unit.h"

/* ---- fake device ---------------------------------------------------------- */

typedef struct fake_dev {
  int allocs, releases, to_dev, to_host;
  size_t last_alloc;
  int fail_alloc; /* next alloc fails with GTRT_ERR_NOMEM */
} fake_dev;

static gtrt_status fake_alloc(void *ctx, const gtrt_site *site, const char *name, size_t bytes, void **dev) {
  fake_dev *f = ctx;
  if (f->fail_alloc) {
    f->fail_alloc = 0;
    return gtrt_record(site, GTRT_ERR_NOMEM, "out of device memory: %zu bytes for '%s'", bytes, name);
  }
  f->allocs++;
  f->last_alloc = bytes;
  *dev = calloc(1, bytes);
  return *dev ? GTRT_OK : GTRT_ERR_NOMEM;
}

static gtrt_status fake_release(void *ctx, const gtrt_site *site, const char *name, void *dev) {
  (void)site, (void)name;
  ((fake_dev *)ctx)->releases++;
  free(dev);
  return GTRT_OK;
}

static gtrt_status fake_to_dev(void *ctx, const gtrt_site *site, const char *name, void *dev, const void *host,
                               size_t bytes) {
  (void)site, (void)name;
  ((fake_dev *)ctx)->to_dev++;
  memcpy(dev, host, bytes);
  return GTRT_OK;
}

static gtrt_status fake_to_host(void *ctx, const gtrt_site *site, const char *name, void *host, const void *dev,
                                size_t bytes) {
  (void)site, (void)name;
  ((fake_dev *)ctx)->to_host++;
  memcpy(host, dev, bytes);
  return GTRT_OK;
}

static const gtrt_site site = {"spmv.c", 42, "acc parallel loop"};

/* ---- tests ----------------------------------------------------------------- */

static void test_trip_counts(void) {
  CHECK(gtrt_trip_count(0, 10, 1, "<") == 10);
  CHECK(gtrt_trip_count(0, 10, 3, "<") == 4);
  CHECK(gtrt_trip_count(0, 10, 3, "<=") == 4);
  CHECK(gtrt_trip_count(0, 9, 3, "<=") == 4);
  CHECK(gtrt_trip_count(0, 9, 3, "<") == 3);
  CHECK(gtrt_trip_count(10, 0, -1, ">") == 10);
  CHECK(gtrt_trip_count(10, 0, -1, ">=") == 11);
  CHECK(gtrt_trip_count(10, 0, -4, ">") == 3);
  CHECK(gtrt_trip_count(10, 0, -5, ">=") == 3);
  CHECK(gtrt_trip_count(-5, 5, 2, "<") == 5);
  /* empty */
  CHECK(gtrt_trip_count(10, 10, 1, "<") == 0);
  CHECK(gtrt_trip_count(11, 10, 1, "<=") == 0);
  CHECK(gtrt_trip_count(10, 10, 1, "<=") == 1);
  CHECK(gtrt_trip_count(0, 10, -1, ">") == 0);
  CHECK(gtrt_trip_count(0, 0, -1, ">=") == 1);
  /* inconsistent step direction, zero step, unknown relop */
  CHECK(gtrt_trip_count(0, 10, -1, "<") == 0);
  CHECK(gtrt_trip_count(10, 0, 1, ">") == 0);
  CHECK(gtrt_trip_count(0, 10, 0, "<") == 0);
  CHECK(gtrt_trip_count(0, 10, 1, "==") == 0);
  CHECK(gtrt_trip_count(0, 10, 1, NULL) == 0);
  /* != with an exact step */
  CHECK(gtrt_trip_count(0, 10, 2, "!=") == 5);
  CHECK(gtrt_trip_count(10, 0, -1, "!=") == 10);
  CHECK(gtrt_trip_count(0, 10, 3, "!=") == 0);
  /* large values: ub - lb overflows long long */
  CHECK(gtrt_trip_count(LLONG_MIN, LLONG_MAX, LLONG_MAX, "<") == 3);
  CHECK(gtrt_trip_count(LLONG_MIN, LLONG_MAX, 1, "<=") == LLONG_MAX); /* saturates */
  CHECK(gtrt_trip_count(-3000000000LL, 3000000000LL, 1, "<") == 6000000000LL);
  CHECK(gtrt_trip_count(LLONG_MAX, LLONG_MIN, LLONG_MIN, ">") == 2);
  CHECK(gtrt_trip_count(LLONG_MAX, LLONG_MIN, LLONG_MIN, ">=") == 2);
  CHECK(gtrt_trip_count(0, LLONG_MAX, LLONG_MAX, "<=") == 2);
  CHECK(gtrt_trip_count(LLONG_MAX - 1, LLONG_MAX, 1, "<=") == 2);
}

static void test_grid(void) {
  CHECK(gtrt_grid_calc(0, 256, 132, 2048) == 1);
  CHECK(gtrt_grid_calc(-5, 256, 132, 2048) == 1);
  CHECK(gtrt_grid_calc(1, 256, 132, 2048) == 1);
  CHECK(gtrt_grid_calc(257, 256, 132, 2048) == 2);
  CHECK(gtrt_grid_calc(1LL << 40, 256, 132, 2048) == 132 * 8);
  CHECK(gtrt_grid_calc(1LL << 40, 1024, 132, 2048) == 132 * 2);
  CHECK(gtrt_grid_calc(LLONG_MAX, 0, 0, 0) >= 1);
}

static void test_present_basic(void) {
  fake_dev f = {0};
  gtrt_mem_ops ops = {&f, fake_alloc, fake_release, fake_to_dev, fake_to_host};
  gtrt_ptable t;
  gtrt_pt_init(&t, &ops);
  double a[100];
  for (int i = 0; i < 100; i++)
    a[i] = i;

  /* enter TO copies once; a nested enter only counts */
  CHECK(gtrt_pt_enter(&t, &site, "a", a, sizeof a, GTRT_MAP_TO) == GTRT_OK);
  CHECK(f.allocs == 1 && f.to_dev == 1 && f.last_alloc == sizeof a);
  CHECK(gtrt_pt_enter(&t, &site, "a", a, sizeof a, GTRT_MAP_TO) == GTRT_OK);
  CHECK(f.allocs == 1 && f.to_dev == 1);
  CHECK(gtrt_pt_refcount(&t, a, sizeof a) == 2);
  /* a subsection is inside: counted, not copied */
  CHECK(gtrt_pt_enter(&t, &site, "a[10:5]", &a[10], 5 * sizeof *a, GTRT_MAP_TOFROM) == GTRT_OK);
  CHECK(gtrt_pt_refcount(&t, a, sizeof a) == 3 && f.to_dev == 1);
  CHECK(gtrt_pt_enter(&t, &site, "a", a, sizeof a, GTRT_MAP_PRESENT) == GTRT_OK);
  CHECK(gtrt_pt_refcount(&t, a, sizeof a) == 4);

  /* containment lookup */
  double *d = gtrt_pt_dev_ptr(&t, &site, "a", a);
  CHECK(d != NULL && d != a);
  CHECK(gtrt_pt_dev_ptr(&t, &site, "a", &a[37]) == d + 37);
  CHECK(gtrt_pt_dev_ptr(&t, &site, "a", &a[100]) == d + 100); /* one past the end */
  CHECK(gtrt_pt_dev_ptr(&t, &site, "a", NULL) == NULL);
  CHECK(d[99] == 99.0);

  /* update: device -> host and back */
  d[5] = -5.0;
  CHECK(gtrt_pt_update(&t, &site, "a[5]", &a[5], sizeof *a, 0) == GTRT_OK);
  CHECK(a[5] == -5.0);
  a[6] = -6.0;
  CHECK(gtrt_pt_update(&t, &site, "a[6]", &a[6], sizeof *a, 1) == GTRT_OK);
  CHECK(d[6] == -6.0);

  /* exits: FROM copies back only when the count reaches 0 */
  d[0] = 1000.0;
  CHECK(gtrt_pt_exit(&t, &site, "a", a, sizeof a, GTRT_MAP_PRESENT, 0) == GTRT_OK);
  CHECK(gtrt_pt_exit(&t, &site, "a[10:5]", &a[10], 5 * sizeof *a, GTRT_MAP_TOFROM, 0) == GTRT_OK);
  CHECK(gtrt_pt_exit(&t, &site, "a", a, sizeof a, GTRT_MAP_FROM, 0) == GTRT_OK);
  CHECK(f.to_host == 1 && a[0] == 0.0 && gtrt_pt_refcount(&t, a, sizeof a) == 1);
  CHECK(gtrt_pt_exit(&t, &site, "a", a, sizeof a, GTRT_MAP_FROM, 0) == GTRT_OK);
  CHECK(f.to_host == 2 && a[0] == 1000.0);
  CHECK(f.releases == 1 && gtrt_pt_size(&t) == 0);
  CHECK(gtrt_pt_refcount(&t, a, sizeof a) == 0);

  /* exit of something not present does nothing */
  CHECK(gtrt_pt_exit(&t, &site, "a", a, sizeof a, GTRT_MAP_FROM, 0) == GTRT_OK);
  CHECK(f.to_host == 2);

  /* force_delete frees at once, copying back for FROM */
  CHECK(gtrt_pt_enter(&t, &site, "a", a, sizeof a, GTRT_MAP_ALLOC) == GTRT_OK);
  CHECK(gtrt_pt_enter(&t, &site, "a", a, sizeof a, GTRT_MAP_ALLOC) == GTRT_OK);
  CHECK(f.to_dev == 2); /* ALLOC does not copy (the 2 are the TO and the update) */
  d = gtrt_pt_dev_ptr(&t, &site, "a", a);
  d[1] = 77.0;
  CHECK(gtrt_pt_exit(&t, &site, "a", a, sizeof a, GTRT_MAP_FROM, 1) == GTRT_OK);
  CHECK(a[1] == 77.0 && gtrt_pt_size(&t) == 0 && f.releases == 2);
  gtrt_pt_destroy(&t);
}

static void test_present_errors(void) {
  fake_dev f = {0};
  gtrt_mem_ops ops = {&f, fake_alloc, fake_release, fake_to_dev, fake_to_host};
  gtrt_ptable t;
  gtrt_pt_init(&t, &ops);
  int a[64], b[8];

  /* PRESENT of unmapped data */
  gtrt_clear_error();
  CHECK(gtrt_pt_enter(&t, &site, "x", a, sizeof a, GTRT_MAP_PRESENT) == GTRT_ERR_NOT_PRESENT);
  CHECK(strstr(gtrt_last_error(), "spmv.c:42: error: 'x' is not present on the device (add it to a data clause)") ==
        gtrt_last_error());
  CHECK(strstr(gtrt_last_error(), "acc parallel loop") != NULL);
  CHECK(gtrt_last_status() == GTRT_ERR_NOT_PRESENT);

  /* present(p) of a bare pointer (0 bytes) whose p[0] is not mapped: no
   * dummy entry; the region's translation of p reports it */
  CHECK(gtrt_pt_enter(&t, &site, "o", &b[0], 0, GTRT_MAP_PRESENT) == GTRT_OK);
  CHECK(gtrt_pt_size(&t) == 0 && f.allocs == 0);
  gtrt_clear_error();
  CHECK(gtrt_pt_dev_base(&t, &site, "o", &b[0], &b[0]) == NULL);
  CHECK(strstr(gtrt_last_error(), "'o' is not present") != NULL);
  CHECK(gtrt_pt_exit(&t, &site, "o", &b[0], 0, GTRT_MAP_PRESENT, 0) == GTRT_OK);
  /* ... and when only a later section of o is mapped, the message names it */
  {
    fake_dev f2 = {0};
    gtrt_mem_ops ops2 = {&f2, fake_alloc, fake_release, fake_to_dev, fake_to_host};
    gtrt_ptable t2;
    gtrt_pt_init(&t2, &ops2);
    CHECK(gtrt_pt_enter(&t2, &site, "o[4:4]", &b[4], 4 * sizeof *b, GTRT_MAP_TO) == GTRT_OK);
    gtrt_clear_error();
    CHECK(gtrt_pt_dev_base(&t2, &site, "o", &b[0], &b[0]) == NULL);
    CHECK(strstr(gtrt_last_error(), "'o' is not present on the device at") != NULL);
    CHECK(strstr(gtrt_last_error(), "the section 'o[4:4]'") && strstr(gtrt_last_error(), "starts 16 bytes after it"));
    CHECK(strstr(gtrt_last_error(), "present(o[lo:len])") != NULL);
    gtrt_pt_destroy(&t2);
  }

  /* dev_ptr / update of unmapped data */
  gtrt_clear_error();
  CHECK(gtrt_pt_dev_ptr(&t, &site, "b", b) == NULL);
  CHECK(strstr(gtrt_last_error(), "'b' is not present") != NULL);
  CHECK(gtrt_pt_update(&t, &site, "b", b, sizeof b, 1) == GTRT_ERR_NOT_PRESENT);

  /* partial overlaps are rejected, naming both variables */
  CHECK(gtrt_pt_enter(&t, &site, "a[16:16]", &a[16], 16 * sizeof *a, GTRT_MAP_TO) == GTRT_OK);
  CHECK(gtrt_pt_enter(&t, &site, "a[8:16]", &a[8], 16 * sizeof *a, GTRT_MAP_TO) == GTRT_ERR_ARG);
  CHECK(strstr(gtrt_last_error(), "'a[8:16]'") && strstr(gtrt_last_error(), "'a[16:16]'"));
  CHECK(gtrt_pt_enter(&t, &site, "a[24:16]", &a[24], 16 * sizeof *a, GTRT_MAP_TO) == GTRT_ERR_ARG);
  CHECK(gtrt_pt_enter(&t, &site, "a", a, sizeof a, GTRT_MAP_TO) == GTRT_ERR_ARG); /* encloses it */
  CHECK(gtrt_pt_update(&t, &site, "a", a, sizeof a, 0) == GTRT_ERR_NOT_PRESENT);
  CHECK(gtrt_pt_exit(&t, &site, "a[8:16]", &a[8], 16 * sizeof *a, GTRT_MAP_FROM, 0) == GTRT_ERR_ARG);
  /* adjacent sections are fine and are separate entries */
  CHECK(gtrt_pt_enter(&t, &site, "a[0:16]", a, 16 * sizeof *a, GTRT_MAP_TO) == GTRT_OK);
  CHECK(gtrt_pt_enter(&t, &site, "a[32:32]", &a[32], 32 * sizeof *a, GTRT_MAP_TO) == GTRT_OK);
  CHECK(gtrt_pt_size(&t) == 3 && f.allocs == 3);
  int *d16 = gtrt_pt_dev_ptr(&t, &site, "a", &a[16]);
  int *d0 = gtrt_pt_dev_ptr(&t, &site, "a", &a[0]);
  CHECK(d16 && d0 && gtrt_pt_dev_ptr(&t, &site, "a", &a[20]) == d16 + 4);
  CHECK(gtrt_pt_dev_ptr(&t, &site, "a", &a[15]) == d0 + 15);
  /* device base of a subsection: a[i] indexing works for i in [16, 32) */
  int *base = gtrt_pt_dev_base(&t, &site, "a", a, &a[16]);
  CHECK((char *)base + 16 * sizeof(int) == (char *)d16);
  CHECK(gtrt_pt_exit(&t, &site, "a[16:16]", &a[16], 16 * sizeof *a, GTRT_MAP_TO, 0) == GTRT_OK);
  CHECK(gtrt_pt_size(&t) == 2 && gtrt_pt_dev_ptr(&t, &site, "a", &a[0]) == d0);

  /* NULL pointers */
  CHECK(gtrt_pt_enter(&t, &site, "p", NULL, 0, GTRT_MAP_TO) == GTRT_OK);
  CHECK(gtrt_pt_enter(&t, &site, "p", NULL, 8, GTRT_MAP_TO) == GTRT_ERR_ARG);

  /* allocation failure leaves the table unchanged */
  f.fail_alloc = 1;
  CHECK(gtrt_pt_enter(&t, &site, "b", b, sizeof b, GTRT_MAP_TO) == GTRT_ERR_NOMEM);
  CHECK(strstr(gtrt_last_error(), "32 bytes for 'b'") != NULL);
  CHECK(gtrt_pt_size(&t) == 2 && gtrt_pt_refcount(&t, b, sizeof b) == 0);

  gtrt_pt_destroy(&t);
  CHECK(f.releases == f.allocs && gtrt_pt_size(&t) == 0);
}

static void test_present_zero_length(void) {
  fake_dev f = {0};
  gtrt_mem_ops ops = {&f, fake_alloc, fake_release, fake_to_dev, fake_to_host};
  gtrt_ptable t;
  gtrt_pt_init(&t, &ops);
  float v[10];
  for (int i = 0; i < 10; i++)
    v[i] = (float)i + 0.5f;

  /* unmapped zero-length section: its own entry with a unique device address */
  CHECK(gtrt_pt_enter(&t, &site, "v[0:0]", v, 0, GTRT_MAP_TOFROM) == GTRT_OK);
  CHECK(f.to_dev == 0);
  void *z = gtrt_pt_dev_ptr(&t, &site, "v", v);
  CHECK(z != NULL);
  CHECK(gtrt_pt_update(&t, &site, "v", v, 0, 0) == GTRT_OK);
  CHECK(gtrt_pt_enter(&t, &site, "w[3:0]", &v[3], 0, GTRT_MAP_TO) == GTRT_OK);
  void *z3 = gtrt_pt_dev_ptr(&t, &site, "w", &v[3]);
  CHECK(z3 != NULL && z3 != z);
  /* a full mapping over the same storage is not an overlap; it wins lookups */
  CHECK(gtrt_pt_enter(&t, &site, "v", v, sizeof v, GTRT_MAP_TO) == GTRT_OK);
  float *d = gtrt_pt_dev_ptr(&t, &site, "v", v);
  CHECK(d != NULL && (void *)d != z && d[9] == 9.5f);
  /* a zero-length section inside a mapped one shares it */
  CHECK(gtrt_pt_enter(&t, &site, "v[5:0]", &v[5], 0, GTRT_MAP_TO) == GTRT_OK);
  CHECK(gtrt_pt_refcount(&t, v, sizeof v) == 2);
  CHECK(gtrt_pt_exit(&t, &site, "v[5:0]", &v[5], 0, GTRT_MAP_FROM, 0) == GTRT_OK);
  CHECK(gtrt_pt_exit(&t, &site, "v", v, sizeof v, GTRT_MAP_TO, 0) == GTRT_OK);
  CHECK(gtrt_pt_dev_ptr(&t, &site, "v", v) == z);
  CHECK(gtrt_pt_exit(&t, &site, "v[0:0]", v, 0, GTRT_MAP_TOFROM, 0) == GTRT_OK);
  CHECK(gtrt_pt_exit(&t, &site, "w[3:0]", &v[3], 0, GTRT_MAP_TO, 0) == GTRT_OK);
  CHECK(gtrt_pt_size(&t) == 0 && f.releases == f.allocs && f.to_host == 0);
  gtrt_pt_destroy(&t);
}

/* Host code of a split task region: gtrt_pt_sync_from copies a whole
 * section back once per epoch; written sections go back at gtrt_pt_push
 * and are not overwritten by a copy-out. */
static void test_present_sync(void) {
  fake_dev f = {0};
  gtrt_mem_ops ops = {&f, fake_alloc, fake_release, fake_to_dev, fake_to_host};
  gtrt_ptable t;
  gtrt_pt_init(&t, &ops);
  double *a = malloc(50 * sizeof *a), *b = malloc(20 * sizeof *b), other = 0; /* apart: &b[20] is no a[i] */
  CHECK(a && b);
  if (!a || !b) return;
  for (int i = 0; i < 50; i++) a[i] = i;
  for (int i = 0; i < 20; i++) b[i] = -i;
  CHECK(gtrt_pt_enter(&t, &site, "a", a, 50 * sizeof *a, GTRT_MAP_TOFROM) == GTRT_OK);
  CHECK(gtrt_pt_enter(&t, &site, "b", b, 20 * sizeof *b, GTRT_MAP_TO) == GTRT_OK);
  double *da = gtrt_pt_dev_ptr(&t, &site, "a", a), *db = gtrt_pt_dev_ptr(&t, &site, "b", b);
  /* no megakernel since the enter: nothing to copy */
  CHECK(gtrt_pt_sync_from(&t, &site, "a", &a[7], 0) == GTRT_OK && f.to_host == 0);
  /* a megakernel wrote the device copies: the whole section comes back, once */
  gtrt_pt_advance(&t);
  da[0] = 100.0, da[49] = 149.0;
  CHECK(gtrt_pt_sync_from(&t, &site, "p", &a[7], 0) == GTRT_OK && f.to_host == 1);
  CHECK(a[0] == 100.0 && a[49] == 149.0);
  CHECK(gtrt_pt_sync_from(&t, &site, "a", a, 0) == GTRT_OK && f.to_host == 1);
  /* one past the end finds the section; an address in none is not an error */
  CHECK(gtrt_pt_sync_from(&t, &site, "b", &b[20], 1) == GTRT_OK && f.to_host == 2);
  CHECK(gtrt_pt_sync_from(&t, &site, "x", &other, 1) == GTRT_OK && gtrt_pt_sync_from(&t, &site, "x", NULL, 1) == GTRT_OK);
  CHECK(f.to_host == 2 && t.nnewer == 1);
  /* b written on the host: pushed before the next megakernel, once */
  b[3] = 33.0;
  int to_dev = f.to_dev;
  CHECK(gtrt_pt_push(&t, &site) == GTRT_OK && f.to_dev == to_dev + 1 && db[3] == 33.0 && t.nnewer == 0);
  CHECK(gtrt_pt_push(&t, &site) == GTRT_OK && f.to_dev == to_dev + 1);
  /* a written section that is not pushed keeps the host's copy at copy-out */
  gtrt_pt_advance(&t);
  da[1] = -1.0;
  CHECK(gtrt_pt_sync_from(&t, &site, "a", a, 1) == GTRT_OK && a[1] == -1.0);
  a[2] = 222.0;
  da[2] = 0.0;
  CHECK(gtrt_pt_exit(&t, &site, "a", a, 50 * sizeof *a, GTRT_MAP_TOFROM, 0) == GTRT_OK);
  CHECK(a[2] == 222.0 && t.nnewer == 0);
  CHECK(gtrt_pt_exit(&t, &site, "b", b, 20 * sizeof *b, GTRT_MAP_TO, 0) == GTRT_OK && gtrt_pt_size(&t) == 0);
  gtrt_pt_destroy(&t);
  free(a), free(b);
}

/* A const object (GTRT_MAP_TO_CONST) goes to the device like map(to:) and
 * never comes back: not at a split region's sync, nor at update self, nor
 * at exit. Its host copy here lies in read-only memory, where a copy back
 * would fault. */
static void test_present_const(void) {
  static const double table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  fake_dev f = {0};
  gtrt_mem_ops ops = {&f, fake_alloc, fake_release, fake_to_dev, fake_to_host};
  gtrt_ptable t;
  gtrt_pt_init(&t, &ops);
  void *host = (void *)(uintptr_t)table;
  CHECK(gtrt_pt_enter(&t, &site, "table", host, sizeof table, GTRT_MAP_TO_CONST) == GTRT_OK && f.to_dev == 1);
  double *dt = gtrt_pt_dev_ptr(&t, &site, "table", table);
  CHECK(dt && dt[7] == 8.0);
  gtrt_pt_advance(&t);
  CHECK(gtrt_pt_sync_all_from(&t, &site, 0) == GTRT_OK && gtrt_pt_sync_from(&t, &site, "table", host, 0) == GTRT_OK);
  CHECK(gtrt_pt_update(&t, &site, "table", host, sizeof table, 0) == GTRT_OK && f.to_host == 0);
  CHECK(gtrt_pt_exit(&t, &site, "table", host, sizeof table, GTRT_MAP_TO_CONST, 0) == GTRT_OK);
  CHECK(f.to_host == 0 && gtrt_pt_size(&t) == 0 && f.releases == 1);
  gtrt_pt_destroy(&t);
}

int main(void) {
  test_trip_counts();
  test_grid();
  test_present_basic();
  test_present_errors();
  test_present_zero_length();
  test_present_sync();
  test_present_const();
  return unit_result();
}
