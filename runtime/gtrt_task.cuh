/* Device side of task megakernels (omp task depend loops), included by
 * generated .gt.cu files. A persistent grid of workers (a thread, a warp or
 * a block: W = 1, 32, 0) pops ready tasks, runs the body, publishes its
 * writes and releases the successors: each task has a counter of unfinished
 * predecessors (q.count), and the release that brings it to zero makes it
 * ready. The worker keeps the first task it makes ready and runs it next
 * (no queue traffic: a chain of tasks costs only its counter atomics); the
 * others are pushed.
 * Host side and queue sizes: gtrt.h (gtrt_task_setup, gtrt_task_wait);
 * design notes: docs/tasks_runtime.md.
 *
 * Queues (q.policy):
 *   SHARED  one ring (Atos): pop = fetch-and-add on the head, then wait for
 *           that slot to be filled. Entries hold t + 1 (0 = empty). Kept
 *           tasks never enter the ring, so some claimed indices are never
 *           filled: their waiters leave when the done counter reaches
 *           q.target (an index >= q.span can never be filled at all).
 *   BLOCK   q.nqueues rings (ORNL): pushes go to the pushing block's queue,
 *   TASK    or to queue hash(t); pops try the block's queue, then steal
 *           round-robin. A pop claims only indices below the tail (CAS),
 *           so it never waits for a slot nobody will fill; the region ends
 *           when the done counter reaches q.target. A full queue spills
 *           into the next one.
 * A run of the workers ends when the done counter reaches q.target: ntasks
 * for a plain region, the end of the current phase for a phased one
 * (q.span: the ring positions that run can fill).
 *
 * Memory ordering (PTX model; fences are fence.acq_rel.gpu): a finished
 * task's threads write and meet at the worker barrier; lane 0 then fences
 * and decrements the counters (fence + relaxed atomic: a release pattern,
 * cumulative over the other lanes' writes through the barrier, as in
 * cooperative groups' grid sync). The thread whose decrement reaches zero
 * fences (acquire of every predecessor's release, and release for the
 * push) before keeping or pushing the task; a popper observes the entry and
 * fences (acquire) before the body runs, and the worker barrier passes that
 * on to the other lanes.
 *
 * Deadlock freedom (shared ring, all workers resident; gtrt_task_grid): a
 * worker waits only on an index it claimed, and a claimed index below the
 * tail is filled by a pusher that never blocks on that worker. If every
 * worker waited above the tail, no task would be kept and every pushed task
 * would be finished; the first unfinished task in a topological order then
 * has all its predecessors finished, so it was kept or pushed: a
 * contradiction. The multi-queue
 * policies never wait on an unfilled index at all.
 *
 * Phases (gtrt_phase_begin / gtrt_phase_end, below): the argument above
 * holds per phase. No edge crosses a phase, every counter was uploaded
 * before launch, and the phase's roots are pushed by the whole grid after
 * the barrier that ended the previous phase; so each phase is a region of
 * its own with q.target = its end and q.span = its task count. The grid
 * barrier waits only for blocks that left their task loop, and a worker
 * leaves it once the phase's tasks are done (or its shared-ring claim is
 * >= q.span), which the per-phase argument guarantees; all blocks are
 * co-resident. At the barrier no worker holds a claim and every pushed
 * entry was taken (its task is done), so the last arriver may reset the
 * shared ring to positions 0: each phase uses the slots from 0 again and
 * positions never outgrow 32 bits. Ordering: a block's writes meet at
 * __syncthreads, thread 0 fences and adds its arrival (release); after a
 * phase that used the ring, the last arriver fences after seeing all
 * arrivals (acquire), resets, fences and bumps the generation (release),
 * and the others see the new generation; after any other phase every block
 * waits until the arrival count holds all blocks. Either way the waiter
 * polls with acquire loads, then __syncthreads (as cooperative groups'
 * grid sync, whose fence the acquire replaces). The
 * previous phase's writes, ring resets and slot clears thus happen before
 * any push or pop of the next phase. A phase without edges (a static
 * share) never touches the ring, and its tasks need no release fence: the
 * barrier publishes their writes. */
#ifndef GTRT_TASK_CUH
#define GTRT_TASK_CUH

#include "gtrt_device.cuh"

/* A worker adds its finished tasks to the global done counter every
 * GTRT_TQ_FLUSH_TASKS tasks, after GTRT_TQ_FLUSH_CYCLES, and whenever it
 * idles: one atomic per 64 tasks on the fast path, exact counts at the end.
 * The time is the SM's clock64, not %globaltimer: a task loop that read
 * %globaltimer after every task ran Jacobi's 2000 small phases 5% slower
 * (H200). The bound only keeps the watchdog's progress signal alive while a
 * worker runs long tasks, so the clock rate need not be known. */
#define GTRT_TQ_FLUSH_TASKS 64u
#define GTRT_TQ_FLUSH_CYCLES (1ull << 25) /* about 17 ms at 2 GHz */

/* ---- small helpers ------------------------------------------------------------ */

