/* Atomic constructs in device code. frontend/atomics.c rewrites the
 * statement after `acc atomic` / `omp atomic` into these calls:
 *
 *   gtrt_atomic<OP, RET, ORDER>(&x, e)    x = x OP e; RET 0: x's old value, 1: its new one
 *   gtrt_atomic_r<OP, RET, ORDER>(e, &x)  x = e OP x
 *   gtrt_atomic_read<ORDER>(&x), gtrt_atomic_write<ORDER>(&x, e)
 *   gtrt_atomic_cas_if<ORDER>(e, &x, d)   if (x == e) x = d
 *   gtrt_atomic_cas_eq<ORDER>(&x, e, d)   x = x == e ? d : x
 *
 * The new value is computed as C computes `x = x OP e` (usual arithmetic
 * conversions, then back to x's type), so the result is the CPU build's up
 * to the order of the updates. A hardware atomic serves where it gives that
 * value (integer += -= & | ^ with an integer e, min/max of one integer type,
 * floating += and -=; a float x with a double e up to its last bit);
 * everything else is a compare-and-swap loop on x's bits. ORDER: 0 relaxed,
 * 1 seq_cst / acq_rel (a fence before and after), 2 acquire (after),
 * 3 release (before).
 *
 * x may be thread-local (a variable of the loop body, a private copy):
 * atomics on local memory are undefined in CUDA, and no other thread can
 * see it, so a plain update serves. */
#ifndef GTRT_ATOMIC_CUH
#define GTRT_ATOMIC_CUH

#include <cuda/std/type_traits>

enum {
  GTRT_AOP_ADD, GTRT_AOP_SUB, GTRT_AOP_MUL, GTRT_AOP_DIV, GTRT_AOP_AND, GTRT_AOP_OR, GTRT_AOP_XOR,
  GTRT_AOP_SHL, GTRT_AOP_SHR, GTRT_AOP_SET, GTRT_AOP_MIN, GTRT_AOP_MAX
};

/* x's new value (type T) from `a OP b` as C computes it: x = x OP e is
 * gtrt_aop<OP, T>(x, e), x = e OP x is gtrt_aop<OP, T>(e, x). MIN and MAX
 * keep the smaller or larger of x (a) and e (b); SET gives e. */
template <int OP, class T, class A, class B> __device__ __forceinline__ T gtrt_aop(A a, B b) {
  if constexpr (OP == GTRT_AOP_ADD) return (T)(a + b);
  else if constexpr (OP == GTRT_AOP_SUB) return (T)(a - b);
  else if constexpr (OP == GTRT_AOP_MUL) return (T)(a * b);
  else if constexpr (OP == GTRT_AOP_DIV) return (T)(a / b);
  else if constexpr (OP == GTRT_AOP_AND) return (T)(a & b);
  else if constexpr (OP == GTRT_AOP_OR) return (T)(a | b);
  else if constexpr (OP == GTRT_AOP_XOR) return (T)(a ^ b);
  else if constexpr (OP == GTRT_AOP_SHL) return (T)(a << b);
  else if constexpr (OP == GTRT_AOP_SHR) return (T)(a >> b);
  else if constexpr (OP == GTRT_AOP_MIN) return (T)(b < a ? b : a); /* x = e < x ? e : x */
  else if constexpr (OP == GTRT_AOP_MAX) return (T)(b > a ? b : a);
  else return (T)b;
}

template <int ORDER> __device__ __forceinline__ void gtrt_atomic_fence_before() {
  if constexpr (ORDER == 1 || ORDER == 3) __threadfence();
}
template <int ORDER> __device__ __forceinline__ void gtrt_atomic_fence_after() {
  if constexpr (ORDER == 1 || ORDER == 2) __threadfence();
}

/* The unsigned integer type of T's size: what atomicCAS works on. */
template <class T>
using gtrt_abits = typename cuda::std::conditional<sizeof(T) == 4, unsigned int, unsigned long long>::type;

template <class T> __device__ __forceinline__ gtrt_abits<T> gtrt_to_bits(T v) {
  gtrt_abits<T> b;
  memcpy(&b, &v, sizeof v);
  return b;
}
template <class T> __device__ __forceinline__ T gtrt_from_bits(gtrt_abits<T> b) {
  T v;
  memcpy(&v, &b, sizeof v);
  return v;
}

