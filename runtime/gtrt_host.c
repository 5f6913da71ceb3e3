/* libgtrt host API over the CUDA runtime: device selection with host
 * fallback, the process-wide present table backed by cudaMalloc/cudaMemcpy,
 * scratch memory, grid sizing and CUDA error checks. Plain C: the CUDA
 * runtime API header is C-compatible. Not thread-safe (generated host code
 * calls it from one thread); the last-error record is per thread. */
#define _POSIX_C_SOURCE 200809L
#include <cuda_runtime_api.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtrt_core.h"

/* ---- device selection ------------------------------------------------------ */

static int gtrt_state;          /* 0: not initialised, 1: device, -1: host fallback */
static unsigned gtrt_sms = 1;   /* multiprocessors of the selected device */
static unsigned gtrt_tpsm = 2048; /* resident threads per multiprocessor */

/* Initialisation failures are not tied to a region, so they are printed
 * and exit at once: continuing on a broken device would give wrong answers. */
__attribute__((noreturn)) static void gtrt_init_fail(const char *call, cudaError_t e) {
  fprintf(stderr, "gtrt: error: CUDA initialisation failed in %s: %s: %s\n", call, cudaGetErrorName(e),
          cudaGetErrorString(e));
  exit(1);
}

static int gtrt_env_flag(const char *var) {
  const char *v = getenv(var);
  return v && *v && strcmp(v, "0") != 0;
}

static void gtrt_init(void) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || (e == cudaSuccess && count <= 0)) {
    if (gtrt_env_flag("GTRT_REQUIRE_DEVICE")) {
      fprintf(stderr, "gtrt: no CUDA device; skipping (GTRT_REQUIRE_DEVICE=1)\n");
      exit(77);
    }
    fprintf(stderr, "gtrt: warning: no CUDA device found; running offload regions on the host\n");
    gtrt_state = -1;
    return;
  }
  if (e != cudaSuccess)
    gtrt_init_fail("cudaGetDeviceCount", e);

  int dev = 0;
  const char *sel = getenv("GTRT_DEVICE");
  if (sel && *sel) {
    char *end;
    errno = 0;
    long d = strtol(sel, &end, 10);
    if (errno || *end || d < 0 || d >= count) {
      fprintf(stderr, "gtrt: error: GTRT_DEVICE='%s' is not a device number (this machine has devices 0..%d)\n",
              sel, count - 1);
      exit(1);
    }
    dev = (int)d;
  }
  if ((e = cudaSetDevice(dev)) != cudaSuccess)
    gtrt_init_fail("cudaSetDevice", e);
  /* Create the context now, so a broken device fails here and not inside
   * the first region's timing. */
  if ((e = cudaFree(NULL)) != cudaSuccess)
    gtrt_init_fail("cudaFree(NULL) (context creation)", e);
  int v = 0;
  if ((e = cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess)
    gtrt_init_fail("cudaDeviceGetAttribute(MultiProcessorCount)", e);
  gtrt_sms = v > 0 ? (unsigned)v : 1;
  if ((e = cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerMultiProcessor, dev)) != cudaSuccess)
    gtrt_init_fail("cudaDeviceGetAttribute(MaxThreadsPerMultiProcessor)", e);
  gtrt_tpsm = v > 0 ? (unsigned)v : 2048;
  gtrt_state = 1;
}

int gtrt_use_device(void) {
  if (!gtrt_state)
    gtrt_init();
  return gtrt_state > 0;
}

/* ---- CUDA checks ------------------------------------------------------------ */

/* Regions whose stubs raised the device stack for a recursive function
 * (gtrt_device_stack): a fault there may be a stack overflow. */
#define GTRT_MAX_RECURSIVE_SITES 64
static struct {
  const gtrt_site *site;
  const char *fn;
} gtrt_recursive_sites[GTRT_MAX_RECURSIVE_SITES];
static int gtrt_nrecursive_sites;
static size_t gtrt_stack_bytes;

static const char *gtrt_recursive_fn(const gtrt_site *site) {
  for (int i = 0; i < gtrt_nrecursive_sites; i++)
    if (gtrt_recursive_sites[i].site == site) return gtrt_recursive_sites[i].fn;
  return NULL;
}

gtrt_status gtrt_check_cuda(const gtrt_site *site, int code, const char *call, const char *file, int line) {
  if (code == (int)cudaSuccess)
    return GTRT_OK;
  cudaError_t e = (cudaError_t)code;
  char hint[512] = "";
  const char *fn = gtrt_recursive_fn(site);
  if (fn && (e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure))
    snprintf(hint, sizeof hint,
             "; the region calls the recursive function '%s': a recursion deeper than the device stack allows (%zu "
             "bytes per thread) ends this way; raise it with gtcc --device-stack=BYTES",
             fn, gtrt_stack_bytes);
  return gtrt_record(site, GTRT_ERR_CUDA, "CUDA error in '%s' region: %s: %s (in %s, %s:%d)%s", gtrt_site_what(site),
                     cudaGetErrorName(e), cudaGetErrorString(e), call ? call : "?", file ? file : "?", line, hint);
}

