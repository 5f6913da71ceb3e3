/* Host side of task megakernels over the CUDA runtime: queue storage and
 * control block (grow-only, reused by every region), the persistent grid,
 * the watchdog that waits for the megakernel, and the upload of inspector
 * graphs and phased plans. Device side: gtrt_task.cuh; design:
 * docs/tasks_runtime.md. Plain C over cuda_runtime_api.h, like
 * gtrt_host.c; not thread-safe. */
#define _POSIX_C_SOURCE 200809L
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gtrt_core.h"
#include "gtrt_insp.h"

#define GTRT_CHECK(site, call) gtrt_check_cuda((site), (int)(call), #call, __FILE__, __LINE__)

/* Multi-queue rings get ntasks entries each while that stays under this many
 * entries in all; beyond, 4 * ntasks / nqueues each (spilling into the next
 * queue keeps overflow impossible). */
#define GTRT_TQ_FULL_RINGS (1u << 26)

/* ---- process-wide state --------------------------------------------------------- */

typedef struct gtrt_tq_buf {
  void *p;
  size_t bytes;
} gtrt_tq_buf;

static struct {
  gtrt_tq_buf count, slots, ctl, off, succ;
  gtrt_tq_buf phases;       /* phase and instance tables of a plan (one buffer) */
  int slots_dirty;          /* slots may hold entries (new memory, or a stopped region) */
  unsigned *host_ctl;       /* pinned copy of the control block */
  size_t host_ctl_words;
  cudaStream_t side;        /* non-blocking: reads the control block while the megakernel runs */
  cudaEvent_t start, end;
  int sms;
  double walk_ms, build_ms, upload_ms; /* GTRT_PROFILE, phased regions: host walk, graph, tables to the GPU */
} gtrt_tq = {.slots_dirty = 1};

/* Grow-only device buffer; NOMEM names the bytes and what they were for. */
static gtrt_status gtrt_tq_reserve(const gtrt_site *site, gtrt_tq_buf *b, size_t bytes, const char *what) {
  if (bytes <= b->bytes)
    return GTRT_OK;
  if (b->p) {
    gtrt_status st = GTRT_CHECK(site, cudaFree(b->p));
    b->p = NULL;
    b->bytes = 0;
    if (st != GTRT_OK)
      return st;
  }
  cudaError_t e = cudaMalloc(&b->p, bytes);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    b->p = NULL;
    return gtrt_record(site, GTRT_ERR_NOMEM, "out of device memory in '%s' region: cudaMalloc of %zu bytes for the %s failed",
                       gtrt_site_what(site), bytes, what);
  }
  if (e != cudaSuccess) {
    b->p = NULL;
    return GTRT_CHECK(site, e);
  }
  b->bytes = bytes;
  return GTRT_OK;
}

/* Events, the side stream and the pinned control-block copy, once. */
static gtrt_status gtrt_tq_init(const gtrt_site *site, size_t ctl_words) {
  gtrt_status st = GTRT_OK;
  if (!gtrt_tq.side) {
    int dev = 0;
    if ((st = GTRT_CHECK(site, cudaGetDevice(&dev))) != GTRT_OK ||
        (st = GTRT_CHECK(site, cudaDeviceGetAttribute(&gtrt_tq.sms, cudaDevAttrMultiProcessorCount, dev))) != GTRT_OK ||
        (st = GTRT_CHECK(site, cudaEventCreate(&gtrt_tq.start))) != GTRT_OK ||
        (st = GTRT_CHECK(site, cudaEventCreate(&gtrt_tq.end))) != GTRT_OK ||
        (st = GTRT_CHECK(site, cudaStreamCreateWithFlags(&gtrt_tq.side, cudaStreamNonBlocking))) != GTRT_OK)
      return st;
    if (gtrt_tq.sms < 1)
      gtrt_tq.sms = 1;
  }
  if (ctl_words > gtrt_tq.host_ctl_words) {
    if (gtrt_tq.host_ctl && (st = GTRT_CHECK(site, cudaFreeHost(gtrt_tq.host_ctl))) != GTRT_OK)
      return st;
    gtrt_tq.host_ctl = NULL;
    gtrt_tq.host_ctl_words = 0;
    if ((st = GTRT_CHECK(site, cudaHostAlloc((void **)&gtrt_tq.host_ctl, ctl_words * 4, cudaHostAllocDefault))) != GTRT_OK)
      return st;
    gtrt_tq.host_ctl_words = ctl_words;
  }
  return GTRT_OK;
}