__device__ __forceinline__ unsigned long long gtrt_tq_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ unsigned gtrt_tq_ld(const unsigned *p) { return *(const volatile unsigned *)p; }

/* Load with acquire semantics at GPU scope: later reads see what the
 * writers released before the value read (through a chain of atomics). */
__device__ __forceinline__ unsigned gtrt_tq_ld_acquire(const unsigned *p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

/* Acquire + release at GPU scope; cheaper than __threadfence (fence.sc). */
__device__ __forceinline__ void gtrt_tq_fence() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }

__device__ __forceinline__ unsigned gtrt_tq_lane_id() { return threadIdx.x & 31u; }

__device__ __forceinline__ unsigned gtrt_tq_lanes_below() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

__device__ __forceinline__ unsigned *gtrt_tq_slot(const gtrt_taskq &q, unsigned qi, unsigned pos) {
  return q.slots + (size_t)qi * q.cap + (pos < q.cap ? pos : pos % q.cap);
}

/* The first stop wins; later ones keep its reason. */
__device__ __forceinline__ void gtrt_tq_stop(gtrt_taskq &q, unsigned why) {
  atomicCAS(q.ctl + GTRT_TQ_STATUS, 0u, why);
}

__device__ __forceinline__ bool gtrt_tq_stopped(const gtrt_taskq &q) { return gtrt_tq_ld(q.ctl + GTRT_TQ_STATUS) != 0; }

/* Adds this worker's finished tasks (and, when profiling, its contention
 * counts) to the control block. */
__device__ __forceinline__ void gtrt_tq_flush(gtrt_taskq &q) {
  if (q.my_done) {
    atomicAdd(q.ctl + GTRT_TQ_DONE, q.my_done);
    q.my_done = 0;
  }
  if (q.prof) {
    if (q.my_polls)
      atomicAdd((unsigned long long *)(q.ctl + GTRT_TQ_POLLS), (unsigned long long)q.my_polls);
    if (q.my_retries)
      atomicAdd((unsigned long long *)(q.ctl + GTRT_TQ_RETRIES), (unsigned long long)q.my_retries);
    q.my_polls = q.my_retries = 0;
  }
  q.my_flush_clk = clock64();
}

/* One step of a wait for work: flushes at the start, backs off, and now and
 * then looks at the status and the watchdog (no change of the done counter
 * for q.timeout_ns stops the region). false: stop waiting, the region is
 * stopped. */
struct gtrt_tq_waiter {
  unsigned n = 0, seen_done = 0;
  unsigned long long since = 0;

  __device__ __forceinline__ bool step(gtrt_taskq &q) {
    if (n++ == 0) {
      since = gtrt_tq_now();
      gtrt_tq_flush(q);
      seen_done = gtrt_tq_ld(q.ctl + GTRT_TQ_DONE);
      return !gtrt_tq_stopped(q);
    }
    if (q.prof)
      q.my_polls++;
    if ((n & 127u) == 0 && !check(q))
      return false;
    if (n > 16)
      __nanosleep(n < 64 ? 32 : 256);
    return true;
  }

  /* false when stopped, or when every task of the run (the region or the
   * phase) is done: a waiter on a ring index that will never be filled. */
  __device__ bool check(gtrt_taskq &q) {
    if (gtrt_tq_stopped(q))
      return false;
    unsigned d = gtrt_tq_ld(q.ctl + GTRT_TQ_DONE);
    if (d >= q.target)
      return false;
    if (!q.timeout_ns)
      return true;
    unsigned long long now = gtrt_tq_now();
    if (d != seen_done) {
      seen_done = d;
      since = now;
    } else if (now - since > q.timeout_ns) {
      gtrt_tq_stop(q, GTRT_ERR_TIMEOUT);
      return false;
    }
    return true;
  }
};

/* ---- slots --------------------------------------------------------------------- */

/* Stores entry v at a reserved position. Without ring reuse (q.wrap == 0)
 * the slot is used once per region: a plain store. With reuse, the previous
 * occupant's popper has claimed it (checked by the caller) but may not have
 * emptied it yet: CAS from empty, so no entry is ever overwritten. */
__device__ __forceinline__ void gtrt_tq_deposit(gtrt_taskq &q, unsigned *slot, unsigned v) {
  if (!q.wrap) {
    *(volatile unsigned *)slot = v;
    return;
  }
  gtrt_tq_waiter w;
  while (atomicCAS(slot, 0u, v) != 0u)
    if (!w.step(q))
      return;
}

/* Takes the entry at a claimed position, waiting for its pusher; empties the
 * slot (so a region that finished leaves every slot 0 for the next one).
 * With reuse, two claimers of one slot (positions cap apart) each take one
 * entry by exchange. Returns the entry, or 0 when the region stopped. */
