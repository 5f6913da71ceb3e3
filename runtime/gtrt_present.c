/* The present table: which host sections have a device copy, and how many
 * data regions hold each (OpenMP/OpenACC reference counts). Non-empty
 * sections live in an array sorted by host address (disjoint by
 * construction, so lookup is a binary search); zero-length sections get a
 * 1-byte device allocation so they have a unique non-NULL device address. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gtrt_core.h"

void gtrt_pt_init(gtrt_ptable *t, const gtrt_mem_ops *ops) {
  memset(t, 0, sizeof *t);
  t->ops = *ops;
}

void gtrt_pt_destroy(gtrt_ptable *t) {
  for (size_t i = 0; i < t->n; i++) {
    t->ops.release(t->ops.ctx, NULL, t->v[i].name, t->v[i].dev);
    free(t->v[i].name);
  }
  for (size_t i = 0; i < t->nz; i++) {
    t->ops.release(t->ops.ctx, NULL, t->z[i].name, t->z[i].dev);
    free(t->z[i].name);
  }
  free(t->v);
  free(t->z);
  gtrt_mem_ops ops = t->ops; /* keep the table reusable */
  memset(t, 0, sizeof *t);
  t->ops = ops;
}

size_t gtrt_pt_size(const gtrt_ptable *t) { return t->n + t->nz; }

/* ---- lookup --------------------------------------------------------------- */

static uintptr_t gtrt_end(const gtrt_pt_entry *e) { return (uintptr_t)e->host + e->bytes; }

