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
#include <stdint.h>

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
  GTRT_MAP_TO_CONST,/* map(to:) of a const object: the device cannot write it, so no copy ever comes back
                       (its host copy may lie in read-only memory) */
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
/* acc host_data use_device / omp use_device_ptr: the device address of host
 * for host code. An address in no mapped section stays host's when
 * keep_absent (if_present, OpenMP); otherwise the program stops with a
 * "not present" error at site naming `name`. With no device, or when !on
 * (the construct's if clause), returns host. */
void *gtrt_use_device_addr(const gtrt_site *site, const char *name, const void *host, int on, int keep_absent);
/* Device address that corresponds to host address `base`, found through
 * `inside`, an address inside a mapped section. For a[lo:len] with lo > 0,
 * gtrt_dev_base(site, "a", a, &a[lo]) gives the device `a` that kernel
 * bodies index as a[i]. With no device returns base; failure as above. */
void *gtrt_dev_base(const gtrt_site *site, const char *name, const void *base, const void *inside);
/* Host code of a split task region (host code that needs the tasks'
 * data): brings the whole mapped section containing host back from the
 * device, unless no task megakernel ran since host and device last agreed
 * on it. write: the host code may write it; the section goes back to the
 * device before the next megakernel (gtrt_plan_finish), and map exits do
 * not overwrite it. An address in no mapped section: nothing to do (no
 * task can use it). */
gtrt_status gtrt_sync_from(const gtrt_site *site, const char *name, const void *host, int write);
/* The same for every mapped section: host code that reaches memory through
 * pointers it does not name (an array of pointers, a struct's member). */
gtrt_status gtrt_sync_all_from(const gtrt_site *site, int write);
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
/* How many blocks of `block` threads of kernel fit on the GPU at once
 * (occupancy per multiprocessor times multiprocessors); 0 on failure,
 * recorded as "WHAT of the '<region>' region cannot run ...". */
unsigned gtrt_resident_blocks(const gtrt_site *site, const void *kernel, unsigned block, const char *what);
/* The smaller gtrt_resident_blocks of a parent kernel's two instances. */
unsigned gtrt_cdp_resident_grid(const gtrt_site *site, const void *kernel_a, const void *kernel_b, unsigned block);
/* Raises the device runtime's pending-launch limit to at least n, once;
 * needed when parent blocks or warps launch next-level kernels themselves. */
gtrt_status gtrt_cdp_pending_launches(const gtrt_site *site, size_t n);

/* Raises CUDA's device stack to at least `bytes` per thread (never lowers
 * it) for a region that calls the recursive function `fn`; a fault of that
 * region then names a stack overflow as a possible cause. */
gtrt_status gtrt_device_stack(const gtrt_site *site, size_t bytes, const char *fn);

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

/* ==== task megakernels (omp task depend loops) =============================
 * One task region runs as a persistent megakernel whose workers pop ready
 * tasks from device queues (gtrt_task.cuh), run the body, and release the
 * successors (counters of unfinished predecessors). Affine regions compute
 * counts and successors inline; others describe their dependences to the
 * inspector (gtrt_insp_*), which builds the graph on the host. Design and
 * environment: docs/tasks_runtime.md. */

/* Where released tasks go: one shared ring (Atos), the pushing block's queue
 * with round-robin stealing, or queue hash(task) (ORNL multi-queue). */
typedef enum gtrt_task_policy { GTRT_TQ_SHARED = 0, GTRT_TQ_BLOCK = 1, GTRT_TQ_TASK = 2 } gtrt_task_policy;

/* Device view of one task region's scheduler state, passed BY VALUE as a
 * kernel parameter. The megakernel keeps the trailing per-worker fields in
 * registers (the functions of gtrt_task.cuh take it by reference); the host
 * sets them to 0. Layout of ctl: gtrt_task.cuh. */