__device__ __forceinline__ unsigned gtrt_tq_take(gtrt_taskq &q, unsigned *slot) {
  gtrt_tq_waiter w;
  for (;;) {
    unsigned v = gtrt_tq_ld(slot);
    if (v) {
      if (!q.wrap) {
        *(volatile unsigned *)slot = 0u;
        return v;
      }
      if ((v = atomicExch(slot, 0u)) != 0u)
        return v;
    }
    if (!w.step(q))
      return 0;
  }
}

/* ---- pushes ----------------------------------------------------------------------- */

__device__ __forceinline__ void gtrt_tq_note_occupancy(gtrt_taskq &q, unsigned qi, unsigned pos) {
  unsigned occ = pos + 1u - gtrt_tq_ld(q.ctl + GTRT_TQ_HEAD(qi));
  if ((int)occ > 0)
    atomicMax(q.ctl + GTRT_TQ_PEAK, occ);
}

/* Shared ring: one fetch-and-add per group of lanes pushing together. A
 * position whose previous occupant (pos - cap) no popper has claimed yet
 * means cap + 1 entries at once: overflow (the entry is dropped, the region
 * stops, nothing is overwritten). */
__device__ __forceinline__ void gtrt_tq_push_shared(gtrt_taskq &q, unsigned v) {
  unsigned m = __activemask(), leader = __ffs(m) - 1, base = 0;
  if (gtrt_tq_lane_id() == leader)
    base = atomicAdd(q.ctl + GTRT_TQ_TAIL(0), (unsigned)__popc(m));
  unsigned pos = __shfl_sync(m, base, leader) + __popc(m & gtrt_tq_lanes_below());
  if (pos >= q.cap && (!q.wrap || (int)(pos - gtrt_tq_ld(q.ctl + GTRT_TQ_HEAD(0))) >= (int)q.cap)) {
    gtrt_tq_stop(q, GTRT_ERR_OVERFLOW);
    return;
  }
  if (q.prof)
    gtrt_tq_note_occupancy(q, 0, pos);
  gtrt_tq_deposit(q, gtrt_tq_slot(q, 0, pos), v);
}

/* Multi-queue: reserve a position by CAS on the tail only while the queue
 * has room, so every reserved position gets filled; a full queue spills into
 * the next. With nqueues * cap >= ntasks (the default) some queue always has
 * room. */
__device__ __forceinline__ void gtrt_tq_push_multi(gtrt_taskq &q, unsigned qi, unsigned v) {
  for (unsigned k = 0; k < q.nqueues; k++) {
    unsigned *tail = q.ctl + GTRT_TQ_TAIL(qi);
    unsigned t = gtrt_tq_ld(tail);
    while ((int)(t - gtrt_tq_ld(q.ctl + GTRT_TQ_HEAD(qi))) < (int)q.cap) {
      unsigned old = atomicCAS(tail, t, t + 1u);
      if (old == t) {
        if (q.prof)
          gtrt_tq_note_occupancy(q, qi, t);
        gtrt_tq_deposit(q, gtrt_tq_slot(q, qi, t), v);
        return;
      }
      if (q.prof)
        q.my_retries++;
      t = old;
    }
    if (k == 0 && gtrt_tq_stopped(q)) /* after an overflow, do not sweep every full queue again */
      return;
    qi = qi + 1 == q.nqueues ? 0 : qi + 1;
  }
  gtrt_tq_stop(q, GTRT_ERR_OVERFLOW);
}

__device__ __forceinline__ unsigned gtrt_tq_home(const gtrt_taskq &q) { return blockIdx.x % q.nqueues; }

/* Pushes ready task t by policy. */
__device__ __forceinline__ void gtrt_tq_push(gtrt_taskq &q, unsigned t) {
  if (q.policy == GTRT_TQ_SHARED)
    gtrt_tq_push_shared(q, t + 1u);
  else if (q.policy == GTRT_TQ_BLOCK)
    gtrt_tq_push_multi(q, gtrt_tq_home(q), t + 1u);
  else
    gtrt_tq_push_multi(q, __umulhi(t * 2654435761u, q.nqueues), t + 1u); /* Fibonacci hash */
}

/* ---- pops --------------------------------------------------------------------------- */

/* Claims up to `want` entries of queue qi (positions below the tail only).
 * Returns how many; the first position goes to *first. */
__device__ __forceinline__ unsigned gtrt_tq_claim(gtrt_taskq &q, unsigned qi, unsigned want, unsigned *first) {
  unsigned *head = q.ctl + GTRT_TQ_HEAD(qi);
  unsigned h = gtrt_tq_ld(head);
  for (;;) {
    int avail = (int)(gtrt_tq_ld(q.ctl + GTRT_TQ_TAIL(qi)) - h);
    if (avail <= 0)
      return 0;
    unsigned k = want < (unsigned)avail ? want : (unsigned)avail;
    unsigned old = atomicCAS(head, h, h + k);
    if (old == h) {
      *first = h;
      return k;
    }
    if (q.prof)
      q.my_retries++;
    h = old;
  }
}