/* ---- environment ------------------------------------------------------------------ */

static long long gtrt_tq_env_num(const char *var, long long dflt) {
  const char *v = getenv(var);
  if (!v || !*v)
    return dflt;
  char *end;
  long long n = strtoll(v, &end, 10);
  return *end || n <= 0 ? dflt : n;
}

static int gtrt_tq_env_policy(int compiled) {
  const char *v = getenv("GTRT_TASK_QUEUE");
  if (v && !strcmp(v, "shared"))
    return GTRT_TQ_SHARED;
  if (v && !strcmp(v, "block"))
    return GTRT_TQ_BLOCK;
  if (v && !strcmp(v, "task"))
    return GTRT_TQ_TASK;
  return compiled >= GTRT_TQ_SHARED && compiled <= GTRT_TQ_TASK ? compiled : GTRT_TQ_SHARED;
}

/* GTRT_TASK_TIMEOUT seconds (default 10; 0 turns the watchdog off). */
static double gtrt_tq_timeout_s(void) {
  const char *v = getenv("GTRT_TASK_TIMEOUT");
  if (!v || !*v)
    return 10;
  char *end;
  double s = strtod(v, &end);
  return *end || s < 0 ? 10 : s;
}

static const char *gtrt_tq_policy_name(int p) {
  return p == GTRT_TQ_BLOCK ? "block" : p == GTRT_TQ_TASK ? "task" : "shared";
}

/* ---- setup ---------------------------------------------------------------------------- */

/* Queues and entries per queue for ntasks tasks. */
static void gtrt_tq_shape(gtrt_taskq *q, unsigned ntasks) {
  unsigned nq = 1;
  if (q->policy != GTRT_TQ_SHARED) {
    long long n = gtrt_tq_env_num("GTRT_TASK_QUEUES", gtrt_tq.sms);
    nq = (unsigned)(n > 65536 ? 65536 : n);
  }
  unsigned long long cap = ntasks;
  if (nq > 1 && (unsigned long long)nq * ntasks > GTRT_TQ_FULL_RINGS)
    cap = 4ull * ((ntasks + nq - 1ull) / nq);
  cap = (unsigned long long)gtrt_tq_env_num("GTRT_TASK_QUEUE_CAPACITY", (long long)cap);
  if (cap > 0x80000000ull)
    cap = 0x80000000ull;
  q->nqueues = nq;
  q->cap = (unsigned)cap;
  q->wrap = cap < ntasks;
}

gtrt_status gtrt_task_setup(const gtrt_site *site, long long ntasks, int policy, gtrt_taskq *q) {
  memset(q, 0, sizeof *q);
  if (ntasks <= 0 || ntasks >= 0x80000000LL)
    return gtrt_record(site, GTRT_ERR_ARG, "task region of the '%s' has %lld tasks (must be 1 .. 2^31-1)",
                       gtrt_site_what(site), ntasks);
  if (!gtrt_use_device())
    return gtrt_record(site, GTRT_ERR_ARG, "task megakernel of the '%s' region needs a CUDA device",
                       gtrt_site_what(site));
  gtrt_status st;
  if ((st = gtrt_tq_init(site, GTRT_TQ_CTL_WORDS(1))) != GTRT_OK)
    return st;
  q->ntasks = (unsigned)ntasks;
  q->target = q->span = q->ntasks; /* one run of the workers over every task */
  q->policy = gtrt_tq_env_policy(policy);
  gtrt_tq_shape(q, q->ntasks);
  size_t nslots = (size_t)q->nqueues * q->cap, ctl_words = GTRT_TQ_CTL_WORDS(q->nqueues);
  size_t slot_bytes_before = gtrt_tq.slots.bytes;
  if ((st = gtrt_tq_init(site, ctl_words)) != GTRT_OK ||
      (st = gtrt_tq_reserve(site, &gtrt_tq.count, (size_t)q->ntasks * sizeof(int), "task counters")) != GTRT_OK ||
      (st = gtrt_tq_reserve(site, &gtrt_tq.slots, nslots * sizeof(unsigned), "task queues")) != GTRT_OK ||
      (st = gtrt_tq_reserve(site, &gtrt_tq.ctl, ctl_words * sizeof(unsigned), "task control block")) != GTRT_OK)
    return st;
  /* A region that finished empties every slot it used: clear only new
   * memory, or after a stopped region. */
  if (gtrt_tq.slots_dirty || gtrt_tq.slots.bytes != slot_bytes_before) {
    if ((st = GTRT_CHECK(site, cudaMemsetAsync(gtrt_tq.slots.p, 0, gtrt_tq.slots.bytes, 0))) != GTRT_OK)
      return st;
    gtrt_tq.slots_dirty = 0;
  }
  if ((st = GTRT_CHECK(site, cudaMemsetAsync(gtrt_tq.ctl.p, 0, ctl_words * sizeof(unsigned), 0))) != GTRT_OK)
    return st;
  q->count = gtrt_tq.count.p;
  q->slots = gtrt_tq.slots.p;
  q->ctl = gtrt_tq.ctl.p;
  q->prof = gtrt_profile_enabled();
  q->timeout_ns = (unsigned long long)(gtrt_tq_timeout_s() * 1e9);
  return GTRT_CHECK(site, cudaEventRecord(gtrt_tq.start, 0));
}