typedef struct gtrt_taskq {
  int *count;                /* [ntasks] predecessors not finished yet */
  unsigned *slots;           /* [nqueues * cap] queue entries: task + 1, 0 = empty */
  unsigned *ctl;             /* control block: status, done, statistics, heads, tails */
  const unsigned *csr_off;   /* inspector graph: successors of t are */
  const unsigned *csr_succ;  /*   csr_succ[csr_off[t] .. csr_off[t+1]) */
  unsigned ntasks;           /* tasks in the region, < 2^31 */
  unsigned nqueues;          /* 1 for GTRT_TQ_SHARED */
  unsigned cap;              /* entries per queue */
  int policy;                /* gtrt_task_policy after GTRT_TASK_QUEUE */
  int wrap;                  /* cap < ntasks: ring slots are reused (CAS protocol) */
  int prof;                  /* GTRT_PROFILE: count queue contention */
  unsigned long long timeout_ns; /* watchdog (GTRT_TASK_TIMEOUT); 0 = off */
  int phased;                /* a phased region (gtrt_plan_finish): one run of workers per phase */
  unsigned target;           /* done count at which the current run of workers ends: ntasks, or phase_end[p] */
  unsigned span;             /* shared ring positions the current run can fill: ntasks, or the phase's tasks */
  unsigned stat_next, stat_end, stat_stride; /* a phase whose tasks are all roots: this worker's next task, no queue */
  unsigned inst_lo, inst_hi; /* the current phase's instances (gtrt_phase_inst searches only them) */
  unsigned task_lo;          /* the current phase's first task: instance inst_lo begins there */
  int stage_lo;              /* stage of instance inst_lo */
  unsigned bar_seq;          /* grid barriers this block has passed (thread 0) */
  int ring_used;             /* the current phase pushes into the shared ring: its barrier resets it */
  /* per-worker state (registers of the megakernel) */
  unsigned my_next;          /* task + 1 this worker made ready and runs next (0: none) */
  unsigned my_done;          /* tasks finished since the last flush */
  unsigned my_polls;         /* profile: empty polls since the last flush */
  unsigned my_retries;       /* profile: CAS retries since the last flush */
  unsigned long long my_flush_clk; /* clock64 at the last flush */
} gtrt_taskq;

/* Control block (q.ctl): unsigned words, hot counters 128 bytes apart.
 * Status: 0 running, else the gtrt_status that stopped the region. */
enum {
  GTRT_TQ_STATUS = 0,   /* set once (CAS) by the first worker that stops the region */
  GTRT_TQ_DONE = 32,    /* tasks finished (flushed by workers in batches) */
  GTRT_TQ_POLLS = 64,   /* profile: empty polls (64-bit) */
  GTRT_TQ_RETRIES = 66, /* profile: failed CAS on heads and tails (64-bit) */
  GTRT_TQ_PEAK = 68,    /* profile: largest queue occupancy seen by a push */
  GTRT_TQ_BAR_ARRIVE = 72, /* phases: blocks that reached the grid barrier */
  GTRT_TQ_BAR_GEN = 80, /* phases: grid barriers completed */
  GTRT_TQ_QUEUES = 96,  /* queue i: head (pops claimed) at +64 i, tail (pushes) at +64 i + 32 */
};
#define GTRT_TQ_HEAD(i) (GTRT_TQ_QUEUES + 64u * (unsigned)(i))
#define GTRT_TQ_TAIL(i) (GTRT_TQ_QUEUES + 64u * (unsigned)(i) + 32u)
#define GTRT_TQ_CTL_WORDS(nqueues) (GTRT_TQ_QUEUES + 64u * (unsigned)(nqueues))

/* Host inspector of one region (opaque). */
typedef struct gtrt_insp gtrt_insp;

/* Allocates or reuses (grow-only) the counters, queue storage and control
 * block of a region of ntasks tasks (0 < ntasks < 2^31, else a recorded
 * GTRT_ERR_ARG naming the site) and resets all state. policy is the compiled
 * one; GTRT_TASK_QUEUE=shared|block|task overrides it; GTRT_TASK_QUEUES=n
 * queues for block/task (default: the number of SMs);
 * GTRT_TASK_QUEUE_CAPACITY=n entries per queue (default: enough for every
 * task). */
gtrt_status gtrt_task_setup(const gtrt_site *site, long long ntasks, int policy, gtrt_taskq *q);
/* Blocks of `block` threads for the persistent megakernel `kernel` (a
 * __global__ function cast to const void *, no dynamic shared memory): all
 * co-resident (occupancy x SMs), at most ceil(ntasks * W / block) where W =
 * worker_threads (0: a worker is the whole block), capped by GTRT_TASK_GRID.
 * Returns 0 after recording an error. */
unsigned gtrt_task_grid(const gtrt_site *site, const void *kernel, unsigned block, unsigned worker_threads,
                        long long ntasks);
/* Two builds of one megakernel, hi for more blocks per SM (fewer
 * registers) and lo: hi when the largest phase (max_phase tasks) has more
 * tasks than lo's resident workers and hi spills at most a few words to
 * local memory. NULL after recording a CUDA error. GTRT_TASK_KERNEL=hi|lo
 * forces one (measurements). */