/* Claims from the home queue, else steals round-robin; 0 when all are
 * empty, or when the phase ended during the sweep. A sweep of every queue
 * is long (two dependent loads per queue, ~100 us with 132 queues under
 * load), so in phased regions (short runs, each ended by a grid barrier)
 * the worker publishes its finished tasks before the sweep and looks at the
 * done counter during it: the end of a phase is seen within a few probes,
 * not two sweeps later. Plain regions skip both: the extra atomics and
 * loads on the done counter cost more than one late end. */
__device__ __forceinline__ unsigned gtrt_tq_claim_any(gtrt_taskq &q, unsigned want, unsigned *qi, unsigned *first) {
  unsigned i = gtrt_tq_home(q);
  for (unsigned k = 0; k < q.nqueues; k++) {
    unsigned got = gtrt_tq_claim(q, i, want, first);
    if (got) {
      *qi = i;
      return got;
    }
    if (q.phased) {
      if (k == 0 && q.my_done) {
        atomicAdd(q.ctl + GTRT_TQ_DONE, q.my_done);
        q.my_done = 0;
      } else if ((k & 7u) == 7u && gtrt_tq_ld(q.ctl + GTRT_TQ_DONE) >= q.target) {
        return 0;
      }
    }
    i = i + 1 == q.nqueues ? 0 : i + 1;
  }
  return 0;
}

/* Multi-queue idle step: flush, finished when every task of the run is done. */
__device__ __forceinline__ bool gtrt_tq_idle(gtrt_taskq &q, gtrt_tq_waiter &w) {
  gtrt_tq_flush(q);
  if (gtrt_tq_ld(q.ctl + GTRT_TQ_DONE) >= q.target)
    return false;
  return w.step(q);
}

/* One worker's pop (W = 32 or a block: lane 0 alone). Returns t + 1, or 0
 * when the run is finished or stopped. A shared-ring index at or beyond
 * q.span (the pushes this run can make) will never be filled: 0 at once. */
__device__ __forceinline__ unsigned gtrt_tq_pop_one(gtrt_taskq &q) {
  if (q.policy == GTRT_TQ_SHARED) {
    unsigned idx = atomicAdd(q.ctl + GTRT_TQ_HEAD(0), 1u);
    return idx < q.span ? gtrt_tq_take(q, gtrt_tq_slot(q, 0, idx)) : 0u;
  }
  gtrt_tq_waiter w;
  for (;;) {
    unsigned qi, first;
    if (gtrt_tq_claim_any(q, 1, &qi, &first))
      return gtrt_tq_take(q, gtrt_tq_slot(q, qi, first));
    if (!gtrt_tq_idle(q, w))
      return 0;
  }
}

/* Thread workers (W = 1): the lanes of a warp that pop together claim with
 * one atomic; each then waits on its own slot (divergent spinning is fine:
 * no warp-collective operation inside the waits). */
__device__ __forceinline__ unsigned gtrt_tq_pop_lanes(gtrt_taskq &q) {
  if (q.policy == GTRT_TQ_SHARED) {
    unsigned m = __activemask(), leader = __ffs(m) - 1, base = 0;
    if (gtrt_tq_lane_id() == leader)
      base = atomicAdd(q.ctl + GTRT_TQ_HEAD(0), (unsigned)__popc(m));
    unsigned idx = __shfl_sync(m, base, leader) + __popc(m & gtrt_tq_lanes_below());
    return idx < q.span ? gtrt_tq_take(q, gtrt_tq_slot(q, 0, idx)) : 0u;
  }
  gtrt_tq_waiter w;
  for (;;) {
    unsigned m = __activemask(), leader = __ffs(m) - 1, got = 0, qi = 0, first = 0;
    if (gtrt_tq_lane_id() == leader)
      got = gtrt_tq_claim_any(q, __popc(m), &qi, &first);
    got = __shfl_sync(m, got, leader);
    qi = __shfl_sync(m, qi, leader);
    first = __shfl_sync(m, first, leader);
    unsigned rank = __popc(m & gtrt_tq_lanes_below());
    if (rank < got)
      return gtrt_tq_take(q, gtrt_tq_slot(q, qi, first + rank));
    if (!got && !gtrt_tq_idle(q, w))
      return 0;
  }
}

/* The next task of one worker (lane 0): the kept one (already acquired by
 * the fence of its release), else a pop followed by an acquire fence.
 * Returns t + 1, or 0 at the end (after a final flush). */
template <int W> __device__ __forceinline__ unsigned gtrt_tq_next_entry(gtrt_taskq &q) {
  unsigned v = q.my_next;
  if (v) {
    q.my_next = 0;
    return v;
  }
  if constexpr (W == 1)
    v = gtrt_tq_pop_lanes(q);
  else
    v = gtrt_tq_pop_one(q);
  if (v)
    gtrt_tq_fence();
  else
    gtrt_tq_flush(q);
  return v;
}

/* ---- the API of generated megakernels ---------------------------------------------- */