/* ---- grid -------------------------------------------------------------------------------- */

unsigned gtrt_task_grid(const gtrt_site *site, const void *kernel, unsigned block, unsigned worker_threads,
                        long long ntasks) {
  if (!gtrt_use_device() || gtrt_tq_init(site, 0) != GTRT_OK)
    return 0;
  /* Co-resident blocks only: workers wait for each other's pushes. */
  unsigned long long g = gtrt_resident_blocks(site, kernel, block, "task megakernel");
  if (!g)
    return 0;
  unsigned long long need = worker_threads == 0 || block == 0
                                ? (unsigned long long)ntasks
                                : ((unsigned long long)ntasks * worker_threads + block - 1) / block;
  if (need < g)
    g = need;
  long long cap = gtrt_tq_env_num("GTRT_TASK_GRID", 0);
  if (cap > 0 && (unsigned long long)cap < g)
    g = (unsigned long long)cap;
  return g ? (unsigned)g : 1;
}

#define GTRT_TASK_SPILL_OK 32 /* bytes of local memory per thread the 8-block build may use */

const void *gtrt_task_pick_kernel(const gtrt_site *site, const void *hi, const void *lo, unsigned block,
                                  unsigned worker_threads, long long max_phase) {
  const char *force = getenv("GTRT_TASK_KERNEL");
  if (force && !strcmp(force, "hi"))
    return hi;
  if (force && !strcmp(force, "lo"))
    return lo;
  if (!gtrt_use_device() || gtrt_tq_init(site, 0) != GTRT_OK)
    return lo; /* gtrt_task_grid reports it */
  /* more resident blocks help only a phase with more workers' worth of
   * tasks than the lo build holds at once (bandwidth); a small phase runs
   * on a few blocks, where the hi build's spills only add latency */
  int per_sm = 0;
  if (GTRT_CHECK(site, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, lo, (int)block, 0)) != GTRT_OK)
    return NULL;
  unsigned long long workers = (unsigned long long)per_sm * (unsigned)gtrt_tq.sms *
                               (worker_threads && worker_threads < block ? block / worker_threads : 1);
  if ((unsigned long long)max_phase <= workers)
    return lo;
  struct cudaFuncAttributes a;
  if (GTRT_CHECK(site, cudaFuncGetAttributes(&a, hi)) != GTRT_OK)
    return NULL;
  /* a few spilled words (the runtime's cold state) cost less than the
   * blocks gain: heat's 24 bytes ran 2^26 cells x 20 steps in 13.2 ms
   * against 16.4; Jacobi's 136 bytes ran 2^22 rows x 20 in 6.5-7.2 ms
   * against 5.7-5.8 (H200) */
  return a.localSizeBytes <= GTRT_TASK_SPILL_OK ? hi : lo;
}

/* ---- waiting and the watchdog ----------------------------------------------------------- */

static void gtrt_tq_sleep_us(long us) {
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&ts, NULL);
}

/* Copies the control block to gtrt_tq.host_ctl through the side stream
 * (it runs beside a megakernel that never returns). 0 if the copy did not
 * finish within a second. */
static int gtrt_tq_snapshot(const gtrt_taskq *q) {
  size_t bytes = GTRT_TQ_CTL_WORDS(q->nqueues) * sizeof(unsigned);
  if (cudaMemcpyAsync(gtrt_tq.host_ctl, q->ctl, bytes, cudaMemcpyDeviceToHost, gtrt_tq.side) != cudaSuccess)
    return 0;
  double t0 = gtrt_now_ms();
  for (;;) {
    cudaError_t e = cudaStreamQuery(gtrt_tq.side);
    if (e == cudaSuccess)
      return 1;
    if (e != cudaErrorNotReady || gtrt_now_ms() - t0 > 1000)
      return 0;
    gtrt_tq_sleep_us(20);
  }
}

