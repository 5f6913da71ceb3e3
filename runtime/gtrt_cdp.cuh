/* Device helpers for CollectiveDP kernels (nested parallel loops), included
 * by generated .gt.cu files that have them. */
#ifndef GTRT_CDP_CUH
#define GTRT_CDP_CUH

#include "gtrt_device.cuh"

enum { GTRT_REL_LT, GTRT_REL_LE, GTRT_REL_GT, GTRT_REL_GE };

/* Trip count of for (v = lb; v REL ub; v += st), computed by the parent
 * thread for the inner loop; 0 for empty or ill-formed loops. */
__host__ __device__ __forceinline__ long long gtrt_trip(long long lb, long long ub, long long st, int rel) {
  switch (rel) {
  case GTRT_REL_LT: return st > 0 && lb < ub ? (ub - lb + st - 1) / st : 0;
  case GTRT_REL_LE: return st > 0 && lb <= ub ? (ub - lb) / st + 1 : 0;
  case GTRT_REL_GT: return st < 0 && lb > ub ? (lb - ub - st - 1) / -st : 0;
  default: return st < 0 && lb >= ub ? (lb - ub) / -st + 1 : 0;
  }
}

/* Shuffles any trivially copyable value (a saved context) from lane src,
 * 4 bytes at a time. All 32 lanes call it. */
template <class T> __device__ __forceinline__ T gtrt_shfl_any(const T &v, int src) {
  static_assert(sizeof(T) % 4 == 0, "gtrt_shfl_any: size must be a multiple of 4");
  T r;
  const int *s = reinterpret_cast<const int *>(&v);
  int *d = reinterpret_cast<int *>(&r);
#pragma unroll
  for (unsigned i = 0; i < sizeof(T) / 4; i++) d[i] = __shfl_sync(0xffffffffu, s[i], src);
  return r;
}

/* Warp-aggregated reservation in a context buffer: every lane with `want`
 * asks for one context slot and `nitems` item slots; the warp makes one
 * compare-and-swap per counter for all of them. counts[0] counts contexts
 * (capacity ctx_cap), counts[1] items (capacity item_cap). Returns whether
 * this lane got its slots; a full buffer refuses the whole warp's request
 * (the caller then runs the work itself, so nothing is dropped). All 32
 * lanes call it. */
__device__ __forceinline__ bool gtrt_cdp_reserve(bool want, unsigned nitems, unsigned *counts, unsigned ctx_cap,
                                                 unsigned item_cap, unsigned *slot, unsigned *first_item) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned mask = __ballot_sync(0xffffffffu, want);
  if (!mask) return false;
  /* exclusive prefix of item counts over the lanes, and the totals */
  unsigned items = want ? nitems : 0u, scan = items;
#pragma unroll
  for (unsigned off = 1; off < 32; off <<= 1) {
    unsigned v = __shfl_up_sync(0xffffffffu, scan, off);
    if (lane >= off) scan += v;
  }
  const unsigned total_items = __shfl_sync(0xffffffffu, scan, 31);
  const unsigned nctx = __popc(mask);
  const int leader = __ffs(mask) - 1;
  unsigned base_ctx = 0, base_item = 0;
  int ok = 0;
  if ((int)lane == leader) {
    unsigned old = atomicAdd(&counts[0], 0u);
    for (;;) { /* contexts: never past the capacity, so readers can trust the count */
      if (old + nctx > ctx_cap) break;
      unsigned seen = atomicCAS(&counts[0], old, old + nctx);
      if (seen == old) { ok = 1; break; }
      old = seen;
    }
    base_ctx = old;
    if (ok) {
      old = atomicAdd(&counts[1], 0u);
      for (;;) {
        if (old + total_items > item_cap) { ok = 0; break; }
        unsigned seen = atomicCAS(&counts[1], old, old + total_items);
        if (seen == old) break;
        old = seen;
      }
      base_item = old;
    }
  }
  ok = __shfl_sync(0xffffffffu, ok, leader);
  base_ctx = __shfl_sync(0xffffffffu, base_ctx, leader);
  base_item = __shfl_sync(0xffffffffu, base_item, leader);
  if (!ok || !want) return false;
  *slot = base_ctx + __popc(mask & ((1u << lane) - 1u));
  *first_item = base_item + scan - items;
  return true;
}

#endif