/* W = threads per worker: 1 (a thread), 32 (a warp), 0 (the block). */
template <int W> __device__ __forceinline__ unsigned gtrt_task_lane() {
  static_assert(W == 1 || W == 32 || W == 0, "gtrt task workers are 1, 32 or 0 (block) threads");
  if constexpr (W == 1)
    return 0;
  else if constexpr (W == 32)
    return threadIdx.x & 31u;
  else
    return threadIdx.x;
}

template <int W> __device__ __forceinline__ unsigned gtrt_task_width() {
  if constexpr (W == 0)
    return blockDim.x;
  else
    return W;
}

/* Worker barrier (nothing for a thread); generated code calls it between
 * the hyperplane steps of a tile and after a parallel loop in a task. */
template <int W> __device__ __forceinline__ void gtrt_task_sync() {
  if constexpr (W == 32)
    __syncwarp();
  else if constexpr (W == 0)
    __syncthreads();
}

/* The worker's reduction of v for a reduction clause on a parallel loop in
 * a task: every thread of the worker calls it; the result is valid in its
 * first thread (lane 0), which runs the task body's statements after the
 * loop. */
template <int W, class Op, class T> __device__ __forceinline__ T gtrt_task_reduce(T v) {
  if constexpr (W == 1)
    return v;
  else if constexpr (W == 32)
    return gtrt_warp_reduce<Op>(v);
  else
    return gtrt_block_reduce<Op>(v);
}

/* S (phased regions): 1 in the megakernel built for plans whose phases
 * are all static shares (gtrt_phases.all_static). It compiles no queue
 * code: the megakernel is a quarter of the size, and a phase of one task
 * per block took 0.25 us less on the H200 (heat 64 x 1000: 4.3 -> 3.8 ms;
 * Jacobi stages 16384 x 1000: 10.7 -> 9.4 ms). Dropping the static path's
 * two worker barriers from the general build gained nothing, so the
 * smaller code itself (instruction fetch) is the likely cause. */

/* Called by all threads of a worker, converged. false: the region is
 * finished or stopped. Otherwise t is the same in every thread and the
 * writes of t's predecessors are visible. */
template <int W, int S = 0> __device__ __forceinline__ bool gtrt_task_next(gtrt_taskq &q, unsigned &t) {
  if (S || q.stat_end) { /* a phase of independent tasks: a static share, no queue (same in every lane) */
    if (q.stat_next < q.stat_end) {
      t = q.stat_next;
      q.stat_next += q.stat_stride;
      return true;
    }
    q.stat_end = 0; /* finished tasks are flushed later: a dynamic phase's begin, the region's end */
    return false;
  }
  if constexpr (S)
    return false;
  unsigned v;
  if constexpr (W == 1) {
    v = gtrt_tq_next_entry<1>(q);
  } else if constexpr (W == 32) {
    v = 0;
    if (gtrt_task_lane<32>() == 0)
      v = gtrt_tq_next_entry<32>(q);
    __syncwarp(); /* orders lane 0's acquire before the other lanes' reads */
    v = __shfl_sync(0xffffffffu, v, 0);
  } else {
    __shared__ unsigned gtrt_tq_next_v;
    if (threadIdx.x == 0)
      gtrt_tq_next_v = gtrt_tq_next_entry<0>(q);
    __syncthreads();
    v = gtrt_tq_next_v; /* rewritten only after gtrt_task_done's barrier */
  }
  t = v - 1u;
  return v != 0;
}

/* Called by all threads of the worker after the body: every thread's
 * writes become visible GPU-wide before lane 0 releases the successors
 * (worker barrier, then one release fence by lane 0). */
template <int W, int S = 0> __device__ __forceinline__ void gtrt_task_publish(gtrt_taskq &q) {
  if constexpr (S) /* a static share: gtrt_task_done's worker barrier is enough */
    return;
  gtrt_task_sync<W>();
  if (gtrt_task_lane<W>() == 0 && !q.stat_end) /* a static share has no successors: the grid barrier publishes */
    gtrt_tq_fence();
}

/* Lane 0, once per successor s of the finished task. The decrement that
 * reaches zero fences (acquire of all predecessors, release for the push);
 * the first such s is kept for this worker, the others are pushed. */
__device__ __forceinline__ void gtrt_task_release(gtrt_taskq &q, unsigned s) {
  if (atomicSub(q.count + s, 1) == 1) {
    gtrt_tq_fence();
    if (!q.my_next)
      q.my_next = s + 1u;
    else
      gtrt_tq_push(q, s);
  }
}

/* Graph mode (inspector): lane 0 releases t's successors from the CSR, one
 * at a time (thread workers, through gtrt_task_release_graph). */
__device__ __forceinline__ void gtrt_task_release_csr(gtrt_taskq &q, unsigned t) {
  for (unsigned i = q.csr_off[t], e = q.csr_off[t + 1]; i < e; i++)
    gtrt_task_release(q, q.csr_succ[i]);
}