/* Asks the workers to stop (they look at the status while waiting). */
static void gtrt_tq_request_stop(const gtrt_taskq *q, unsigned why) {
  static unsigned word;
  word = why;
  if (cudaMemcpyAsync(q->ctl + GTRT_TQ_STATUS, &word, sizeof word, cudaMemcpyHostToDevice, gtrt_tq.side) == cudaSuccess)
    (void)cudaStreamSynchronize(gtrt_tq.side);
}

typedef struct gtrt_tq_counts {
  unsigned long long done, ready, waiting;
} gtrt_tq_counts;

/* Done, ready (in a queue, not claimed) and the rest (waiting for
 * predecessors, or running). */
static gtrt_tq_counts gtrt_tq_count(const gtrt_taskq *q) {
  const unsigned *c = gtrt_tq.host_ctl;
  gtrt_tq_counts n = {c[GTRT_TQ_DONE], 0, 0};
  for (unsigned i = 0; i < q->nqueues; i++) {
    int r = (int)(c[GTRT_TQ_TAIL(i)] - c[GTRT_TQ_HEAD(i)]);
    n.ready += r > 0 ? (unsigned)r : 0;
  }
  n.waiting = n.done + n.ready < q->ntasks ? q->ntasks - n.done - n.ready : 0;
  return n;
}

static gtrt_status gtrt_tq_overflow(const gtrt_site *site, const gtrt_taskq *q) {
  return gtrt_record(site, GTRT_ERR_OVERFLOW,
                     "task queue overflow in the %s at %s:%d: %u entries per queue are not enough; raise GTRT_TASK_QUEUE_CAPACITY",
                     gtrt_site_what(site), site && site->file ? site->file : "?", site ? site->line : 0, q->cap);
}

static gtrt_status gtrt_tq_timeout(const gtrt_site *site, const gtrt_taskq *q, int have_counts) {
  gtrt_tq_counts n = have_counts ? gtrt_tq_count(q) : (gtrt_tq_counts){0, 0, 0};
  return gtrt_record(site, GTRT_ERR_TIMEOUT,
                     "the task megakernel of the %s at %s:%d made no progress for %g s: %llu tasks done, %llu ready, "
                     "%llu waiting (GTRT_TASK_TIMEOUT=seconds, default 10)",
                     gtrt_site_what(site), site && site->file ? site->file : "?", site ? site->line : 0,
                     (double)q->timeout_ns * 1e-9, n.done, n.ready, n.waiting);
}

/* GTRT_PROFILE=1: one line per region run, from the final control block. */
static void gtrt_tq_profile(const gtrt_site *site, const gtrt_taskq *q) {
  float ms = 0;
  if (cudaEventElapsedTime(&ms, gtrt_tq.start, gtrt_tq.end) != cudaSuccess)
    ms = 0;
  gtrt_profile_region(site, ms);
  const unsigned *c = gtrt_tq.host_ctl;
  unsigned long long polls, retries;
  memcpy(&polls, c + GTRT_TQ_POLLS, sizeof polls);
  memcpy(&retries, c + GTRT_TQ_RETRIES, sizeof retries);
  fprintf(stderr,
          "gtrt task region %s:%d (%s): %u tasks in %.3f ms (%.3f G tasks/s), %s queue x%u of %u entries: "
          "%llu empty polls, %llu CAS retries, peak occupancy %u\n",
          site && site->file ? site->file : "?", site ? site->line : 0, gtrt_site_what(site), q->ntasks, ms,
          ms > 0 ? q->ntasks / (ms * 1e6) : 0.0, gtrt_tq_policy_name(q->policy), q->nqueues, q->cap, polls, retries,
          c[GTRT_TQ_PEAK]);
  if (q->phased) /* the kernel time above starts before the uploads */
    fprintf(stderr, "gtrt task region %s:%d: host walk %.3f ms, graph %.3f ms, setup and upload %.3f ms\n",
            site && site->file ? site->file : "?", site ? site->line : 0, gtrt_tq.walk_ms, gtrt_tq.build_ms,
            gtrt_tq.upload_ms);
}