#define GTRT_CHECK(site, call) gtrt_check_cuda((site), (int)(call), #call, __FILE__, __LINE__)

/* ---- present table over CUDA --------------------------------------------------- */

static gtrt_status gtrt_cu_alloc(void *ctx, const gtrt_site *site, const char *name, size_t bytes, void **dev) {
  (void)ctx;
  cudaError_t e = cudaMalloc(dev, bytes);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError(); /* OOM is not sticky; clear it so later checks are clean */
    return gtrt_record(site, GTRT_ERR_NOMEM,
                       "out of device memory in '%s' region: cudaMalloc of %zu bytes for '%s' failed: %s",
                       gtrt_site_what(site), bytes, name, cudaGetErrorString(e));
  }
  return GTRT_CHECK(site, e);
}

static gtrt_status gtrt_cu_release(void *ctx, const gtrt_site *site, const char *name, void *dev) {
  (void)ctx;
  (void)name;
  return GTRT_CHECK(site, cudaFree(dev));
}

static gtrt_status gtrt_cu_to_dev(void *ctx, const gtrt_site *site, const char *name, void *dev, const void *host,
                                  size_t bytes) {
  (void)ctx;
  (void)name;
  return GTRT_CHECK(site, cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
}

static gtrt_status gtrt_cu_to_host(void *ctx, const gtrt_site *site, const char *name, void *host, const void *dev,
                                   size_t bytes) {
  (void)ctx;
  (void)name;
  return GTRT_CHECK(site, cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
}

static gtrt_ptable gtrt_table;
static int gtrt_table_ready;

static gtrt_ptable *gtrt_present(void) {
  if (!gtrt_table_ready) {
    static const gtrt_mem_ops ops = {NULL, gtrt_cu_alloc, gtrt_cu_release, gtrt_cu_to_dev, gtrt_cu_to_host};
    gtrt_pt_init(&gtrt_table, &ops);
    gtrt_table_ready = 1;
  }
  return &gtrt_table;
}

gtrt_status gtrt_map_enter(const gtrt_site *site, const char *name, void *host, size_t bytes, gtrt_map_kind kind) {
  if (!gtrt_use_device())
    return GTRT_OK;
  return gtrt_pt_enter(gtrt_present(), site, name, host, bytes, kind);
}

gtrt_status gtrt_map_exit(const gtrt_site *site, const char *name, void *host, size_t bytes, gtrt_map_kind kind,
                          int force_delete) {
  if (!gtrt_use_device())
    return GTRT_OK;
  return gtrt_pt_exit(gtrt_present(), site, name, host, bytes, kind, force_delete);
}

gtrt_status gtrt_update_to(const gtrt_site *site, const char *name, void *host, size_t bytes) {
  if (!gtrt_use_device())
    return GTRT_OK;
  return gtrt_pt_update(gtrt_present(), site, name, host, bytes, 1);
}

gtrt_status gtrt_update_from(const gtrt_site *site, const char *name, void *host, size_t bytes) {
  if (!gtrt_use_device())
    return GTRT_OK;
  return gtrt_pt_update(gtrt_present(), site, name, host, bytes, 0);
}

void *gtrt_dev_ptr(const gtrt_site *site, const char *name, const void *host) {
  if (!gtrt_use_device())
    return (void *)(uintptr_t)host;
  return gtrt_pt_dev_ptr(gtrt_present(), site, name, host);
}

void *gtrt_use_device_addr(const gtrt_site *site, const char *name, const void *host, int on, int keep_absent) {
  if (!on || !host || !gtrt_use_device())
    return (void *)(uintptr_t)host;
  void *dev = gtrt_pt_find_dev(gtrt_present(), host);
  if (dev || keep_absent)
    return dev ? dev : (void *)(uintptr_t)host;
  gtrt_pt_dev_ptr(gtrt_present(), site, name, host); /* records the error */
  gtrt_fatal();
}

void *gtrt_dev_base(const gtrt_site *site, const char *name, const void *base, const void *inside) {
  if (!gtrt_use_device())
    return (void *)(uintptr_t)base;
  return gtrt_pt_dev_base(gtrt_present(), site, name, base, inside);
}

gtrt_status gtrt_sync_from(const gtrt_site *site, const char *name, const void *host, int write) {
  if (!gtrt_use_device())
    return GTRT_OK;
  return gtrt_pt_sync_from(gtrt_present(), site, name, host, write);
}

gtrt_status gtrt_sync_all_from(const gtrt_site *site, int write) {
  if (!gtrt_use_device())
    return GTRT_OK;
  return gtrt_pt_sync_all_from(gtrt_present(), site, write);
}

gtrt_status gtrt_sync_before_megakernel(const gtrt_site *site, int ran) {
  gtrt_status st = gtrt_pt_push(gtrt_present(), site);
  if (ran)
    gtrt_pt_advance(gtrt_present());
  return st;
}

int gtrt_is_present(const void *host, size_t bytes) {
  if (!gtrt_use_device())
    return 1;
  return gtrt_pt_refcount(gtrt_present(), host, bytes) > 0;
}

/* ---- scratch and grids -------------------------------------------------------- */

static void *gtrt_scratch_mem;
static size_t gtrt_scratch_size;

void *gtrt_scratch(const gtrt_site *site, size_t bytes) {
  if (!gtrt_use_device())
    return NULL;
  if (bytes <= gtrt_scratch_size && gtrt_scratch_mem)
    return gtrt_scratch_mem;
  /* Grow geometrically from 64 KiB so a sequence of slightly larger
   * requests does not reallocate each time. */
  size_t want = gtrt_scratch_size ? gtrt_scratch_size : (size_t)64 << 10;
  while (want < bytes && want <= SIZE_MAX / 2)
    want *= 2;
  if (want < bytes)
    want = bytes;
  if (gtrt_scratch_mem) {
    /* cudaFree waits for kernels that may still use the old buffer. */
    if (GTRT_CHECK(site, cudaFree(gtrt_scratch_mem)) != GTRT_OK)
      return NULL;
    gtrt_scratch_mem = NULL;
    gtrt_scratch_size = 0;
  }
  void *p = NULL;
  if (gtrt_cu_alloc(NULL, site, "runtime scratch", want, &p) != GTRT_OK)
    return NULL;
  gtrt_scratch_mem = p;
  gtrt_scratch_size = want;
  return p;
}

unsigned gtrt_grid_for(long long trip, unsigned block) {
  gtrt_use_device();
  /* GTRT_GRID_WAVES=W allows W times the resident blocks (0: one thread per
   * iteration); for measuring the grid-stride trade-off. */
  static long waves = -1;
  if (waves < 0) {
    const char *v = getenv("GTRT_GRID_WAVES");
    waves = v && *v ? strtol(v, NULL, 10) : 1;
    if (waves < 0) waves = 1;
  }
  if (waves == 0) return gtrt_grid_calc(trip, block, 0x7fffffffu / 2048u, 2048);
  return gtrt_grid_calc(trip, block, gtrt_sms * (unsigned)waves, gtrt_tpsm);
}

/* ---- CollectiveDP support ------------------------------------------------ */

long long gtrt_cdp_capacity(void) {
  const char *v = getenv("GTRT_CDP_CAPACITY");
  if (v && *v) {
    char *end;
    long long n = strtoll(v, &end, 10);
    if (!*end && n >= 0) return n;
  }
  return 1LL << 20;
}

unsigned gtrt_resident_blocks(const gtrt_site *site, const void *kernel, unsigned block, const char *what) {
  if (!gtrt_use_device()) return 0;
  int per_sm = 0;
  if (GTRT_CHECK(site, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)block, 0)) != GTRT_OK)
    return 0;
  if (per_sm < 1) {
    gtrt_record(site, GTRT_ERR_ARG, "%s of the '%s' region cannot run %u threads per block on one multiprocessor", what,
                gtrt_site_what(site), block);
    return 0;
  }
  return (unsigned)per_sm * gtrt_sms;
}