/* Graph mode, called by all threads of the worker after gtrt_task_publish:
 * t's successors are decremented by the lanes of one warp at once (the
 * worker's first warp; a thread worker goes through them alone), so a task
 * with several successors pays about one atomic round trip, not one per
 * successor. Each lane fences before its decrement (lane 0 did in
 * gtrt_task_publish; the worker barrier there ordered every thread's writes
 * before these fences). The first successor that becomes ready is kept for
 * the worker unless it keeps one already, the others are pushed; a
 * __syncwarp orders the keeping lane's acquire fence before lane 0 runs it. */
template <int W, int S = 0> __device__ __forceinline__ void gtrt_task_release_graph(gtrt_taskq &q, unsigned t) {
  if (S || q.stat_end) /* a static share: no task of the phase has a predecessor */
    return;
  if constexpr (W == 1) {
    gtrt_task_release_csr(q, t);
  } else {
    if (W == 0 && threadIdx.x >= 32u)
      return;
    const unsigned lane = threadIdx.x & 31u, b = q.csr_off[t], e = q.csr_off[t + 1];
    if (e - b <= 1u) { /* at most one successor: lane 0 alone, no extra fence */
      if (lane == 0 && b < e)
        gtrt_task_release(q, q.csr_succ[b]);
      return;
    }
    unsigned keep = __shfl_sync(0xffffffffu, lane == 0 ? q.my_next : 0u, 0); /* task + 1, 0: none kept yet */
    for (unsigned base = b; base < e; base += 32u) {
      unsigned s = 0;
      bool ready = false;
      if (base + lane < e) {
        s = q.csr_succ[base + lane];
        if (lane)
          gtrt_tq_fence();
        ready = atomicSub(q.count + s, 1) == 1;
        if (ready)
          gtrt_tq_fence();
      }
      const unsigned m = __ballot_sync(0xffffffffu, ready);
      if (m && !keep) {
        const unsigned first = __ffs(m) - 1u;
        keep = __shfl_sync(0xffffffffu, s, first) + 1u;
        if (lane == first)
          ready = false;
      }
      if (ready)
        gtrt_tq_push(q, s);
    }
    __syncwarp();
    if (lane == 0)
      q.my_next = keep;
  }
}

/* Called by all threads of the worker after the releases: done counting
 * (batched), and a barrier so lane 0's pushes precede the next pop (and,
 * in a static share, so no thread starts the worker's next task while
 * another still reads this one's shared memory). */
template <int W, int S = 0> __device__ __forceinline__ void gtrt_task_done(gtrt_taskq &q, unsigned t) {
  (void)t;
  if (gtrt_task_lane<W>() == 0) {
    const unsigned long long now = clock64();
    if (++q.my_done >= GTRT_TQ_FLUSH_TASKS || now - q.my_flush_clk >= GTRT_TQ_FLUSH_CYCLES)
      gtrt_tq_flush(q);
  }
  gtrt_task_sync<W>();
}

/* Init kernel (affine mode): task t waits for npred predecessors; roots are
 * pushed at once. Counters are written before the megakernel starts (stream
 * order), so no fence is needed. */
__device__ __forceinline__ void gtrt_task_init_count(gtrt_taskq &q, unsigned t, int npred) {
  q.count[t] = npred;
  if (npred == 0)
    gtrt_tq_push(q, t);
}

/* ---- phased regions (gtrt_plan_finish) ---------------------------------------------- */

/* Stage instance holding global task id t of the current phase: the i in
 * [q.inst_lo, q.inst_hi) with inst_begin[i] <= t < inst_begin[i + 1]
 * (instances with no tasks have equal begins; the largest such i holds t).
 * Usually the phase has one instance: no load at all. */