/* The megakernel finished: its status, done count and profile. */
static gtrt_status gtrt_tq_outcome(const gtrt_site *site, const gtrt_taskq *q) {
  gtrt_status st = GTRT_CHECK(site, cudaMemcpy(gtrt_tq.host_ctl, q->ctl, GTRT_TQ_CTL_WORDS(q->nqueues) * sizeof(unsigned),
                                                cudaMemcpyDeviceToHost));
  if (st != GTRT_OK)
    return st;
  const unsigned *c = gtrt_tq.host_ctl;
  if (c[GTRT_TQ_STATUS] == GTRT_ERR_OVERFLOW)
    return gtrt_tq_overflow(site, q);
  if (c[GTRT_TQ_STATUS] != 0)
    return gtrt_tq_timeout(site, q, 1);
  if (c[GTRT_TQ_DONE] != q->ntasks)
    return gtrt_record(site, GTRT_ERR_ARG,
                       "task megakernel of the '%s' region ended with %u of %u tasks done (inconsistent dependence counts)",
                       gtrt_site_what(site), c[GTRT_TQ_DONE], q->ntasks);
  gtrt_tq.slots_dirty = 0;
  if (q->prof)
    gtrt_tq_profile(site, q);
  return GTRT_OK;
}

/* Polls the end event; every 10 ms reads the control block. A device-side
 * stop (overflow, the device watchdog) gets a short grace for the kernel to
 * end; no progress for the timeout plus a second makes the host stop it.
 * Either way the error is returned even if a task body never returns. */
gtrt_status gtrt_task_wait(const gtrt_site *site, gtrt_taskq *q) {
  gtrt_status st;
  cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess)
    return GTRT_CHECK(site, launch);
  if ((st = GTRT_CHECK(site, cudaEventRecord(gtrt_tq.end, 0))) != GTRT_OK)
    return st;
  gtrt_tq.slots_dirty = 1; /* until the region is known to have finished */
  double t0 = gtrt_now_ms(), next_poll = t0 + 1, progress = t0, stopped_at = 0;
  double limit_ms = (double)q->timeout_ns * 1e-6 + 1000;
  unsigned last_done = 0;
  for (;;) {
    cudaError_t e = cudaEventQuery(gtrt_tq.end);
    if (e == cudaSuccess)
      return gtrt_tq_outcome(site, q);
    if (e != cudaErrorNotReady)
      return GTRT_CHECK(site, e);
    double now = gtrt_now_ms();
    if (stopped_at > 0 && now - stopped_at > 200) {
      int have = gtrt_tq_snapshot(q);
      if (have && gtrt_tq.host_ctl[GTRT_TQ_STATUS] == GTRT_ERR_OVERFLOW)
        return gtrt_tq_overflow(site, q);
      return gtrt_tq_timeout(site, q, have);
    }
    if (stopped_at == 0 && now >= next_poll) {
      next_poll = now + 10;
      if (gtrt_tq_snapshot(q)) {
        const unsigned *c = gtrt_tq.host_ctl;
        if (c[GTRT_TQ_STATUS] != 0)
          stopped_at = now;
        else if (c[GTRT_TQ_DONE] != last_done) {
          last_done = c[GTRT_TQ_DONE];
          progress = now;
        }
      }
      if (stopped_at == 0 && q->timeout_ns && now - progress > limit_ms) {
        gtrt_tq_request_stop(q, GTRT_ERR_TIMEOUT);
        stopped_at = now;
      }
    }
    /* Spin briefly (short regions end with little latency), then sleep. */
    if (now - t0 < 2)
      continue;
    gtrt_tq_sleep_us(now - t0 < 50 ? 10 : 100);
  }
}

/* ---- inspector upload ---------------------------------------------------------------------- */

/* Roots round-robin over the queues, written straight into the slots. */
static gtrt_status gtrt_tq_push_roots(const gtrt_site *site, const gtrt_task_graph *g, const gtrt_taskq *q) {
  unsigned nq = q->nqueues, per = (g->nroots + nq - 1) / nq;
  if (per > q->cap)
    return gtrt_tq_overflow(site, q);
  size_t words = GTRT_TQ_CTL_WORDS(nq);
  unsigned *img = calloc((size_t)nq * (per ? per : 1), sizeof *img);
  unsigned *ctl = calloc(words, sizeof *ctl);
  gtrt_status st = GTRT_OK;
  if (!img || !ctl)
    st = gtrt_record(site, GTRT_ERR_NOMEM, "out of host memory for the %u root tasks of the '%s' region", g->nroots,
                     gtrt_site_what(site));
  for (unsigned t = 0, k = 0; st == GTRT_OK && t < g->ntasks; t++) {
    if (g->npred[t])
      continue;
    unsigned qi = k % nq;
    img[(size_t)qi * per + k / nq] = t + 1;
    ctl[GTRT_TQ_TAIL(qi)]++;
    k++;
  }
  if (st == GTRT_OK && per)
    st = GTRT_CHECK(site, cudaMemcpy2D(q->slots, (size_t)q->cap * sizeof *img, img, (size_t)per * sizeof *img,
                                       (size_t)per * sizeof *img, nq, cudaMemcpyHostToDevice));
  if (st == GTRT_OK)
    st = GTRT_CHECK(site, cudaMemcpy(q->ctl, ctl, words * sizeof *ctl, cudaMemcpyHostToDevice));
  free(img);
  free(ctl);
  return st;
}

