/* Device-side support for generated .gt.cu files (C++, compiled by nvcc):
 * checked CUDA calls, launch checks, reduction operators, block reductions
 * and the host fold of per-block partials. Host API: gtrt.h. */
#ifndef GTRT_DEVICE_CUH
#define GTRT_DEVICE_CUH

#include <cuda_runtime.h>

#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <memory>

#include "gtrt.h"
#include "gtrt_atomic.cuh"

/* ---- checked CUDA calls ------------------------------------------------------ */

/* Evaluates a CUDA call once; on failure records a message naming the user's
 * region (site) and the call, prints it and exits. */
#define GTRT_CUDA(site, call)                                                                      \
  do {                                                                                             \
    cudaError_t gtrt_e_ = (call);                                                                  \
    if (gtrt_e_ != cudaSuccess) {                                                                  \
      gtrt_check_cuda((site), (int)gtrt_e_, #call, __FILE__, __LINE__);                            \
      gtrt_fatal();                                                                                \
    }                                                                                              \
  } while (0)

/* Same, but returns GTRT_ERR_CUDA from the enclosing function instead of
 * exiting (for stubs that return a gtrt_status). */
#define GTRT_CUDA_RETURN(site, call)                                                               \
  do {                                                                                             \
    cudaError_t gtrt_e_ = (call);                                                                  \
    if (gtrt_e_ != cudaSuccess)                                                                    \
      return gtrt_check_cuda((site), (int)gtrt_e_, #call, __FILE__, __LINE__);                     \
  } while (0)

/* After a kernel launch: launch errors (bad configuration) show up in
 * cudaGetLastError, faults inside the kernel at the synchronize. */
#define GTRT_LAUNCH_CHECK(site)                                                                    \
  do {                                                                                             \
    GTRT_CUDA(site, cudaGetLastError());                                                           \
    GTRT_CUDA(site, cudaDeviceSynchronize());                                                      \
  } while (0)

/* ---- reduction operators ------------------------------------------------------- */

/* One tag per OpenMP/OpenACC scalar reduction operator. identity<T>() is the
 * initial value of each private copy; apply(a, b) combines two. Results are
 * converted back to T so char/short operands do not widen. */
struct gtrt_red_add {
  template <class T> __host__ __device__ static T identity() { return T(0); }
  template <class T> __host__ __device__ static T apply(T a, T b) { return T(a + b); }
};
struct gtrt_red_mul {
  template <class T> __host__ __device__ static T identity() { return T(1); }
  template <class T> __host__ __device__ static T apply(T a, T b) { return T(a * b); }
};
struct gtrt_red_max {
  /* -inf for floating types (as the CPU build of max uses), else lowest. */
  template <class T> __host__ __device__ static T identity() {
    if constexpr (cuda::std::numeric_limits<T>::has_infinity)
      return -cuda::std::numeric_limits<T>::infinity();
    else
      return cuda::std::numeric_limits<T>::lowest();
  }
  template <class T> __host__ __device__ static T apply(T a, T b) { return b > a ? b : a; }
};
struct gtrt_red_min {
  template <class T> __host__ __device__ static T identity() {
    if constexpr (cuda::std::numeric_limits<T>::has_infinity)
      return cuda::std::numeric_limits<T>::infinity();
    else
      return cuda::std::numeric_limits<T>::max();
  }
  template <class T> __host__ __device__ static T apply(T a, T b) { return b < a ? b : a; }
};
struct gtrt_red_band {
  template <class T> __host__ __device__ static T identity() { return T(~T(0)); }
  template <class T> __host__ __device__ static T apply(T a, T b) { return T(a & b); }
};
struct gtrt_red_bor {
  template <class T> __host__ __device__ static T identity() { return T(0); }
  template <class T> __host__ __device__ static T apply(T a, T b) { return T(a | b); }
};
struct gtrt_red_bxor {
  template <class T> __host__ __device__ static T identity() { return T(0); }
  template <class T> __host__ __device__ static T apply(T a, T b) { return T(a ^ b); }
};
struct gtrt_red_land {
  template <class T> __host__ __device__ static T identity() { return T(1); }
  template <class T> __host__ __device__ static T apply(T a, T b) { return T(a != T(0) && b != T(0)); }
};
struct gtrt_red_lor {
  template <class T> __host__ __device__ static T identity() { return T(0); }
  template <class T> __host__ __device__ static T apply(T a, T b) { return T(a != T(0) || b != T(0)); }
};

/* Names any C type where a declaration needs it before the name: a
 * function pointer saved in a context, `gtrt_type<double (*)(double)> op`. */
template <class T> using gtrt_type = T;

/* ---- pointers to variable-length arrays ----------------------------------------- */

/* C's `double (*A)[m]` has no C++ spelling; kernels get these views
 * instead, so `A[i][j]` in a copied loop body still means element (i, j).
 * gtrt_vla1: one inner dimension of n1 elements; gtrt_vla2: two (n1 x n2). */
template <class T> struct gtrt_vla1;

/* A row a[i] of a view: indexes like C's array row, decays to T * like it
 * (passed to `double *`, `*a[i]`, `a[i] + k`), and &a[i] is a view again. */
template <class T> struct gtrt_vla_row {
  T *p;
  long long n1;
  __host__ __device__ T &operator[](long long j) const { return p[j]; }
  __host__ __device__ operator T *() const { return p; }
  __host__ __device__ gtrt_vla1<T> operator&() const { return {p, n1}; }
};

template <class T> struct gtrt_vla1 {
  T *p;
  long long n1;
  gtrt_vla1() = default;
  __host__ __device__ gtrt_vla1(T *p_, long long n1_) : p(p_), n1(n1_) {}
  /* a C array of constant rows (`double a[4][4]` passed to a parameter `double a[][m]`) */
  template <size_t N> __host__ __device__ gtrt_vla1(T (*a)[N]) : p(&a[0][0]), n1((long long)N) {}
  /* double rows to a parameter of const double rows */
  template <class U> __host__ __device__ gtrt_vla1(const gtrt_vla1<U> &o) : p(o.p), n1(o.n1) {}
  __host__ __device__ gtrt_vla_row<T> operator[](long long i) const { return {p + i * n1, n1}; }
  /* the pointer arithmetic of `double (*a)[m]`: *a, a + i, a - i */
  __host__ __device__ gtrt_vla_row<T> operator*() const { return {p, n1}; }
  __host__ __device__ gtrt_vla1 operator+(long long i) const { return {p + i * n1, n1}; }
  __host__ __device__ gtrt_vla1 operator-(long long i) const { return {p - i * n1, n1}; }
  /* back to C's pointer to rows of constant size (`double (*q)[4] = Q + i`):
   * the view came from a pointer of that type, so n1 == N */
  template <class U, size_t N> using rows = U (*)[N];
  template <class U, size_t N> __host__ __device__ operator rows<U, N>() const {
    static_assert(cuda::std::is_same<const U, const T>::value &&
                      (cuda::std::is_const<U>::value || !cuda::std::is_const<T>::value),
                  "a view converts only to a pointer to rows of its element type");
    return reinterpret_cast<rows<U, N>>(p);
  }
};
template <class T> struct gtrt_vla2 {
  T *p;
  long long n1, n2;
  gtrt_vla2() = default;
  __host__ __device__ gtrt_vla2(T *p_, long long n1_, long long n2_) : p(p_), n1(n1_), n2(n2_) {}
  template <size_t N1, size_t N2>
  __host__ __device__ gtrt_vla2(T (*a)[N1][N2]) : p(&a[0][0][0]), n1((long long)N1), n2((long long)N2) {}
  template <class U> __host__ __device__ gtrt_vla2(const gtrt_vla2<U> &o) : p(o.p), n1(o.n1), n2(o.n2) {}
  __host__ __device__ gtrt_vla1<T> operator[](long long i) const { return {p + i * n1 * n2, n2}; }
};

/* ---- glibc's isinf ------------------------------------------------------------- */

/* glibc's isinf(x) is -1 for negative infinity (C promises only nonzero),
 * CUDA's is 1: where the host build uses glibc's form, the .gt.cu maps isinf
 * here so both builds compute the same value. */
template <class T> __host__ __device__ inline int gtrt_isinf_sign(T x) { return isinf(x) ? (x < 0 ? -1 : 1) : 0; }

/* ---- omp critical ---------------------------------------------------------------- */

/* A spin lock per critical name (frontend/critical.c). The lanes of a warp
 * that reach a critical block together take the lock once: the lowest lane
 * (the lead) acquires it, the lanes run the block one after another, with a
 * __syncwarp after each turn (it orders the memory accesses of the warp's
 * lanes, so each turn sees the last one's writes), and the lead releases it
 * with a device-scope fence, which the barriers order after every lane's
 * writes. One lock handoff per warp, not
 * per thread: an arg-max over 400000 points with a guard every thread passed
 * at first took minutes with a handoff per thread. Lanes that arrive later
 * (diverged) form their own group; since Volta the scheduler lets a holder go
 * on while its warp-mates spin. The fences order the block's memory accesses
 * after the acquiring exchange and before the release. */
__device__ __forceinline__ unsigned gtrt_lane_id() {
  unsigned l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}

/* Is this lane the lowest of mask (the lead, or the lane whose turn it is)? */
__device__ __forceinline__ bool gtrt_critical_first(unsigned mask) { return gtrt_lane_id() == (unsigned)(__ffs(mask) - 1); }

__device__ inline void gtrt_critical_enter(unsigned *lock) {
  unsigned ns = 32;
  while (atomicCAS(lock, 0u, 1u) != 0u) {
    __nanosleep(ns);
    if (ns < 256) ns *= 2; /* short: a waiter that sleeps longer leaves the free lock idle */
  }
  __threadfence();
}

__device__ inline void gtrt_critical_exit(unsigned *lock) {
  __threadfence();
  atomicExch(lock, 0u);
}

/* ---- block reduction ---------------------------------------------------------- */

/* __shfl_down_sync has overloads for 4- and 8-byte types; narrower ones
 * (char, short, bool) travel as int. */
template <class T> __device__ __forceinline__ T gtrt_shfl_down(T v, unsigned off) {
  if constexpr (sizeof(T) < sizeof(int))
    return T(__shfl_down_sync(0xffffffffu, int(v), off));
  else
    return __shfl_down_sync(0xffffffffu, v, off);
}

/* Warp-wide reduction; the result is valid in lane 0. All 32 lanes call it. */
template <class Op, class T> __device__ __forceinline__ T gtrt_warp_reduce(T v) {
  for (unsigned off = 16; off > 0; off >>= 1)
    v = Op::apply(v, gtrt_shfl_down(v, off));
  return v;
}

/* Block-wide reduction; every thread of the block must call it (it has
 * barriers); the block size is a multiple of 32, at most 1024. Result valid
 * in thread 0. It may be called again right away (the trailing barrier
 * protects the shared slots). */
template <class Op, class T> __device__ T gtrt_block_reduce(T v) {
  static_assert(cuda::std::is_arithmetic<T>::value, "gtrt_block_reduce: arithmetic types only");
  __shared__ T gtrt_warp_vals[32];
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned lane = tid & 31u, warp = tid >> 5;
  v = gtrt_warp_reduce<Op>(v);
  if (nthreads <= 32)
    return v;
  if (lane == 0)
    gtrt_warp_vals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (nthreads >> 5) ? gtrt_warp_vals[lane] : Op::template identity<T>();
    v = gtrt_warp_reduce<Op>(v);
  }
  __syncthreads();
  return v;
}

/* ---- host fold of partials ------------------------------------------------------- */

/* Copies n per-block partials back (checked, naming site) and folds them
 * into init, the value the reduction variable had before the region. */
template <class Op, class T>
T gtrt_reduce_partials(const gtrt_site *site, const T *dev_partials, unsigned n, T init) {
  if (n == 0)
    return init;
  std::unique_ptr<T[]> h(new T[n]); /* not std::vector: vector<bool> packs bits */
  GTRT_CUDA(site, cudaMemcpy(h.get(), dev_partials, sizeof(T) * n, cudaMemcpyDeviceToHost));
  T acc = init;
  for (unsigned i = 0; i < n; i++)
    acc = Op::apply(acc, h[i]);
  return acc;
}

#endif