/* The swap loop for the lanes of a warp that update one word together:
 * each lane computes the whole chain of the group's updates (in lane order,
 * the values passed round by shuffles) from the value the first lane read,
 * and that lane swaps once for all. One swap per warp instead of 32: on a
 * word every thread updates, the retries that lost were what cost. An
 * update that leaves x as it is (a minimum above x, x *= 1) writes nothing;
 * a failed swap waits a little longer each time. REV: x = e OP x. The lane's
 * old value; *neu its new one. */
template <int OP, bool REV, class T, class E> __device__ __forceinline__ T gtrt_atomic_cas_warp(T *x, T *neu, E e) {
  using C = decltype(T() + E());
  using B = gtrt_abits<T>;
  const unsigned peers = __match_any_sync(__activemask(), (unsigned long long)x);
  const int lane = (int)(threadIdx.x & 31u), first = __ffs(peers) - 1;
  const C ce = (C)e;
  B seen = lane == first ? *(volatile B *)x : (B)0;
  seen = __shfl_sync(peers, seen, first);
  unsigned wait = 16;
  for (;;) {
    T v = gtrt_from_bits<T>(seen), old = v, n = v;
    for (unsigned m = peers; m; m &= m - 1) {
      const int p = __ffs(m) - 1;
      const C ep = __shfl_sync(peers, ce, p);
      const T nv = REV ? gtrt_aop<OP, T>(ep, v) : gtrt_aop<OP, T>(v, ep);
      if (p == lane) old = v, n = nv;
      v = nv;
    }
    const B nb = gtrt_to_bits(v);
    B got = seen;
    if (lane == first && nb != seen) got = atomicCAS((B *)x, seen, nb); /* bits: a NaN does not loop */
    got = __shfl_sync(peers, got, first);
    if (got == seen) {
      *neu = n;
      return old;
    }
    seen = got;
    __nanosleep(wait);
    if (wait < 4096) wait *= 2;
  }
}

/* A hardware instruction for x = x OP e with C's result, if there is one:
 * true and the old value in *old. */
template <int OP, class T, class E> __device__ __forceinline__ bool gtrt_atomic_hw(T *x, E e, T *old) {
  using C = decltype(T() + E());
  constexpr bool same = cuda::std::is_same<C, T>::value;
  constexpr bool i32 = cuda::std::is_integral<T>::value && sizeof(T) == 4;
  constexpr bool i64 = cuda::std::is_integral<T>::value && sizeof(T) == 8;
  /* Integers: C's sum (or &, |, ^) in a type at least as wide as T, cut to
   * T's bits, has the bits of T's own two's-complement operation on e cut
   * to T first. */
  constexpr bool ints = (i32 || i64) && cuda::std::is_integral<E>::value;
  constexpr bool floats = (cuda::std::is_same<T, float>::value || cuda::std::is_same<T, double>::value) &&
                          cuda::std::is_floating_point<E>::value;
  using U = gtrt_abits<T>;
  if constexpr ((OP == GTRT_AOP_ADD || OP == GTRT_AOP_SUB) && ints) {
    U d = OP == GTRT_AOP_ADD ? (U)(T)e : (U)0 - (U)(T)e;
    *old = (T)atomicAdd((U *)x, d);
    return true;
  } else if constexpr ((OP == GTRT_AOP_ADD || OP == GTRT_AOP_SUB) && floats) {
    /* x - e == x + (-e) exactly. A float x with a double e (f += 0.1) adds e
     * rounded to float: it may differ from C's double sum rounded to float
     * in the last bit, as the order of the updates already may; a swap loop
     * on one word is a hundred times slower when many threads share it. */
    *old = atomicAdd(x, OP == GTRT_AOP_ADD ? (T)e : -(T)e);
    return true;
  } else if constexpr ((OP == GTRT_AOP_AND || OP == GTRT_AOP_OR || OP == GTRT_AOP_XOR) && ints) {
    if constexpr (OP == GTRT_AOP_AND) *old = (T)atomicAnd((U *)x, (U)(T)e);
    else if constexpr (OP == GTRT_AOP_OR) *old = (T)atomicOr((U *)x, (U)(T)e);
    else *old = (T)atomicXor((U *)x, (U)(T)e);
    return true;
  } else if constexpr ((OP == GTRT_AOP_MIN || OP == GTRT_AOP_MAX) && same && (i32 || i64)) {
    /* signed or unsigned as T is */
    using S = typename cuda::std::conditional<cuda::std::is_signed<T>::value,
                                              typename cuda::std::conditional<i32, int, long long>::type, U>::type;
    if constexpr (OP == GTRT_AOP_MIN) *old = (T)atomicMin((S *)x, (S)e);
    else *old = (T)atomicMax((S *)x, (S)e);
    return true;
  } else if constexpr (OP == GTRT_AOP_SET) {
    *old = gtrt_from_bits<T>(atomicExch((U *)x, gtrt_to_bits((T)e)));
    return true;
  } else {
    (void)x, (void)e, (void)old;
    return false;
  }
}