/* Counts and successor lists; the roots are pushed by the caller's way. */
static gtrt_status gtrt_tq_upload_graph(const gtrt_site *site, const gtrt_task_graph *g, gtrt_taskq *q) {
  size_t nedges = g->off[g->ntasks];
  gtrt_status st;
  if ((st = gtrt_tq_reserve(site, &gtrt_tq.off, ((size_t)g->ntasks + 1) * sizeof(unsigned), "task successor offsets")) != GTRT_OK ||
      (st = gtrt_tq_reserve(site, &gtrt_tq.succ, (nedges ? nedges : 1) * sizeof(unsigned), "task successor lists")) != GTRT_OK ||
      (st = GTRT_CHECK(site, cudaMemcpy(q->count, g->npred, (size_t)g->ntasks * sizeof(int), cudaMemcpyHostToDevice))) != GTRT_OK ||
      (st = GTRT_CHECK(site, cudaMemcpy(gtrt_tq.off.p, g->off, ((size_t)g->ntasks + 1) * sizeof(unsigned), cudaMemcpyHostToDevice))) != GTRT_OK ||
      (nedges && (st = GTRT_CHECK(site, cudaMemcpy(gtrt_tq.succ.p, g->succ, nedges * sizeof(unsigned), cudaMemcpyHostToDevice))) != GTRT_OK))
    return st;
  q->csr_off = gtrt_tq.off.p;
  q->csr_succ = gtrt_tq.succ.p;
  return GTRT_OK;
}

static gtrt_status gtrt_tq_upload(const gtrt_site *site, const gtrt_task_graph *g, gtrt_taskq *q) {
  gtrt_status st = gtrt_tq_upload_graph(site, g, q);
  return st != GTRT_OK ? st : gtrt_tq_push_roots(site, g, q);
}

gtrt_status gtrt_insp_finish(const gtrt_site *site, gtrt_insp *in, gtrt_taskq *q) {
  gtrt_task_graph g;
  gtrt_status st = gtrt_insp_build(site, in, &g);
  gtrt_insp_free(in);
  if (st != GTRT_OK)
    return st;
  if (!q->ctl || g.ntasks != q->ntasks)
    st = gtrt_record(site, GTRT_ERR_ARG, "task inspector of the '%s' region has %u tasks but the region was set up for %u",
                     gtrt_site_what(site), g.ntasks, q->ntasks);
  else
    st = gtrt_tq_upload(site, &g, q);
  gtrt_task_graph_free(&g);
  return st;
}

/* ---- phased plans ---------------------------------------------------------------------------- */

/* Where each table of gtrt_phases lies in the one buffer that holds them:
 * snapshots first (cudaMalloc alignment, so a snapshot struct may be read
 * in place), then the phase records (16-byte aligned), then 32-bit words. */
typedef struct gtrt_ph_layout {
  size_t snaps, recs, rec_bytes, roots, inst_begin, inst_stage, bytes;
} gtrt_ph_layout;

/* Copies of the first instance's snapshot in the phase records make the
 * tables at most this much larger; beyond, records are rows alone and
 * every task reads its snapshot from the instance table. */
#define GTRT_PH_INLINE_CAP ((size_t)64 << 20)

/* Phase p (first task lo) is static: every task is a root. */
static int gtrt_ph_static(const gtrt_plan_graph *pg, unsigned p, unsigned lo) {
  return pg->root_off[p + 1] - pg->root_off[p] == pg->phase_end[p] - lo;
}

/* Roots of the phases that are not static (gtrt_ph_recs lists only those). */
static size_t gtrt_ph_listed_roots(const gtrt_plan_graph *pg) {
  size_t n = 0;
  for (unsigned p = 0, lo = 0; p < pg->nphases; lo = pg->phase_end[p++])
    if (!gtrt_ph_static(pg, p, lo))
      n += pg->root_off[p + 1] - pg->root_off[p];
  return n;
}