unsigned gtrt_cdp_resident_grid(const gtrt_site *site, const void *kernel_a, const void *kernel_b, unsigned block) {
  const unsigned a = gtrt_resident_blocks(site, kernel_a, block, "the parent kernel");
  const unsigned b = a ? gtrt_resident_blocks(site, kernel_b, block, "the parent kernel") : 0;
  return a < b ? a : b;
}

gtrt_status gtrt_device_stack(const gtrt_site *site, size_t bytes, const char *fn) {
  if (!gtrt_use_device()) return GTRT_OK;
  if (!gtrt_recursive_fn(site) && gtrt_nrecursive_sites < GTRT_MAX_RECURSIVE_SITES) {
    gtrt_recursive_sites[gtrt_nrecursive_sites].site = site;
    gtrt_recursive_sites[gtrt_nrecursive_sites++].fn = fn;
  }
  size_t current = 0; /* never lower a limit the program (or an earlier region) raised */
  gtrt_status st = GTRT_CHECK(site, cudaDeviceGetLimit(&current, cudaLimitStackSize));
  if (st == GTRT_OK && bytes > current) {
    st = GTRT_CHECK(site, cudaDeviceSetLimit(cudaLimitStackSize, bytes));
    if (st == GTRT_OK) st = GTRT_CHECK(site, cudaDeviceGetLimit(&current, cudaLimitStackSize));
  }
  gtrt_stack_bytes = current;
  return st;
}

gtrt_status gtrt_cdp_pending_launches(const gtrt_site *site, size_t n) {
  if (!gtrt_use_device()) return GTRT_OK;
  size_t current = 0; /* never lower a limit the program (or an earlier region) raised */
  gtrt_status st = GTRT_CHECK(site, cudaDeviceGetLimit(&current, cudaLimitDevRuntimePendingLaunchCount));
  if (st != GTRT_OK || n <= current) return st;
  return GTRT_CHECK(site, cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, n));
}
