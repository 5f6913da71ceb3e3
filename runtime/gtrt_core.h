/* libgtrt internals that need no GPU: error recording, the present table,
 * trip counts, grid sizing and the profile table. The present table takes
 * its memory operations as function pointers so unit tests can drive it with
 * a fake device. Not included by generated code (that uses gtrt.h). */
#ifndef GTRT_CORE_H
#define GTRT_CORE_H

#include <stddef.h>

#include "gtrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- error recording ---------------------------------------------------- */

/* Records "FILE:LINE: error: <fmt...>" (FILE:LINE from site) as the last
 * error and returns st, so callers can `return gtrt_record(...)`. */
gtrt_status gtrt_record(const gtrt_site *site, gtrt_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Status of the last recorded failure (GTRT_OK if none). */
gtrt_status gtrt_last_status(void);
void gtrt_clear_error(void);
/* site->what, or a neutral word when site is NULL. */
const char *gtrt_site_what(const gtrt_site *site);

/* ---- present table -------------------------------------------------------- */

/* Device memory operations. Each returns GTRT_OK or a failure status after
 * recording a message (through gtrt_record) that names site and name. */
typedef struct gtrt_mem_ops {
  void *ctx;
  gtrt_status (*alloc)(void *ctx, const gtrt_site *site, const char *name, size_t bytes, void **dev);
  gtrt_status (*release)(void *ctx, const gtrt_site *site, const char *name, void *dev);
  gtrt_status (*to_dev)(void *ctx, const gtrt_site *site, const char *name, void *dev, const void *host,
                        size_t bytes);
  gtrt_status (*to_host)(void *ctx, const gtrt_site *site, const char *name, void *host, const void *dev,
                         size_t bytes);
} gtrt_mem_ops;

typedef struct gtrt_pt_entry {
  char *host;   /* section start on the host */
  size_t bytes; /* 0 for a zero-length section */
  char *dev;    /* device copy; a 1-byte allocation when bytes == 0 */
  long refs;    /* reference count (structured + unstructured) */
  char *name;   /* first name it was mapped under, for messages */
  unsigned long long synced; /* gtrt_pt_sync_from: the table's epoch when host and device last agreed */
  int host_newer;            /* host code of a split task region may have written the host copy */
  int readonly;              /* a const object (GTRT_MAP_TO_CONST): never copied back */
} gtrt_pt_entry;

typedef struct gtrt_ptable {
  gtrt_pt_entry *v; /* non-empty sections: sorted by host, disjoint */
  size_t n, cap;
  gtrt_pt_entry *z; /* zero-length sections (rare: a plain list) */
  size_t nz, capz;
  gtrt_mem_ops ops;
  unsigned long long epoch; /* megakernels of split task regions run so far (gtrt_pt_advance) */
  size_t nnewer;            /* entries with host_newer set */
} gtrt_ptable;

void gtrt_pt_init(gtrt_ptable *t, const gtrt_mem_ops *ops);
/* Releases every device copy (no copy-back) and the table itself. */
void gtrt_pt_destroy(gtrt_ptable *t);

gtrt_status gtrt_pt_enter(gtrt_ptable *t, const gtrt_site *site, const char *name, void *host, size_t bytes,
                          gtrt_map_kind kind);
gtrt_status gtrt_pt_exit(gtrt_ptable *t, const gtrt_site *site, const char *name, void *host, size_t bytes,
                         gtrt_map_kind kind, int force_delete);
/* to_device != 0: host -> device, else device -> host. */
gtrt_status gtrt_pt_update(gtrt_ptable *t, const gtrt_site *site, const char *name, void *host, size_t bytes,
                           int to_device);
void *gtrt_pt_dev_ptr(gtrt_ptable *t, const gtrt_site *site, const char *name, const void *host);
/* The same without an error: NULL where host is in no section. */
void *gtrt_pt_find_dev(const gtrt_ptable *t, const void *host);
void *gtrt_pt_dev_base(gtrt_ptable *t, const gtrt_site *site, const char *name, const void *base,
                       const void *inside);
/* Reference count of the section holding [host, host+bytes), 0 if absent. */
long gtrt_pt_refcount(const gtrt_ptable *t, const void *host, size_t bytes);
/* Number of live sections (non-empty + zero-length). */
size_t gtrt_pt_size(const gtrt_ptable *t);

/* Host code of a split task region (gtrt_sync_from in gtrt.h): brings the
 * whole section containing host back unless no megakernel ran since host
 * and device last agreed on it; write: the host copy may change, so
 * gtrt_pt_push sends it back. An address in no section: nothing to do. */
gtrt_status gtrt_pt_sync_from(gtrt_ptable *t, const gtrt_site *site, const char *name, const void *host, int write);
/* gtrt_pt_sync_from for every non-empty section. */
gtrt_status gtrt_pt_sync_all_from(gtrt_ptable *t, const gtrt_site *site, int write);
/* Sends every section host code may have written back to the device. */
gtrt_status gtrt_pt_push(gtrt_ptable *t, const gtrt_site *site);
/* A megakernel is about to run: the device copies may change. */
void gtrt_pt_advance(gtrt_ptable *t);
/* The process's table (gtrt_host.c), for gtrt_plan_finish: pushes what
 * host code wrote, then (ran: tasks will run) advances the epoch. */
gtrt_status gtrt_sync_before_megakernel(const gtrt_site *site, int ran);

/* ---- environment ------------------------------------------------------ */

/* 1 when the environment variable var is "0": a switch that turns a
 * default behaviour off (numeric readers treat 0 as unset). */
int gtrt_env_off(const char *var);

/* ---- sizing ----------------------------------------------------------- */

/* min(ceil(trip/block), sms * max(1, threads_per_sm/block)), at least 1 and
 * within the grid x limit. */
unsigned gtrt_grid_calc(long long trip, unsigned block, unsigned sms, unsigned threads_per_sm);

#ifdef __cplusplus
}
#endif

#endif