static gtrt_ph_layout gtrt_ph_lay(const gtrt_plan *pl, const gtrt_plan_graph *pg) {
  gtrt_ph_layout l;
  l.snaps = 0;
  l.recs = (pl->ninst * pl->snap_bytes + 15) & ~(size_t)15;
  l.rec_bytes = GTRT_PHASE_REC_MAX(pl->snap_bytes);
  if ((l.rec_bytes - sizeof(gtrt_phase_row)) * pg->nphases > GTRT_PH_INLINE_CAP ||
      gtrt_env_off("GTRT_PHASE_SNAP_INLINE"))
    l.rec_bytes = sizeof(gtrt_phase_row);
  l.roots = l.recs + (size_t)pg->nphases * l.rec_bytes;
  l.inst_begin = l.roots + gtrt_ph_listed_roots(pg) * 4;
  l.inst_stage = l.inst_begin + (pl->ninst + 1) * 4;
  l.bytes = l.inst_stage + pl->ninst * 4;
  return l;
}

/* The phase records: task and root ranges, the instances holding each
 * phase's tasks (one sweep: both ends only move forward), the flags, and
 * the first instance's stage and (rec_bytes permitting) snapshot. roots
 * gets the roots of the phases that are not static (the only ones that
 * push them), at most pg->g.nroots. */
static int gtrt_ph_recs(const gtrt_plan *pl, const gtrt_plan_graph *pg, const unsigned char *narrow, int nstages,
                        size_t rec_bytes, unsigned char *recs, unsigned *roots) {
  size_t lo_i = 0, hi_i = 0;
  unsigned nroots = 0;
  int all_static = 1;
  for (unsigned p = 0, lo = 0; p < pg->nphases; lo = pg->phase_end[p++]) {
    unsigned hi = pg->phase_end[p];
    while (lo_i + 1 < pl->ninst && pl->inst_begin[lo_i + 1] <= lo)
      lo_i++;
    if (hi_i < lo_i)
      hi_i = lo_i;
    while (hi_i < pl->ninst && pl->inst_begin[hi_i] < hi)
      hi_i++;
    unsigned char *rec = recs + (size_t)p * rec_bytes;
    gtrt_phase_row *r = (gtrt_phase_row *)rec;
    r->task_lo = lo, r->task_hi = hi;
    r->inst_lo = (unsigned)lo_i, r->inst_hi = (unsigned)(hi_i > lo_i ? hi_i : lo_i + 1);
    int warp = narrow && hi > lo;
    for (size_t i = lo_i; warp && i < hi_i; i++) {
      int s = pl->inst_stage[i];
      if (pl->inst_begin[i + 1] > pl->inst_begin[i] && (s < 0 || s >= nstages || !narrow[s]))
        warp = 0;
    }
    r->flags = warp ? GTRT_PHASE_WARP : 0;
    if (gtrt_ph_static(pg, p, lo)) { /* no roots listed */
      r->flags |= GTRT_PHASE_STATIC;
      r->root_lo = r->root_hi = nroots;
    } else {
      all_static = 0;
      r->root_lo = nroots;
      for (unsigned j = pg->root_off[p]; j < pg->root_off[p + 1]; j++)
        roots[nroots++] = pg->roots[j];
      r->root_hi = nroots;
    }
    r->stage_lo = lo_i < pl->ninst ? pl->inst_stage[lo_i] : -1;
    if (rec_bytes > sizeof *r && hi > lo && pl->snap_bytes)
      memcpy(rec + sizeof *r, pl->snaps + lo_i * pl->snap_bytes, pl->snap_bytes);
  }
  return all_static;
}