const void *gtrt_task_pick_kernel(const gtrt_site *site, const void *hi, const void *lo, unsigned block,
                                  unsigned worker_threads, long long max_phase);
/* After the init kernel (or gtrt_insp_finish) and the megakernel were
 * launched on the default stream: waits for the megakernel as the host-side
 * watchdog, then checks its outcome: GTRT_OK, GTRT_ERR_OVERFLOW,
 * GTRT_ERR_TIMEOUT (no progress for GTRT_TASK_TIMEOUT seconds, default 10;
 * returned even while a task body still spins: the caller exits) or
 * GTRT_ERR_CUDA. GTRT_PROFILE=1 records the region and prints tasks/s and
 * queue contention. */
gtrt_status gtrt_task_wait(const gtrt_site *site, gtrt_taskq *q);

/* Inspector for depend items not analysable at compile time: the host walks
 * the task loop in program order and reports every item's address; kind 0
 * in, 1 out, 2 inout; tasks in increasing order, items in clause order.
 * gtrt_insp_new returns NULL after recording an error. */
gtrt_insp *gtrt_insp_new(const gtrt_site *site, long long ntasks);
void gtrt_insp_access(gtrt_insp *in, long long task, const void *addr, int kind);
/* Builds the graph with OpenMP semantics (RAW, WAR, WAW per address),
 * uploads counts and successor lists into q (after gtrt_task_setup), pushes
 * the roots and frees in. The init kernel is then not launched. */
gtrt_status gtrt_insp_finish(const gtrt_site *site, gtrt_insp *in, gtrt_taskq *q);

/* ==== phased task regions ===================================================
 * A single/master block with several task loops, single tasks, taskwait,
 * taskgroup and host control flow (an iterative loop with a run-time trip
 * count, scalar updates) runs as ONE megakernel. The generated host code
 * first walks the block in program order (running its scalar code, as the
 * CPU build does) and describes it to a plan: each task loop or single task
 * it reaches is a stage instance (a task type, a task count and a snapshot
 * of the values its tasks read: loop bounds, loop-carried scalars), each
 * taskwait / end of taskgroup a phase boundary, and every depend item of
 * every task an access. gtrt_plan_finish builds the dependence graph per
 * phase (OpenMP semantics; no edge crosses a phase boundary, so steps
 * without taskwait overlap through individual dependences) and uploads it
 * with the phase and instance tables. The megakernel runs the phases in
 * order, separated by a grid barrier (gtrt_task.cuh: gtrt_phase_begin,
 * gtrt_phase_end, gtrt_phase_inst). Task ids are global, in program order. */

/* Device view of a plan, passed BY VALUE to the megakernel. All tables lie
 * in one device buffer, snapshots first at a cudaMalloc-aligned base: with
 * snap_bytes = sizeof the snapshot struct, snaps + i * snap_bytes can be
 * read as that struct in place. */
/* One phase as the megakernel reads it at its start. */
typedef struct gtrt_phase_row {
  unsigned task_lo, task_hi; /* its tasks: global ids task_lo .. task_hi-1 */
  unsigned root_lo, root_hi; /* its roots: roots[root_lo .. root_hi) (none listed for a static phase) */
  unsigned inst_lo, inst_hi; /* the instances holding its tasks: inst_begin[inst_lo] == task_lo, task_hi <= inst_begin[inst_hi] */
  unsigned flags;            /* GTRT_PHASE_WARP | GTRT_PHASE_STATIC */
  int stage_lo;              /* stage of instance inst_lo */
} gtrt_phase_row;

/* GTRT_PHASE_WARP: every task is of a narrow stage: block workers run the
 * phase one task per warp. GTRT_PHASE_STATIC: no task of the phase has a
 * predecessor: workers take the tasks in turn, without the queue. */
enum { GTRT_PHASE_WARP = 1, GTRT_PHASE_STATIC = 2 };

/* A phase record: its row, then (when the snapshot struct has at most
 * GTRT_PHASE_SNAP_INLINE bytes) a copy of instance inst_lo's snapshot, so
 * that one block-wide copy before the grid barrier brings everything a
 * phase of one instance needs into shared memory. GTRT_PHASE_REC_MAX is
 * the record size for a snapshot struct of snap bytes (the megakernel's
 * shared buffer); records lie GTRT_PHASE_REC_MAX apart unless the copies
 * would make the table too large (gtrt_phases.rec_bytes says). */