/* Number of non-empty sections starting at or before p. */
static size_t gtrt_upper(const gtrt_ptable *t, uintptr_t p) {
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if ((uintptr_t)t->v[mid].host <= p)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static gtrt_pt_entry *gtrt_containing(const gtrt_ptable *t, uintptr_t p) {
  size_t i = gtrt_upper(t, p);
  if (i && p < gtrt_end(&t->v[i - 1]))
    return &t->v[i - 1];
  return NULL;
}

static gtrt_pt_entry *gtrt_zero_at(const gtrt_ptable *t, uintptr_t p) {
  for (size_t i = 0; i < t->nz; i++)
    if ((uintptr_t)t->z[i].host == p)
      return &t->z[i];
  return NULL;
}

typedef enum { GTRT_FOUND_NONE, GTRT_FOUND_INSIDE, GTRT_FOUND_OVERLAP } gtrt_found;

/* Classifies [p, p+n): inside an existing section (*e is it), partially
 * overlapping one (*e is the one it overlaps), or absent. A zero-length
 * section is inside a section that contains its address, else it is its
 * own zero-length entry. */
static gtrt_found gtrt_find(const gtrt_ptable *t, uintptr_t p, size_t n, gtrt_pt_entry **e) {
  gtrt_pt_entry *c = gtrt_containing(t, p);
  *e = c;
  if (n == 0) {
    if (!c)
      *e = gtrt_zero_at(t, p);
    return *e ? GTRT_FOUND_INSIDE : GTRT_FOUND_NONE;
  }
  if (c)
    return p + n <= gtrt_end(c) ? GTRT_FOUND_INSIDE : GTRT_FOUND_OVERLAP;
  size_t i = gtrt_upper(t, p);
  if (i < t->n && (uintptr_t)t->v[i].host < p + n) {
    *e = &t->v[i];
    return GTRT_FOUND_OVERLAP;
  }
  return GTRT_FOUND_NONE;
}

/* ---- messages ------------------------------------------------------------- */

static gtrt_status gtrt_overlap_error(const gtrt_site *site, const char *name, uintptr_t p, size_t n,
                                      const gtrt_pt_entry *e) {
  return gtrt_record(site, GTRT_ERR_ARG,
                     "'%s' [%p, %p) (%zu bytes) partially overlaps '%s' [%p, %p) (%zu bytes), which is "
                     "already on the device in '%s' region; map the whole array, or a section inside the "
                     "one already mapped",
                     name, (void *)p, (void *)(p + n), n, e->name, (void *)e->host, (void *)gtrt_end(e),
                     e->bytes, gtrt_site_what(site));
}

/* p is the address looked for (0: unknown). When a section of the same
 * variable lies after p (present(o) with only o[n:m] mapped), the message
 * names it: the region needs that section named, not another data clause. */
static gtrt_status gtrt_not_present(const gtrt_ptable *t, const gtrt_site *site, const char *name, uintptr_t p) {
  size_t i = t && p ? gtrt_upper(t, p) : 0;
  const gtrt_pt_entry *next = t && p && i < t->n ? &t->v[i] : NULL;
  size_t len = strcspn(name, "[");
  if (next && next->name && strncmp(next->name, name, len) == 0 && strcspn(next->name, "[") == len)
    return gtrt_record(site, GTRT_ERR_NOT_PRESENT,
                       "'%s' is not present on the device at %p: the section '%s' [%p, %p) that is mapped starts "
                       "%zu bytes after it%s%.*s%s in '%s' region",
                       name, (void *)p, next->name, next->host, (void *)gtrt_end(next),
                       (size_t)((uintptr_t)next->host - p), name[len] ? "" : "; name the part the region uses (present(",
                       name[len] ? 0 : (int)len, name, name[len] ? "" : "[lo:len]))", gtrt_site_what(site));
  return gtrt_record(site, GTRT_ERR_NOT_PRESENT,
                     "'%s' is not present on the device (add it to a data clause) in '%s' region", name,
                     gtrt_site_what(site));
}

/* ---- table edits ----------------------------------------------------------- */

static int gtrt_reserve(gtrt_pt_entry **v, size_t n, size_t *cap) {
  if (n < *cap)
    return 1;
  size_t c = *cap ? 2 * *cap : 16;
  gtrt_pt_entry *nv = realloc(*v, c * sizeof *nv);
  if (!nv)
    return 0;
  *v = nv;
  *cap = c;
  return 1;
}

static void gtrt_remove(gtrt_ptable *t, gtrt_pt_entry *e) {
  free(e->name);
  if (e->host_newer)
    t->nnewer--;
  uintptr_t a = (uintptr_t)e, v0 = (uintptr_t)t->v;
  if (t->n && a >= v0 && a < v0 + t->n * sizeof *e) {
    size_t i = (size_t)(e - t->v);
    memmove(&t->v[i], &t->v[i + 1], (t->n - i - 1) * sizeof *e);
    t->n--;
  } else {
    size_t i = (size_t)(e - t->z);
    t->z[i] = t->z[--t->nz]; /* unordered list */
  }
}

/* ---- API ----------------------------------------------------------------- */

gtrt_status gtrt_pt_enter(gtrt_ptable *t, const gtrt_site *site, const char *name, void *host, size_t bytes,
                          gtrt_map_kind kind) {
  uintptr_t p = (uintptr_t)host;
  const int readonly = kind == GTRT_MAP_TO_CONST;
  if (readonly)
    kind = GTRT_MAP_TO;
  if (!name)
    name = "?";
  if (!host) /* NULL with length 0 is a legal empty section */
    return bytes ? gtrt_record(site, GTRT_ERR_ARG, "'%s' is a NULL pointer mapped with %zu bytes in '%s' region",
                               name, bytes, gtrt_site_what(site))
                 : GTRT_OK;
  if (p + bytes < p)
    return gtrt_record(site, GTRT_ERR_ARG, "'%s': section of %zu bytes at %p wraps around the address space", name,
                       bytes, host);
  gtrt_pt_entry *e;
  switch (gtrt_find(t, p, bytes, &e)) {
  case GTRT_FOUND_INSIDE:
    e->refs++; /* already there: no allocation, no copy, even for TO */
    return GTRT_OK;
  case GTRT_FOUND_OVERLAP:
    return gtrt_overlap_error(site, name, p, bytes, e);
  case GTRT_FOUND_NONE:
    break;
  }
  /* present(p) of a bare pointer has no extent to check: nothing is created
   * (a dummy would hand the region a device address that maps nothing), and
   * where the region uses p, gtrt_pt_dev_base finds the section holding p[0]
   * or reports that it is not present. */
  if (kind == GTRT_MAP_PRESENT)
    return bytes ? gtrt_not_present(t, site, name, p) : GTRT_OK;

  gtrt_pt_entry ne = {.host = host, .bytes = bytes, .refs = 1, .synced = t->epoch, .readonly = readonly};
  ne.name = strdup(name);
  if (!ne.name || !gtrt_reserve(bytes ? &t->v : &t->z, bytes ? t->n : t->nz, bytes ? &t->cap : &t->capz)) {
    free(ne.name);
    return gtrt_record(site, GTRT_ERR_NOMEM, "out of host memory mapping '%s' in '%s' region", name,
                       gtrt_site_what(site));
  }
  void *dev = NULL;
  gtrt_status st = t->ops.alloc(t->ops.ctx, site, name, bytes ? bytes : 1, &dev);
  if (st != GTRT_OK) {
    free(ne.name);
    return st;
  }
  if (bytes && (kind == GTRT_MAP_TO || kind == GTRT_MAP_TOFROM)) {
    st = t->ops.to_dev(t->ops.ctx, site, name, dev, host, bytes);
    if (st != GTRT_OK) {
      t->ops.release(t->ops.ctx, site, name, dev);
      free(ne.name);
      return st;
    }
  }
  ne.dev = dev;
  if (bytes) {
    size_t i = gtrt_upper(t, p);
    memmove(&t->v[i + 1], &t->v[i], (t->n - i) * sizeof ne);
    t->v[i] = ne;
    t->n++;
  } else {
    t->z[t->nz++] = ne;
  }
  return GTRT_OK;
}

gtrt_status gtrt_pt_exit(gtrt_ptable *t, const gtrt_site *site, const char *name, void *host, size_t bytes,
                         gtrt_map_kind kind, int force_delete) {
  uintptr_t p = (uintptr_t)host;
  if (!name)
    name = "?";
  if (!host)
    return bytes ? gtrt_record(site, GTRT_ERR_ARG, "'%s' is a NULL pointer unmapped with %zu bytes in '%s' region",
                               name, bytes, gtrt_site_what(site))
                 : GTRT_OK;
  if (p + bytes < p)
    return gtrt_record(site, GTRT_ERR_ARG, "'%s': section of %zu bytes at %p wraps around the address space", name,
                       bytes, host);
  gtrt_pt_entry *e;
  switch (gtrt_find(t, p, bytes, &e)) {
  case GTRT_FOUND_NONE:
    return GTRT_OK; /* exit of data that is not present does nothing (OpenMP 5, OpenACC 3) */
  case GTRT_FOUND_OVERLAP:
    return gtrt_overlap_error(site, name, p, bytes, e);
  case GTRT_FOUND_INSIDE:
    break;
  }
  if (force_delete || e->refs <= 1)
    e->refs = 0;
  else
    e->refs--;
  if (e->refs > 0)
    return GTRT_OK;
  /* Count reached 0: copy back the list item itself (it may be a
   * subsection of the entry), then free the whole entry. */
  gtrt_status st = GTRT_OK;
  /* not when the host's copy is the newer, nor for a const object */
  if (bytes && (kind == GTRT_MAP_FROM || kind == GTRT_MAP_TOFROM) && !e->host_newer && !e->readonly)
    st = t->ops.to_host(t->ops.ctx, site, name, host, e->dev + (p - (uintptr_t)e->host), bytes);
  gtrt_status rs = t->ops.release(t->ops.ctx, site, name, e->dev);
  gtrt_remove(t, e);
  return st != GTRT_OK ? st : rs;
}

gtrt_status gtrt_pt_update(gtrt_ptable *t, const gtrt_site *site, const char *name, void *host, size_t bytes,
                           int to_device) {
  uintptr_t p = (uintptr_t)host;
  if (!name)
    name = "?";
  if (bytes == 0) /* nothing to move, present or not */
    return GTRT_OK;
  if (!host)
    return gtrt_record(site, GTRT_ERR_ARG, "'%s' is a NULL pointer updated with %zu bytes in '%s' region", name,
                       bytes, gtrt_site_what(site));
  if (p + bytes < p)
    return gtrt_record(site, GTRT_ERR_ARG, "'%s': section of %zu bytes at %p wraps around the address space", name,
                       bytes, host);
  gtrt_pt_entry *e;
  switch (gtrt_find(t, p, bytes, &e)) {
  case GTRT_FOUND_NONE:
    return gtrt_not_present(t, site, name, p);
  case GTRT_FOUND_OVERLAP:
    return gtrt_record(site, GTRT_ERR_NOT_PRESENT,
                       "'%s' [%p, %p) is only partly present on the device ('%s' [%p, %p) is mapped) in '%s' "
                       "region",
                       name, host, (void *)(p + bytes), e->name, (void *)e->host, (void *)gtrt_end(e),
                       gtrt_site_what(site));
  case GTRT_FOUND_INSIDE:
    break;
  }
  char *dev = e->dev + (p - (uintptr_t)e->host);
  if (!to_device && e->readonly) /* the device copy of a const object equals the host's */
    return GTRT_OK;
  return to_device ? t->ops.to_dev(t->ops.ctx, site, name, dev, host, bytes)
                   : t->ops.to_host(t->ops.ctx, site, name, host, dev, bytes);
}

/* Entry that gives `p` a device address: a section containing it, a
 * zero-length section at it, or a section ending at it (one past the end
 * is a valid C pointer). */
static gtrt_pt_entry *gtrt_addr_entry(const gtrt_ptable *t, uintptr_t p) {
  gtrt_pt_entry *e = gtrt_containing(t, p);
  if (!e)
    e = gtrt_zero_at(t, p);
  if (!e) {
    size_t i = gtrt_upper(t, p);
    if (i && gtrt_end(&t->v[i - 1]) == p)
      e = &t->v[i - 1];
  }
  return e;
}

void *gtrt_pt_find_dev(const gtrt_ptable *t, const void *host) {
  gtrt_pt_entry *e = host ? gtrt_addr_entry(t, (uintptr_t)host) : NULL;
  return e ? e->dev + ((uintptr_t)host - (uintptr_t)e->host) : NULL;
}

void *gtrt_pt_dev_ptr(gtrt_ptable *t, const gtrt_site *site, const char *name, const void *host) {
  void *dev = gtrt_pt_find_dev(t, host);
  if (!dev && host)
    gtrt_not_present(t, site, name ? name : "?", (uintptr_t)host);
  return dev;
}

void *gtrt_pt_dev_base(gtrt_ptable *t, const gtrt_site *site, const char *name, const void *base,
                       const void *inside) {
  if (!inside)
    return NULL;
  gtrt_pt_entry *e = gtrt_addr_entry(t, (uintptr_t)inside);
  if (!e) {
    gtrt_not_present(t, site, name ? name : "?", (uintptr_t)inside);
    return NULL;
  }
  /* Integer arithmetic: base may lie outside the section (a[lo:len] with
   * lo > 0), where pointer arithmetic would be undefined. */
  return (void *)((uintptr_t)e->dev + ((uintptr_t)base - (uintptr_t)e->host));
}

long gtrt_pt_refcount(const gtrt_ptable *t, const void *host, size_t bytes) {
  gtrt_pt_entry *e;
  if (!host)
    return 0;
  return gtrt_find(t, (uintptr_t)host, bytes, &e) == GTRT_FOUND_INSIDE ? e->refs : 0;
}

/* ---- host code of split task regions ---------------------------------------- */

static gtrt_status gtrt_sync_entry(gtrt_ptable *t, const gtrt_site *site, const char *name, gtrt_pt_entry *e,
                                   int write) {
  if (e->readonly) /* a const object: the device copy equals the host's, which may be read-only memory */
    return GTRT_OK;
  if (e->synced != t->epoch) {
    gtrt_status st = t->ops.to_host(t->ops.ctx, site, name ? name : "?", e->host, e->dev, e->bytes);
    if (st != GTRT_OK)
      return st;
    e->synced = t->epoch;
  }
  if (write && !e->host_newer) {
    e->host_newer = 1;
    t->nnewer++;
  }
  return GTRT_OK;
}

gtrt_status gtrt_pt_sync_from(gtrt_ptable *t, const gtrt_site *site, const char *name, const void *host, int write) {
  gtrt_pt_entry *e = host ? gtrt_addr_entry(t, (uintptr_t)host) : NULL;
  if (!e || !e->bytes)
    return GTRT_OK;
  return gtrt_sync_entry(t, site, name, e, write);
}

gtrt_status gtrt_pt_sync_all_from(gtrt_ptable *t, const gtrt_site *site, int write) {
  for (size_t i = 0; i < t->n; i++) {
    gtrt_status st = gtrt_sync_entry(t, site, t->v[i].name, &t->v[i], write);
    if (st != GTRT_OK)
      return st;
  }
  return GTRT_OK;
}

gtrt_status gtrt_pt_push(gtrt_ptable *t, const gtrt_site *site) {
  for (size_t i = 0; i < t->n && t->nnewer; i++) {
    gtrt_pt_entry *e = &t->v[i];
    if (!e->host_newer)
      continue;
    gtrt_status st = t->ops.to_dev(t->ops.ctx, site, e->name, e->dev, e->host, e->bytes);
    if (st != GTRT_OK)
      return st;
    e->host_newer = 0;
    t->nnewer--;
  }
  return GTRT_OK;
}

void gtrt_pt_advance(gtrt_ptable *t) { t->epoch++; }
