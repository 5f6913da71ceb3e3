/* Device helpers for CollectiveDP kernels (nested parallel loops), included
 * by generated .gt.cu files that have them. */
#ifndef GTRT_CDP_CUH
#define GTRT_CDP_CUH

#include "gtrt_device.cuh"

#include <type_traits>

/* `#pragma unroll N` with N from a macro (pragma arguments are not expanded). */
#define GTRT_PRAGMA_STR(x) #x
#define GTRT_UNROLL(n) _Pragma(GTRT_PRAGMA_STR(unroll n))

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

/* Work items (NLK blocks) for an inner loop of itc iterations: one per
 * `chunk` iterations; a loop of fewer than `split` such items gets up to
 * `split` items of at least `min_chunk` iterations, so that a row of 14000
 * runs on 7 blocks, not 1 (small power-law matrix: +7 %). */
__host__ __device__ __forceinline__ unsigned gtrt_cdp_nchunks(long long itc, long long chunk, long long min_chunk,
                                                             unsigned split) {
  const long long n = (itc + chunk - 1) / chunk;
  if (n >= (long long)split || min_chunk >= chunk) return (unsigned)n;
  const long long m = (itc + min_chunk - 1) / min_chunk;
  return (unsigned)(m < (long long)split ? (m > n ? m : n) : split);
}

/* Iterations per item of a loop split into nch items (the last may be shorter). */
__host__ __device__ __forceinline__ long long gtrt_cdp_chunk(long long itc, unsigned nch) {
  return (itc + nch - 1) / nch;
}

/* Reservation in a context buffer by the lanes of `mask` (the converged
 * lanes that each want one context slot and `nitems` item slots; every lane
 * in mask calls it): the group makes one compare-and-swap per counter for
 * all of them. counts[0] counts contexts (capacity ctx_cap), counts[1] items
 * (capacity item_cap); neither ever passes its capacity, so readers can
 * trust them. Returns false for the whole group when the buffer is full:
 * the caller then runs the work itself, so nothing is dropped. */
__device__ __forceinline__ bool gtrt_cdp_reserve(unsigned mask, unsigned nitems, unsigned *counts, unsigned ctx_cap,
                                                 unsigned item_cap, unsigned *slot, unsigned *first_item) {
  const unsigned lane = threadIdx.x & 31u;
  const int leader = __ffs(mask) - 1;
  unsigned before = 0, total = 0; /* items of the lanes below this one, of all */
  for (unsigned m = mask; m; m &= m - 1) {
    const int b = __ffs(m) - 1;
    const unsigned v = __shfl_sync(mask, nitems, b);
    if (b < (int)lane) before += v;
    total += v;
  }
  unsigned base_ctx = 0, base_item = 0;
  int ok = 0;
  if ((int)lane == leader) {
    const unsigned nctx = __popc(mask);
    unsigned old = atomicAdd(&counts[0], 0u);
    while (old + nctx <= ctx_cap) {
      const unsigned seen = atomicCAS(&counts[0], old, old + nctx);
      if (seen == old) {
        ok = 1;
        break;
      }
      old = seen;
    }
    base_ctx = old;
    if (ok) {
      old = atomicAdd(&counts[1], 0u);
      ok = 0;
      while (old + total <= item_cap) {
        const unsigned seen = atomicCAS(&counts[1], old, old + total);
        if (seen == old) {
          ok = 1;
          break;
        }
        old = seen;
      }
      base_item = old;
    }
  }
  ok = __shfl_sync(mask, ok, leader);
  base_ctx = __shfl_sync(mask, base_ctx, leader);
  base_item = __shfl_sync(mask, base_item, leader);
  if (!ok) return false;
  *slot = base_ctx + __popc(mask & ((1u << lane) - 1u));
  *first_item = base_item + before;
  return true;
}

/* A streaming load (cache-streaming: evict first) of an element that is
 * read once; the plain load for types without one. */
template <class T> __device__ __forceinline__ T gtrt_ld_stream(const T *p) {
  if constexpr (std::is_same<T, double>::value || std::is_same<T, float>::value || std::is_same<T, int>::value ||
                std::is_same<T, unsigned>::value || std::is_same<T, long>::value ||
                std::is_same<T, unsigned long>::value || std::is_same<T, long long>::value ||
                std::is_same<T, unsigned long long>::value || std::is_same<T, short>::value ||
                std::is_same<T, unsigned short>::value || std::is_same<T, char>::value ||
                std::is_same<T, signed char>::value || std::is_same<T, unsigned char>::value)
    return __ldcs(p);
  else
    return *p;
}

/* ---- the warp-flat tier: the short inner loops of a warp's 32 outer
 * iterations, flattened and run 32 iterations at a time ------------------- */

/* Lane src's value of v; every lane names its own src. */
template <class T> __device__ __forceinline__ T gtrt_shfl_idx(T v, int src) {
  if constexpr (sizeof(T) < sizeof(int))
    return T(__shfl_sync(0xffffffffu, int(v), src));
  else
    return __shfl_sync(0xffffffffu, v, src);
}

/* Segmented reduction over a warp whose lanes hold consecutive flattened
 * iterations: lanes with equal key form one segment, and the first lane of
 * each segment ends with the segment's total. All 32 lanes call it. */
template <class Op, class T> __device__ __forceinline__ T gtrt_segment_reduce(T v, int key) {
  const unsigned lane = threadIdx.x & 31u;
#pragma unroll
  for (unsigned off = 1; off < 32; off <<= 1) {
    const T o = gtrt_shfl_down(v, off);
    const int k = __shfl_down_sync(0xffffffffu, key, off);
    if (lane + off < 32 && k == key) v = Op::apply(v, o);
  }
  return v;
}

/* The lane whose exclusive offset `off` is the largest one <= f: the owner
 * of flattened iteration f (lanes without iterations are skipped). */
__device__ __forceinline__ int gtrt_lane_owner(int off, int f) {
  int r = 0;
#pragma unroll
  for (int step = 16; step > 0; step >>= 1)
    if (__shfl_sync(0xffffffffu, off, r + step) <= f) r += step;
  return r;
}

/* *x = Op::apply(*x, v) for a 4- or 8-byte T, atomically: the blocks of a
 * next-level kernel combine their share of an outer loop's reduction into
 * one slot (one swap per block, at its end). */
template <class Op, class T> __device__ __forceinline__ void gtrt_red_atomic(T *x, T v) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "gtrt_red_atomic: 4- or 8-byte types only");
  gtrt_abits<T> *w = (gtrt_abits<T> *)x;
  gtrt_abits<T> old = *(volatile gtrt_abits<T> *)w, seen;
  do {
    seen = old;
    old = atomicCAS(w, seen, gtrt_to_bits(Op::apply(gtrt_from_bits<T>(seen), v)));
  } while (old != seen);
}

#endif