__device__ __forceinline__ unsigned gtrt_phase_inst(const gtrt_taskq &q, const gtrt_phases &ph, unsigned t) {
  unsigned lo = q.inst_lo, hi = q.inst_hi; /* inst_begin[lo] <= t < inst_begin[hi] */
  while (hi - lo > 1) {
    unsigned mid = lo + (hi - lo) / 2;
    if (__ldg(ph.inst_begin + mid) <= t)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* First task, stage and snapshot of instance i of the current phase; for
 * the phase's first instance (usually its only one) they come from the
 * phase record in shared memory (rec), not from global memory. */
__device__ __forceinline__ unsigned gtrt_phase_inst_first(const gtrt_taskq &q, const gtrt_phases &ph, unsigned i) {
  return i == q.inst_lo ? q.task_lo : __ldg(ph.inst_begin + i);
}

__device__ __forceinline__ int gtrt_phase_stage(const gtrt_taskq &q, const gtrt_phases &ph, unsigned i) {
  return i == q.inst_lo ? q.stage_lo : __ldg(ph.inst_stage + i);
}

__device__ __forceinline__ const void *gtrt_phase_snap(const gtrt_taskq &q, const gtrt_phases &ph, unsigned i,
                                                       const unsigned char *rec) {
  if (i == q.inst_lo && ph.rec_bytes > sizeof(gtrt_phase_row)) /* the record holds its copy */
    return rec + sizeof(gtrt_phase_row);
  return ph.snaps + (size_t)i * ph.snap_bytes;
}

/* Phase p's record into the block's shared buffer rec (the megakernel
 * holds two, for phases p and p + 1). gtrt_phase_load copies it at once
 * (the first phase); a __syncthreads publishes it. gtrt_phase_fetch only
 * starts the copy: the generated loop asks for phase p + 1's record when
 * phase p starts, and gtrt_phase_landed (in gtrt_phase_end, or before the
 * __syncthreads after a skipped phase) waits for it, long after it came.
 * On sm_80 and later the copy is cp.async, global to shared memory with no
 * register; a copy through registers before the barrier put one L2 round
 * trip on every phase's critical path (or, held across the barrier, cost
 * spills). Thread 0 runs the grid barrier, so the other threads copy, one
 * 16-byte word each while there are enough. p == nphases: nothing. */
__device__ __forceinline__ unsigned gtrt_phase_rec_skip() { return blockDim.x > 32u ? 32u : 0u; }

__device__ __forceinline__ void gtrt_phase_load(const gtrt_phases &ph, unsigned p, unsigned char *rec) {
  if (p >= ph.nphases)
    return;
  const uint4 *src = (const uint4 *)(ph.recs + (size_t)p * ph.rec_bytes);
  for (unsigned k = threadIdx.x, words = ph.rec_bytes / 16u; k < words; k += blockDim.x)
    ((uint4 *)rec)[k] = __ldg(src + k);
}

__device__ __forceinline__ void gtrt_phase_fetch(const gtrt_phases &ph, unsigned p, unsigned char *rec) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (p >= ph.nphases)
    return;
  const unsigned char *src = ph.recs + (size_t)p * ph.rec_bytes;
  const unsigned skip = gtrt_phase_rec_skip();
  for (unsigned k = threadIdx.x - skip, words = ph.rec_bytes / 16u; threadIdx.x >= skip && k < words;
       k += blockDim.x - skip) {
    const unsigned dst = (unsigned)__cvta_generic_to_shared(rec + 16u * k);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src + 16u * k) : "memory");
  }
  asm volatile("cp.async.commit_group;" ::: "memory");
#else
  gtrt_phase_load(ph, p, rec);
#endif
}

/* This thread's gtrt_phase_fetch copies are in shared memory (a
 * __syncthreads then shows them to the block). */
__device__ __forceinline__ void gtrt_phase_landed() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

/* How a phase runs (gtrt_phase_begin). */
enum { GTRT_PHASE_SKIP = 0, GTRT_PHASE_RUN = 1, GTRT_PHASE_WARPS = 2 };

/* Called by every thread of the grid, with phase p's record (rec, loaded
 * by gtrt_phase_load and published by a __syncthreads). GTRT_PHASE_SKIP (in
 * every thread): phase p has no tasks, skip it (no grid barrier). Otherwise
 * the workers' run ends with the phase. With block workers and a phase
 * marked warp (all its tasks need only a warp), each warp is a worker:
 * GTRT_PHASE_WARPS, the generated code runs the phase with W = 32 (each
 * warp's lane 0 keeps its own queue state, as warp workers do). A phase
 * without edges is a static share: workers take its tasks in turn, as a
 * kernel's blocks would, with no queue. Otherwise the grid pushes the
 * phase's roots: root j by thread j / gridDim.x of block j % gridDim.x, so a
 * few roots still reach every block's own queue (BLOCK policy). Workers may
 * pop at once: the counters were uploaded before launch and a root is
 * nobody's successor. */
template <int W, int S = 0>
__device__ __forceinline__ int gtrt_phase_begin(gtrt_taskq &q, const gtrt_phases &ph, const unsigned char *rec) {
  const gtrt_phase_row row = *(const gtrt_phase_row *)rec;
  const unsigned lo = row.task_lo, hi = row.task_hi;
  if (hi == lo)
    return GTRT_PHASE_SKIP;
  q.target = hi;
  q.span = hi - lo;
  q.inst_lo = row.inst_lo;
  q.inst_hi = row.inst_hi;
  q.task_lo = lo;
  q.stage_lo = row.stage_lo;
  q.ring_used = 0;
  const unsigned threads = gridDim.x * blockDim.x;
  const int mode = W == 0 && (row.flags & GTRT_PHASE_WARP) ? GTRT_PHASE_WARPS : GTRT_PHASE_RUN;
  if (S || (row.flags & GTRT_PHASE_STATIC)) { /* S: the stub checked that every phase is */
    unsigned id, n;
    if (W == 1) {
      id = blockIdx.x * blockDim.x + threadIdx.x, n = threads;
    } else if (W == 32 || mode == GTRT_PHASE_WARPS) {
      /* task j to warp j / gridDim.x of block j % gridDim.x: a phase of
       * fewer tasks than warps spreads over every SM, as a kernel of one
       * warp per block would, instead of filling the first blocks */
      id = (threadIdx.x >> 5) * gridDim.x + blockIdx.x, n = threads >> 5;
    } else {
      id = blockIdx.x, n = gridDim.x;
    }
    q.stat_next = lo + id;
    q.stat_end = hi;
    q.stat_stride = n;
    return mode;
  }
  if constexpr (S)
    return mode;
  /* the queue's waiters end the phase when the done counter reaches
   * q.target: static shares before may have left finished tasks unflushed */
  if (q.my_done)
    gtrt_tq_flush(q);
  q.ring_used = q.policy == GTRT_TQ_SHARED;
  for (unsigned i = row.root_lo + threadIdx.x * gridDim.x + blockIdx.x; i < row.root_hi; i += threads)
    gtrt_tq_push(q, __ldg(ph.roots + i));
  if (q.prof) /* pushes of lanes other than lane 0 count CAS retries too */
    gtrt_tq_flush(q);
  return mode;
}