/* Phase and instance tables into gtrt_tq.phases, described by *ph. */
static gtrt_status gtrt_tq_upload_phases(const gtrt_site *site, const gtrt_plan *pl, const gtrt_plan_graph *pg,
                                         const unsigned char *narrow, int nstages, gtrt_phases *ph) {
  gtrt_ph_layout l = gtrt_ph_lay(pl, pg);
  gtrt_status st = gtrt_tq_reserve(site, &gtrt_tq.phases, l.bytes, "task phase tables");
  if (st != GTRT_OK)
    return st;
  unsigned char *img = calloc(l.bytes, 1);
  if (!img)
    return gtrt_record(site, GTRT_ERR_NOMEM, "out of host memory for the phase tables of the '%s' region (%zu bytes)",
                       gtrt_site_what(site), l.bytes);
  if (pl->snap_bytes)
    memcpy(img + l.snaps, pl->snaps, pl->ninst * pl->snap_bytes);
  /* GTRT_TASK_STATIC=0: the general megakernel even for a plan of static shares (tests) */
  ph->all_static = gtrt_ph_recs(pl, pg, narrow, nstages, l.rec_bytes, img + l.recs, (unsigned *)(img + l.roots)) &&
                   !gtrt_env_off("GTRT_TASK_STATIC");
  memcpy(img + l.inst_begin, pl->inst_begin, (pl->ninst + 1) * 4);
  memcpy(img + l.inst_stage, pl->inst_stage, pl->ninst * 4);
  st = GTRT_CHECK(site, cudaMemcpy(gtrt_tq.phases.p, img, l.bytes, cudaMemcpyHostToDevice));
  free(img);
  const char *d = gtrt_tq.phases.p;
  ph->snaps = (const unsigned char *)d + l.snaps;
  ph->recs = (const unsigned char *)d + l.recs;
  ph->rec_bytes = (unsigned)l.rec_bytes;
  ph->roots = (const unsigned *)(d + l.roots);
  ph->inst_begin = (const unsigned *)(d + l.inst_begin);
  ph->inst_stage = (const int *)(d + l.inst_stage);
  ph->nphases = pg->nphases;
  ph->max_phase = 0;
  for (unsigned p = 0, lo = 0; p < pg->nphases; lo = pg->phase_end[p++])
    if (pg->phase_end[p] - lo > ph->max_phase)
      ph->max_phase = pg->phase_end[p] - lo;
  ph->ninst = (unsigned)pl->ninst;
  ph->snap_bytes = pl->snap_bytes;
  return st;
}

/* The widest levels (tasks per level, on average) a graph phase may have
 * to run as level phases (gtrt_plan_levels): any width. Wide levels once
 * kept their counters (the overlap of steps), but since level phases run
 * the megakernel built without the queue they are faster there too (H200:
 * depend-only heat 2^26 x 20 12.5 -> 12.0 ms, Jacobi checkpoints 2^22 x
 * 20 4.15 -> 3.62 ms; docs/phases.md). GTRT_PLAN_LEVELS=0: never (every
 * graph keeps its counters), =W (W > 1): levels of at most W tasks. */
static unsigned gtrt_tq_level_width(void) {
  if (gtrt_env_off("GTRT_PLAN_LEVELS"))
    return 0;
  const long long w = gtrt_tq_env_num("GTRT_PLAN_LEVELS", 0xffffffffLL); /* 1 (the old "always"): any width */
  return w > 1 && w < 0xffffffffLL ? (unsigned)w : 0xffffffffu;
}

gtrt_status gtrt_plan_finish(const gtrt_site *site, gtrt_plan *pl, int policy, const unsigned char *narrow,
                             int nstages, gtrt_taskq *q, gtrt_phases *ph) {
  memset(q, 0, sizeof *q);
  memset(ph, 0, sizeof *ph);
  gtrt_plan_graph pg;
  const double t0 = pl && pl->t_new > 0 ? gtrt_now_ms() : 0;
  gtrt_status st = gtrt_plan_build(site, pl, &pg);
  const double t1 = t0 > 0 ? gtrt_now_ms() : 0;
  if (st == GTRT_OK)
    st = gtrt_sync_before_megakernel(site, pg.g.ntasks > 0);
  if (st == GTRT_OK && pg.g.ntasks > 0) { /* an empty plan: nothing to launch */
    st = gtrt_task_setup(site, pg.g.ntasks, policy, q);
    if (st == GTRT_OK) {
      gtrt_plan_levels(pl, &pg, gtrt_tq_level_width());
      q->phased = 1; /* the megakernel pushes each phase's roots */
      if (pg.g.off && pg.g.off[pg.g.ntasks]) /* without edges every phase is static: no counter or successor is read */
        st = gtrt_tq_upload_graph(site, &pg.g, q);
    }
    if (st == GTRT_OK)
      st = gtrt_tq_upload_phases(site, pl, &pg, narrow, nstages, ph);
  }
  if (t0 > 0) {
    gtrt_tq.walk_ms = t0 - pl->t_new;
    gtrt_tq.build_ms = t1 - t0;
    gtrt_tq.upload_ms = gtrt_now_ms() - t1;
  }
  gtrt_plan_graph_free(&pg);
  gtrt_plan_free(pl);
  return st;
}
