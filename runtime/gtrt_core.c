/* libgtrt pieces that need no GPU: the last-error record, trip counts, grid
 * sizing and the GTRT_PROFILE table. */
#define _POSIX_C_SOURCE 200809L
#include "gtrt_core.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- error recording ---------------------------------------------------- */

/* Thread-local so a host thread never reports another thread's failure. */
static _Thread_local char gtrt_msg[1024];
static _Thread_local gtrt_status gtrt_msg_status;

const char *gtrt_site_what(const gtrt_site *site) {
  return site && site->what ? site->what : "offload";
}

gtrt_status gtrt_record(const gtrt_site *site, gtrt_status st, const char *fmt, ...) {
  const char *file = site && site->file ? site->file : "<unknown>";
  int line = site ? site->line : 0;
  int k = snprintf(gtrt_msg, sizeof gtrt_msg, "%s:%d: error: ", file, line);
  if (k < 0 || (size_t)k >= sizeof gtrt_msg)
    k = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(gtrt_msg + k, sizeof gtrt_msg - (size_t)k, fmt, ap);
  va_end(ap);
  gtrt_msg_status = st;
  return st;
}

gtrt_status gtrt_last_status(void) { return gtrt_msg_status; }

void gtrt_clear_error(void) {
  gtrt_msg[0] = '\0';
  gtrt_msg_status = GTRT_OK;
}

const char *gtrt_last_error(void) { return gtrt_msg; }

void gtrt_fatal(void) {
  if (gtrt_msg[0])
    fprintf(stderr, "%s\n", gtrt_msg);
  else
    fprintf(stderr, "gtrt: fatal error (no message recorded)\n");
  exit(1);
}

/* ---- trip counts -------------------------------------------------------- */

/* The distance is computed in 128 bits: ub - lb overflows long long for
 * bounds of opposite sign. Counts above LLONG_MAX saturate. */
static long long gtrt_clamp_count(__int128 n) {
  if (n <= 0)
    return 0;
  return n > (__int128)LLONG_MAX ? LLONG_MAX : (long long)n;
}

long long gtrt_trip_count(long long lb, long long ub, long long step, const char *relop) {
  if (!relop || step == 0)
    return 0;
  __int128 l = lb, u = ub, s = step;
  if (!strcmp(relop, "<")) {
    if (s < 0 || l >= u)
      return 0;
    return gtrt_clamp_count((u - l + s - 1) / s);
  }
  if (!strcmp(relop, "<=")) {
    if (s < 0 || l > u)
      return 0;
    return gtrt_clamp_count((u - l) / s + 1);
  }
  if (!strcmp(relop, ">")) {
    if (s > 0 || l <= u)
      return 0;
    return gtrt_clamp_count((l - u - s - 1) / -s);
  }
  if (!strcmp(relop, ">=")) {
    if (s > 0 || l < u)
      return 0;
    return gtrt_clamp_count((l - u) / -s + 1);
  }
  if (!strcmp(relop, "!=")) {
    /* OpenMP 5 allows != with a constant step; it must reach ub exactly. */
    __int128 d = u - l;
    if (d == 0 || (d > 0) != (s > 0) || d % s != 0)
      return 0;
    return gtrt_clamp_count(d / s);
  }
  return 0;
}

/* ---- environment -------------------------------------------------------- */

int gtrt_env_off(const char *var) {
  const char *v = getenv(var);
  return v && !strcmp(v, "0");
}

/* ---- grid sizing -------------------------------------------------------- */

unsigned gtrt_grid_calc(long long trip, unsigned block, unsigned sms, unsigned threads_per_sm) {
  if (block == 0)
    block = 1;
  if (sms == 0)
    sms = 1;
  if (trip <= 0)
    return 1;
  unsigned long long need = ((unsigned long long)trip + block - 1) / block;
  unsigned long long per_sm = threads_per_sm / block ? threads_per_sm / block : 1;
  /* More blocks than can be resident only adds scheduling waves; the
   * grid-stride loop covers the rest. */
  unsigned long long cap = (unsigned long long)sms * per_sm;
  unsigned long long g = need < cap ? need : cap;
  if (g > 0x7fffffffULL) /* gridDim.x limit */
    g = 0x7fffffffULL;
  return g ? (unsigned)g : 1;
}

/* ---- profiling ------------------------------------------------------------ */

typedef struct gtrt_prof_row {
  const gtrt_site *site;
  unsigned long long calls;
  double ms;
} gtrt_prof_row;

static gtrt_prof_row *gtrt_prof;
static size_t gtrt_prof_n, gtrt_prof_cap;
static int gtrt_prof_on = -1; /* -1: environment not read yet */
static int gtrt_prof_registered;

int gtrt_profile_enabled(void) {
  if (gtrt_prof_on < 0) {
    const char *v = getenv("GTRT_PROFILE");
    gtrt_prof_on = v && *v && strcmp(v, "0") != 0;
  }
  return gtrt_prof_on;
}

double gtrt_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int gtrt_prof_cmp(const void *a, const void *b) {
  double x = ((const gtrt_prof_row *)a)->ms, y = ((const gtrt_prof_row *)b)->ms;
  return (x < y) - (x > y); /* descending total time */
}

static void gtrt_prof_print(void) {
  if (!gtrt_prof_n)
    return;
  qsort(gtrt_prof, gtrt_prof_n, sizeof *gtrt_prof, gtrt_prof_cmp);
  fprintf(stderr, "gtrt profile (GTRT_PROFILE=1):\n%10s %12s %12s  %s\n", "calls", "total ms", "avg ms",
          "region");
  for (size_t i = 0; i < gtrt_prof_n; i++) {
    const gtrt_prof_row *r = &gtrt_prof[i];
    const gtrt_site *s = r->site;
    fprintf(stderr, "%10llu %12.3f %12.4f  %s:%d %s\n", r->calls, r->ms, r->ms / (double)r->calls,
            s && s->file ? s->file : "<unknown>", s ? s->line : 0, gtrt_site_what(s));
  }
  free(gtrt_prof);
  gtrt_prof = NULL;
  gtrt_prof_n = gtrt_prof_cap = 0;
}

void gtrt_profile_region(const gtrt_site *site, double ms) {
  if (!gtrt_profile_enabled())
    return;
  /* Sites are static per region, so the pointer identifies the region; a
   * program has few regions, so a linear scan is fine. */
  for (size_t i = 0; i < gtrt_prof_n; i++) {
    if (gtrt_prof[i].site == site) {
      gtrt_prof[i].calls++;
      gtrt_prof[i].ms += ms;
      return;
    }
  }
  if (gtrt_prof_n == gtrt_prof_cap) {
    size_t cap = gtrt_prof_cap ? 2 * gtrt_prof_cap : 16;
    gtrt_prof_row *p = realloc(gtrt_prof, cap * sizeof *p);
    if (!p)
      return; /* profiling is best effort */
    if (!gtrt_prof_registered)
      gtrt_prof_registered = atexit(gtrt_prof_print) == 0;
    gtrt_prof = p;
    gtrt_prof_cap = cap;
  }
  gtrt_prof[gtrt_prof_n++] = (gtrt_prof_row){site, 1, ms};
}