#define GTRT_PHASE_SNAP_INLINE 480u
#define GTRT_PHASE_REC_MAX(snap) \
  ((unsigned)sizeof(gtrt_phase_row) + ((snap) <= GTRT_PHASE_SNAP_INLINE ? (((unsigned)(snap) + 15u) & ~15u) : 0u))

typedef struct gtrt_phases {
  const unsigned char *recs;  /* [nphases] records of rec_bytes */
  const unsigned *roots;      /* ids of the tasks with no predecessor of the phases that are not static, increasing */
  const unsigned *inst_begin; /* [ninst + 1] first task of each stage instance; inst_begin[ninst] = ntasks */
  const int *inst_stage;      /* [ninst] stage (task type) of each instance */
  const unsigned char *snaps; /* [ninst * snap_bytes] snapshot of each instance */
  unsigned nphases, ninst, snap_bytes;
  unsigned rec_bytes;         /* stride of recs: GTRT_PHASE_REC_MAX(snap_bytes), or the row alone */
  unsigned max_phase;         /* tasks in the largest phase (the stub sizes the grid by it) */
  int all_static;             /* every phase with tasks is GTRT_PHASE_STATIC: the stub runs the
                                 megakernel built without the queue (GT_S = 1) */
} gtrt_phases;

/* Host builder of one region run (opaque). */
typedef struct gtrt_plan gtrt_plan;

/* snap_bytes: size of the region's snapshot struct (may be 0). NULL after
 * recording an error. */
gtrt_plan *gtrt_plan_new(const gtrt_site *site, unsigned snap_bytes);
/* A stage instance: ntasks (>= 0) tasks of type stage, in program order
 * after everything recorded so far; snap (snap_bytes, copied; may be NULL
 * when snap_bytes is 0). self_indep: the stage's depend items never let two
 * of its own tasks conflict (known at compile time), so an instance alone in
 * its phase needs no graph. Returns the global id of its first task, or -1
 * after recording an error (too many tasks: ids must stay below 2^31). */
long long gtrt_plan_stage(gtrt_plan *pl, int stage, long long ntasks, const void *snap, int self_indep);
/* Depend items of constant stride (the host walk's shortcut for block
 * loops such as depend(in: u[(b+1)*bs])): gtrt_plan_stridable says whether
 * the instance whose first task is first may still give its items this
 * way (none of them reported yet). gtrt_plan_strided: the items of its
 * ntasks tasks are m slots (m <= GTRT_PLAN_STRIDED_MAX, clause order),
 * item j of task first + t at base[j] + t * stride[j] (mod 2^64), kind[j]
 * (0 in, 1 out, 2 inout). An instance alone in its phase is checked
 * against itself from these numbers; one in a phase that needs a graph is
 * expanded into items, or compared with the plan memo as one descriptor.
 * 0: not taken (report the items with gtrt_plan_access instead). */
#define GTRT_PLAN_STRIDED_MAX 16
int gtrt_plan_stridable(const gtrt_plan *pl, long long first);
int gtrt_plan_strided(gtrt_plan *pl, long long first, long long ntasks, int m, const uintptr_t *base,
                      const uintptr_t *stride, const int *kind);
/* A depend item of task (a global id from gtrt_plan_stage, tasks in
 * increasing order, items in clause order): kind 0 in, 1 out, 2 inout. */
void gtrt_plan_access(gtrt_plan *pl, long long task, const void *addr, int kind);
/* taskwait / end of taskgroup: tasks recorded after it start when every
 * task recorded before it has finished. */
void gtrt_plan_barrier(gtrt_plan *pl);
/* Builds the graph (per phase, RAW/WAR/WAW per address), sets q up for all
 * the plan's tasks (as gtrt_task_setup; policy as there) with the counts and
 * successor lists, uploads the phase and instance tables into *ph, and frees
 * pl (also on failure). narrow[s] (s < nstages; NULL: none): tasks of stage
 * s need only a warp (GTRT_PHASE_WARP). q->ntasks == 0 (an empty plan):
 * nothing to launch, GTRT_OK. First sends back what host code of a split
 * region wrote (gtrt_sync_from). */
gtrt_status gtrt_plan_finish(const gtrt_site *site, gtrt_plan *pl, int policy, const unsigned char *narrow,
                             int nstages, gtrt_taskq *q, gtrt_phases *ph);

/* ==== end of task megakernels ============================================== */

#ifdef __cplusplus
}
#endif

#endif