/* x = x OP e (REV: x = e OP x); x's old value (RET 0) or its new one (RET 1). */
template <int OP, bool REV, int RET, int ORDER, class T, class E>
__device__ __forceinline__ T gtrt_atomic_rmw(T *x, E e) {
  T old, n;
  if (__isLocal(x)) {
    old = *x;
    n = *x = REV ? gtrt_aop<OP, T>(e, old) : gtrt_aop<OP, T>(old, e);
    return RET ? n : old;
  }
  gtrt_atomic_fence_before<ORDER>();
  bool done = false;
  if constexpr (!REV) done = gtrt_atomic_hw<OP>(x, e, &old);
  if (done) n = gtrt_aop<OP, T>(old, e);
  else old = gtrt_atomic_cas_warp<OP, REV>(x, &n, e);
  gtrt_atomic_fence_after<ORDER>();
  return RET ? n : old;
}

template <int OP, int RET, int ORDER, class T, class E> __device__ __forceinline__ T gtrt_atomic(T *x, E e) {
  return gtrt_atomic_rmw<OP, false, RET, ORDER>(x, e);
}

template <int OP, int RET, int ORDER, class E, class T> __device__ __forceinline__ T gtrt_atomic_r(E e, T *x) {
  constexpr bool commutative = (OP == GTRT_AOP_ADD || OP == GTRT_AOP_MUL || OP == GTRT_AOP_AND ||
                                OP == GTRT_AOP_OR || OP == GTRT_AOP_XOR) &&
                               cuda::std::is_same<decltype(E() + T()), decltype(T() + E())>::value;
  return gtrt_atomic_rmw<OP, !commutative, RET, ORDER>(x, e); /* e OP x == x OP e: the hardware may serve */
}

/* `if (x == e) x = d;` (atomic compare): true if x held e and now holds d. */
template <int ORDER, class E, class T, class D> __device__ __forceinline__ bool gtrt_atomic_cas_if(E e, T *x, D d) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomic access to 4- or 8-byte values only");
  if (__isLocal(x)) {
    if (!(*x == e)) return false;
    *x = (T)d;
    return true;
  }
  gtrt_atomic_fence_before<ORDER>();
  gtrt_abits<T> *bx = (gtrt_abits<T> *)x;
  gtrt_abits<T> seen = *(volatile gtrt_abits<T> *)bx, was;
  const gtrt_abits<T> nb = gtrt_to_bits((T)d);
  bool swapped = false;
  unsigned wait = 16;
  while (gtrt_from_bits<T>(seen) == e) {
    was = seen;
    seen = atomicCAS(bx, was, nb);
    if (seen == was) {
      swapped = true;
      break;
    }
    __nanosleep(wait);
    if (wait < 4096) wait *= 2;
  }
  gtrt_atomic_fence_after<ORDER>();
  return swapped;
}

/* `x = x == e ? d : x;`: the same. */
template <int ORDER, class T, class E, class D> __device__ __forceinline__ bool gtrt_atomic_cas_eq(T *x, E e, D d) {
  return gtrt_atomic_cas_if<ORDER>(e, x, d);
}

/* Loads and stores of 4 and 8 aligned bytes are single accesses; volatile
 * keeps the compiler from caching or splitting them. */
template <int ORDER, class T> __device__ __forceinline__ T gtrt_atomic_read(T *x) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomic access to 4- or 8-byte values only");
  gtrt_atomic_fence_before<ORDER>();
  T v = *(volatile T *)x;
  gtrt_atomic_fence_after<ORDER>();
  return v;
}

template <int ORDER, class T, class E> __device__ __forceinline__ void gtrt_atomic_write(T *x, E e) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomic access to 4- or 8-byte values only");
  gtrt_atomic_fence_before<ORDER>();
  *(volatile T *)x = (T)e;
  gtrt_atomic_fence_after<ORDER>();
}

#endif
