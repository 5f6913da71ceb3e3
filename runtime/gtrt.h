/* libgtrt host API (plain C). Generated host code (.gt.c) calls these; the
 * generated .gt.cu launch stubs call them too. Every call that can fail
 * returns a gtrt_status and records a message that names the user's region
 * (gtrt_site); gtrt_fatal() prints it and exits.
 *
 * With no CUDA device at all, gtrt_use_device() is 0 (one warning is printed)
 * and mapping calls do nothing: regions run their host copy. A device that is
 * present but fails is an error, never a silent fallback. */
#ifndef GTRT_H
#define GTRT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gtrt_status {
  GTRT_OK = 0,
  GTRT_ERR_CUDA,        /* a CUDA call failed */
  GTRT_ERR_NOMEM,       /* device allocation failed */
  GTRT_ERR_NOT_PRESENT, /* data used on the device was never mapped */
  GTRT_ERR_ARG,         /* bad argument (negative length, overlapping map) */
  GTRT_ERR_OVERFLOW,    /* a fixed-capacity buffer or queue is full */
  GTRT_ERR_TIMEOUT,     /* watchdog: a kernel stopped making progress */
} gtrt_status;

/* Where a region is in the user's source; generated code keeps one static
 * gtrt_site per region and passes its address to every call. */
typedef struct gtrt_site {
  const char *file;
  int line;
  const char *what; /* "acc parallel loop", "omp target data", ... */
} gtrt_site;

typedef enum gtrt_map_kind {
  GTRT_MAP_ALLOC,   /* create / map(alloc:) */
  GTRT_MAP_TO,      /* copyin / map(to:) */
  GTRT_MAP_FROM,    /* copyout / map(from:) */
  GTRT_MAP_TOFROM,  /* copy / map(tofrom:) */
  GTRT_MAP_PRESENT, /* present: must already be mapped */
} gtrt_map_kind;

/* Initialises on first use; returns 1 when regions run on the GPU, 0 for
 * host fallback. Environment: GTRT_REQUIRE_DEVICE=1 makes "no device" exit
 * with status 77 (for tests that must run on a GPU). */
int gtrt_use_device(void);

/* Structured/unstructured mapping with reference counts (OpenMP/OpenACC
 * present semantics): enter allocates and copies (per kind) only when the
 * section [host, host+bytes) is not yet present; exit copies back (FROM,
 * TOFROM) and frees when the count drops to 0, or at once if force_delete. */
gtrt_status gtrt_map_enter(const gtrt_site *site, const char *name, void *host, size_t bytes, gtrt_map_kind kind);
gtrt_status gtrt_map_exit(const gtrt_site *site, const char *name, void *host, size_t bytes, gtrt_map_kind kind, int force_delete);
/* `update device(...)` / `update self(...)`; no-op for sections not present
 * (OpenACC if_present semantics are not assumed: not present is an error). */
gtrt_status gtrt_update_to(const gtrt_site *site, const char *name, void *host, size_t bytes);
gtrt_status gtrt_update_from(const gtrt_site *site, const char *name, void *host, size_t bytes);
/* Device address of a host address inside a mapped section. With no device,
 * returns host itself. On failure returns NULL and records
 * GTRT_ERR_NOT_PRESENT naming `name`. host == NULL maps to NULL. */
void *gtrt_dev_ptr(const gtrt_site *site, const char *name, const void *host);
/* Device address that corresponds to host address `base`, found through
 * `inside`, an address inside a mapped section. For a[lo:len] with lo > 0,
 * gtrt_dev_base(site, "a", a, &a[lo]) gives the device `a` that kernel
 * bodies index as a[i]. With no device returns base; failure as above. */
void *gtrt_dev_base(const gtrt_site *site, const char *name, const void *base, const void *inside);
/* 1 if [host, host+bytes) lies inside a mapped section (acc_is_present,
 * omp_target_is_present); with no device, 1. */
int gtrt_is_present(const void *host, size_t bytes);

/* Device scratch memory owned by the runtime (grow-only, reused): for
 * reduction partials and similar per-launch temporaries. */
void *gtrt_scratch(const gtrt_site *site, size_t bytes);

/* CollectiveDP (nested parallel loops): how many contexts the buffer of one
 * region holds (GTRT_CDP_CAPACITY, default 1048576). Contexts that do not
 * fit run inside the parent kernel instead: never dropped. */
long long gtrt_cdp_capacity(void);
/* Raises the device runtime's pending-launch limit to at least n, once;
 * needed when parent blocks or warps launch next-level kernels themselves. */
gtrt_status gtrt_cdp_pending_launches(const gtrt_site *site, size_t n);

/* Grid for a grid-stride loop of `trip` iterations with `block` threads per
 * block: enough blocks to fill the GPU, never more than needed. */
unsigned gtrt_grid_for(long long trip, unsigned block);

/* Trip count of `for (iv = lb; iv relop ub; iv += step)`; relop is one of
 * "<", "<=", ">", ">=". Returns 0 for an empty or ill-formed loop. */
long long gtrt_trip_count(long long lb, long long ub, long long step, const char *relop);

/* Checks a CUDA status from generated code: on failure records and returns
 * GTRT_ERR_CUDA naming site and the failing call. code is a cudaError_t. */
gtrt_status gtrt_check_cuda(const gtrt_site *site, int code, const char *call, const char *file, int line);

/* The message of the last failure. */
const char *gtrt_last_error(void);
/* Prints the last failure (`file:line: error: ...` of the user's region) and exits 1. */
void gtrt_fatal(void) __attribute__((noreturn));

/* GTRT_PROFILE=1: per-region counts and times printed at exit. */
void gtrt_profile_region(const gtrt_site *site, double ms);
/* 1 when GTRT_PROFILE is set (and not "0"): stubs time regions only then. */
int gtrt_profile_enabled(void);
/* Monotonic wall clock in milliseconds, for region timing. */
double gtrt_now_ms(void);

#ifdef __cplusplus
}
#endif

#endif