/* Thread 0 of a block in the grid barrier: polls *p (acquire) until it
 * reaches target (mod 2^32). The status is loaded once right after the
 * arrival (its latency hides behind the polls) and then every 128 polls,
 * with the watchdog: no change of the done counter for q.timeout_ns (blocks
 * still in the phase may be running long tasks). false: the region is
 * stopped. */
__device__ __forceinline__ bool gtrt_tq_wait_until(gtrt_taskq &q, const unsigned *p, unsigned target) {
  const bool stopped = gtrt_tq_stopped(q);
  unsigned n = 0, seen = 0;
  unsigned long long since = 0;
  while ((int)(gtrt_tq_ld_acquire(p) - target) < 0) {
    if ((++n & 127u) == 0) {
      if (gtrt_tq_stopped(q))
        return false;
      unsigned d = gtrt_tq_ld(q.ctl + GTRT_TQ_DONE);
      unsigned long long now = gtrt_tq_now();
      if (n == 128u || d != seen) {
        seen = d;
        since = now;
      } else if (q.timeout_ns && now - since > q.timeout_ns) {
        gtrt_tq_stop(q, GTRT_ERR_TIMEOUT);
        return false;
      }
    }
    if (n > 64)
      __nanosleep(n < 1024 ? 32 : 256);
  }
  return !stopped; /* the acquire load ordered the other blocks' writes before this block's next reads */
}

/* Thread 0 of each block, after the block's __syncthreads: the grid
 * barrier (ordering: header comment). Arrivals only grow: barrier number
 * q.bar_seq is complete when the count reaches (q.bar_seq + 1) * gridDim.x
 * (mod 2^32), so nobody resets it. After a phase that used the shared ring,
 * the last arriver resets the ring and then bumps the generation, which the
 * others wait for instead. Otherwise a barrier that completes at once
 * costs one fence, one atomic without a result and the polls. false: the
 * region is stopped. */
__device__ __forceinline__ bool gtrt_tq_grid_barrier(gtrt_taskq &q) {
  unsigned *arrive = q.ctl + GTRT_TQ_BAR_ARRIVE, *gen = q.ctl + GTRT_TQ_BAR_GEN;
  const unsigned target = (q.bar_seq + 1u) * gridDim.x;
  q.bar_seq++;
  if (q.ring_used) {
    const unsigned g = gtrt_tq_ld(gen); /* read before arriving: the last arriver bumps it after */
    gtrt_tq_fence();                    /* release of the block's writes */
    if (atomicAdd(arrive, 1u) + 1u == target) {
      gtrt_tq_fence(); /* acquire of every block's arrival */
      atomicExch(q.ctl + GTRT_TQ_HEAD(0), 0u);
      atomicExch(q.ctl + GTRT_TQ_TAIL(0), 0u);
      gtrt_tq_fence();
      atomicAdd(gen, 1u);
      return !gtrt_tq_stopped(q);
    }
    return gtrt_tq_wait_until(q, gen, g + 1u);
  }
  gtrt_tq_fence();       /* release of the block's writes */
  atomicAdd(arrive, 1u); /* result unused: no round trip */
  return gtrt_tq_wait_until(q, arrive, target);
}

/* Called by every thread of the grid after its task loop of a phase that
 * gtrt_phase_begin started: a grid barrier, once the next phase's record
 * (gtrt_phase_fetch) has landed. The worker's state is clean there
 * (gtrt_task_next returned false: nothing kept). After the region's last
 * phase with tasks (q.target == q.ntasks) the finished tasks are flushed,
 * so the done count is exact at the end. false (in every thread of a
 * block): the region is stopped (overflow, watchdog); the kernel returns. */
__device__ __forceinline__ bool gtrt_phase_end(gtrt_taskq &q) {
  __shared__ int gtrt_tq_bar_ok;
  if (q.my_done && q.target == q.ntasks)
    gtrt_tq_flush(q);
  gtrt_phase_landed();
  __syncthreads();
  if (threadIdx.x == 0)
    gtrt_tq_bar_ok = gtrt_tq_grid_barrier(q);
  __syncthreads();
  return gtrt_tq_bar_ok != 0; /* rewritten only after the next call's first barrier */
}

#endif
