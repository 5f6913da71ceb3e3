/* nested_more: more nested parallel loop shapes (CollectiveDP) than
 * nested_spmv.c and nested_shapes.c, built once per --cdp mode and compared
 * with the plain C build. Every region runs on the same CSR-like layout: outer
 * iteration i owns elements [rs[i], rs[i+1]) of the arrays v (floats, all
 * multiples of 0.25, so float and double sums are exact in any order), iv
 * (ints in [-50, 50]) and idx (targets in [0, n)). Row lengths mix every
 * tier: inline (<= 8), warp-flat (9..32), warp (33..2048), next-level kernel
 * (> 2048) and several NLK chunks (> 32768); the first rows take the lengths
 * around each threshold.
 *
 * Regions (one kernel each):
 *   step_le    acc parallel loop from 2, step 3 in a variable; inner `<=`
 *              bound, step 2, over a Before pointer; float and int reductions
 *              from non-zero starts; After writes two arrays from Before
 *              locals and the reductions
 *   down       outer counting down; inner `j = hi; j > lo; j--`; reduction
 *              list `+:s, sj` (double and long long) and max on int
 *   wide       long long outer index; unsigned inner index with step 3u;
 *              unsigned (wrapping) sum and unsigned long long xor
 *   ll_iv      long long inner index beyond 2^31, counting down by 2 with >=
 *   scatter    inner loop without reduction: disjoint writes dst[j] and
 *              same-value writes mark[idx[j]] (as in BFS); After after it
 *   ops        acc loop vector with + on float and int in one clause, min,
 *              && and || (integer results must match exactly)
 *   omp_tdpf   omp target teams distribute parallel for + omp parallel for
 *              reduction(+, max), step from a Before local, private pointer
 *   omp_td     omp target teams distribute + parallel for, `j = j + 2`,
 *              bounds read from memory in the header
 *   omp_data   omp target data around omp target teams distribute parallel
 *              for without map clauses + a nested omp target teams
 *              distribute parallel for reduction, `j = 3 + j`
 *   acc_acc    acc parallel loop inside acc parallel loop, `j = j - 1`
 *              counting down to a `>=` bound
 *   kernels    acc kernels loop with `<=` outer bound; triangular inner loop
 *              whose start and step use the outer index
 *   par_loop   acc parallel { acc loop gang { acc loop vector private } }
 *   data_pres  acc data + acc parallel loop present(...), run twice; Before
 *              reads and After writes the same array; `continue` in Before
 *   zero_trip  every inner loop empty (After sees the Before values)
 *   thr_low    gtcc_threshold(16): every loop above 16 iterations to the NLK
 *   thr_high   gtcc_threshold(100000): long loops in the warp tier
 *   types      outer index declared before the loop; Before locals: a pointer
 *              to a struct, an enum, int64_t; a reduction on a typedef'd double
 *   unsigned   unsigned outer index counting down (u > 0); size_t inner index
 *   collapse_in  inner acc loop collapse(2): the two loops run as one range
 *   vla        float (*D)[cols] read as D[i][j] (up to 2000 rows of 3000)
 *   c89        `int i, j;` at the top of the function; inner `for (j = hi - 1;
 *              lo <= j; j--)` (the bound on the left)
 *   omp_teams  omp target teams { distribute parallel for { parallel for simd
 *              reduction(+, max) with a `<=` bound } }
 * Clauses on the outer loops: num_gangs(5) vector_length(128) (ops),
 * thread_limit(64) (omp_tdpf), if(n >= 100) (kernels: small sets run on the
 * host); `continue` in After (down).
 * Data sets: n = 0; n = 1 (one row of 70000, three chunks); n = 3; 1000 empty
 * rows (no elements at all); n = 37; n = 100000 (11.2M elements); and
 * n = 20000 run with GTRT_CDP_CAPACITY=3 and =0 (set by the program: the
 * context buffer overflows, or there is none).
 *
 * usage: nested_more [N]                only the mixed data set of N rows
 *        nested_more firstprivate [N]   a shape gtcc gets wrong (r_fp_before)
 *        nested_more                    every data set above */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef double real;
struct seg {
  int lo, hi;
};
enum weight { W_ONE, W_TWO, W_HALF };

static unsigned long long lcg(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s >> 33;
}

/* ---- checksums (host) ---------------------------------------------------- */

static unsigned long long mix(unsigned long long h, unsigned long long x) {
  return (h ^ x) * 1099511628211ULL + (h >> 29);
}

static void print_d(const char *name, const double *a, int n) {
  double s = 0.0, w = 0.0;
  unsigned long long h = 1469598103934665603ULL;
  for (int i = 0; i < n; i++) {
    s += a[i];
    w += a[i] * (double)(1 + i % 7);
    long long q = (long long)(a[i] * 4.0); /* values are multiples of 0.25 */
    h = mix(h, (unsigned long long)q);
  }
  printf("%s %.17g %.17g %llu\n", name, s, w, h);
}

static void print_f(const char *name, const float *a, int n) {
  double s = 0.0, w = 0.0;
  unsigned long long h = 1469598103934665603ULL;
  for (int i = 0; i < n; i++) {
    s += a[i];
    w += (double)a[i] * (double)(1 + i % 5);
    h = mix(h, (unsigned long long)(long long)((double)a[i] * 4.0));
  }
  printf("%s %.17g %.17g %llu\n", name, s, w, h);
}

static void print_ll(const char *name, const long long *a, int n) {
  long long s = 0;
  unsigned long long h = 1469598103934665603ULL;
  for (int i = 0; i < n; i++) {
    s += a[i];
    h = mix(h, (unsigned long long)a[i]);
  }
  printf("%s %lld %llu\n", name, s, h);
}

static void print_i(const char *name, const int *a, int n) {
  long long s = 0;
  unsigned long long h = 1469598103934665603ULL;
  for (int i = 0; i < n; i++) {
    s += a[i];
    h = mix(h, (unsigned long long)(long long)a[i]);
  }
  printf("%s %lld %llu\n", name, s, h);
}

static void print_u(const char *name, const unsigned *a, int n) {
  unsigned long long h = 1469598103934665603ULL, s = 0;
  for (int i = 0; i < n; i++) {
    s += a[i];
    h = mix(h, a[i]);
  }
  printf("%s %llu %llu\n", name, s, h);
}

static void print_ull(const char *name, const unsigned long long *a, int n) {
  unsigned long long h = 1469598103934665603ULL;
  for (int i = 0; i < n; i++) h = mix(h, a[i]);
  printf("%s %llu\n", name, h);
}

/* ---- the regions ----------------------------------------------------------- */

/* outer from 2 step 3; inner <= bound step 2 over a Before pointer */
static void r_step_le(int n, int m, int *rs, float *v, float *oa, long long *ob) {
  int ostep = 3;
  (void)m; /* used only by the data clauses */
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m]) copy(oa[0:n], ob[0:n])
  for (int i = 2; i < n; i += ostep) {
    const int lo = rs[i], hi = rs[i + 1];
    int len = hi - lo;
    float *row = v + lo;
    float fs = 0.25f * (float)(i % 4);
    int cnt = i % 5;
#pragma acc loop reduction(+:fs) reduction(+:cnt)
    for (int j = 0; j <= len - 1; j += 2) {
      fs += row[j];
      cnt++;
    }
    oa[i] = fs * (float)(1 + lo % 3);
    ob[i] = (long long)cnt * 1000 + len;
  }
}

/* outer counting down; inner j = hi; j > lo; j-- */
static void r_down(int n, int m, int *rs, float *v, int *iv, double *od, long long *ol) {
  (void)m; /* used only by the data clauses */
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m], iv[0:m]) copy(od[0:n], ol[0:n])
  for (int i = n - 1; i >= 0; i--) {
    int lo = rs[i], hi = rs[i + 1];
    double s = 1.0;
    long long sj = 0;
    int mx = -1000;
#pragma acc loop reduction(+:s, sj) reduction(max:mx)
    for (int j = hi; j > lo; j--) {
      s += (double)v[j - 1] * (double)(j & 3);
      sj += (long long)j * iv[j - 1];
      mx = mx > iv[j - 1] ? mx : iv[j - 1];
    }
    od[i] = s - (double)lo;
    if (mx == -1000) continue; /* empty row: ol[i] keeps its value */
    ol[i] = sj * 3 + mx;
  }
}

/* long long outer index, unsigned inner index */
static void r_wide(int n, int m, int *rs, int *iv, unsigned *ou, unsigned long long *ox) {
  (void)m; /* used only by the data clauses */
  long long nn = n;
#pragma acc parallel loop copyin(rs[0:n+1], iv[0:m]) copyout(ou[0:n], ox[0:n])
  for (long long i = 0; i < nn; i++) {
    unsigned lo = (unsigned)rs[i], hi = (unsigned)rs[i + 1];
    unsigned h = (unsigned)i * 40503u;
    unsigned long long x = 0;
#pragma acc loop reduction(+:h) reduction(^:x)
    for (unsigned j = lo; j < hi; j += 3u) {
      h += (unsigned)iv[j] * 2654435761u;
      x ^= (unsigned long long)(j + 1u) * 0x9E3779B97F4A7C15ULL;
    }
    ou[i] = h;
    ox[i] = x;
  }
}

/* long long inner index above 2^31, down by 2 to a >= bound */
static void r_ll_iv(int n, int *rs, long long *o) {
#pragma acc parallel loop copyin(rs[0:n+1]) copyout(o[0:n])
  for (int i = 0; i < n; i++) {
    long long base = 3000000000LL + 7LL * rs[i];
    long long len = rs[i + 1] - rs[i];
    long long s = i;
#pragma acc loop reduction(+:s)
    for (long long j = base + 2 * len; j >= base; j -= 2) s += j % 1000003;
    o[i] = s;
  }
}

/* no reduction: disjoint and same-value scattered writes */
static void r_scatter(int n, int m, int *rs, float *v, int *idx, float *dst, int *mark, int *deg) {
  (void)m; /* used only by the data clauses */
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m], idx[0:m]) copy(mark[0:n]) copyout(dst[0:m], deg[0:n])
  for (int i = 0; i < n; i++) {
    int lo = rs[i], hi = rs[i + 1];
    float f = (float)(1 + i % 4);
#pragma acc loop
    for (int j = lo; j < hi; j++) {
      dst[j] = v[j] * f;
      if (idx[j] % 3 == 0) mark[idx[j]] = 1;
    }
    deg[i] = (hi - lo) * 2 + (int)f;
  }
}

/* + on float and int in one clause, min, &&, || */
static void r_ops(int n, int m, int *rs, float *v, int *iv, float *of, int *oi, int *ob) {
  (void)m; /* used only by the data clauses */
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m], iv[0:m]) copyout(of[0:n], oi[0:n], ob[0:n]) num_gangs(5) \
    vector_length(128)
  for (int i = 0; i < n; i++) {
    int lo = rs[i], hi = rs[i + 1];
    float fsum = 0.0f;
    int isum = i & 7, imin = 1000, allpos = 1, anyneg = 0;
#pragma acc loop vector reduction(+:fsum, isum) reduction(min:imin) reduction(&&:allpos) reduction(||:anyneg)
    for (int j = lo; j < hi; j++) {
      fsum += v[j];
      isum += iv[j];
      imin = iv[j] < imin ? iv[j] : imin;
      allpos = allpos && iv[j] > -45;
      anyneg = anyneg || iv[j] < -48;
    }
    of[i] = fsum;
    oi[i] = isum;
    ob[i] = imin * 4 + allpos * 2 + anyneg;
  }
}

/* OpenMP: target teams distribute parallel for + parallel for */
static void r_omp_tdpf(int n, int m, int *rs, float *v, double *o) {
  (void)m; /* used only by the data clauses */
#pragma omp target teams distribute parallel for map(to: rs[0:n+1], v[0:m]) map(from: o[0:n]) thread_limit(64)
  for (int i = 0; i < n; i++) {
    int lo = rs[i], hi = rs[i + 1];
    int st = 1 + i % 3;
    double s = 0.0;
    float mx = 0.0f;
    const float *p;
#pragma omp parallel for reduction(+:s) reduction(max:mx) private(p)
    for (int j = lo; j < hi; j += st) {
      p = v + j;
      s += *p;
      if (*p > mx) mx = *p;
    }
    o[i] = s * 8.0 + mx;
  }
}

/* OpenMP: target teams distribute + parallel for */
static void r_omp_td(int n, int m, int *rs, int *iv, long long *o) {
  (void)m; /* used only by the data clauses */
#pragma omp target teams distribute map(to: rs[0:n+1], iv[0:m]) map(from: o[0:n])
  for (int i = 0; i < n; i++) {
    long long c = 0;
#pragma omp parallel for reduction(+:c)
    for (int j = rs[i]; j < rs[i + 1]; j = j + 2) c += iv[j] + 51;
    o[i] = c;
  }
}

/* OpenMP: enclosing target data, nested target teams distribute parallel for */
static void r_omp_data(int n, int m, int *rs, float *v, double *o) {
  (void)m; /* used only by the data clauses */
#pragma omp target data map(to: rs[0:n+1], v[0:m]) map(from: o[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) {
      int lo = rs[i], hi = rs[i + 1];
      double s = -0.5;
#pragma omp target teams distribute parallel for reduction(+:s)
      for (int j = lo; j < hi; j = 3 + j) s += v[j] * 2.0f;
      o[i] = s + (double)(hi - lo);
    }
  }
}

/* acc parallel loop inside acc parallel loop */
static void r_acc_acc(int n, int m, int *rs, float *v, double *o) {
  (void)m; /* used only by the data clauses */
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m]) copyout(o[0:n])
  for (int i = 0; i < n; i++) {
    int lo = rs[i], hi = rs[i + 1];
    double s = 0.0;
#pragma acc parallel loop reduction(+:s)
    for (int j = hi - 1; j >= lo; j = j - 1) s += (double)v[j] * ((j & 1) ? 1.0 : -0.5);
    o[i] = s;
  }
}

/* acc kernels loop, `<=` outer bound, triangular inner loop */
static void r_kernels(int n, int m, int *rs, float *v, double *o) {
  (void)m; /* used only by the data clauses */
#pragma acc kernels loop copyin(rs[0:n+1], v[0:m]) copyout(o[0:n]) if(n >= 100)
  for (int i = 0; i <= n - 1; i++) {
    int lo = rs[i];
    int len = rs[i + 1] - lo;
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = i % 64; j < len; j += 1 + i % 4) s += v[lo + j];
    o[i] = s + 0.25 * (double)(i % 64);
  }
}

/* acc parallel { acc loop gang { acc loop vector private } } */
static void r_par_loop(int n, int m, int *rs, int *iv, long long *o) {
  (void)m; /* used only by the data clauses */
#pragma acc parallel copyin(rs[0:n+1], iv[0:m]) copyout(o[0:n])
  {
#pragma acc loop gang
    for (int i = 0; i < n; i++) {
      int lo = rs[i], hi = rs[i + 1];
      int t;
      long long s = 0;
#pragma acc loop vector reduction(+:s) private(t)
      for (int j = lo; j < hi; j++) {
        t = iv[j] * iv[j];
        s += t;
      }
      o[i] = s * 2 + lo % 11;
    }
  }
}

/* acc data + present, two launches, continue in Before */
static void r_data_pres(int n, int m, int *rs, float *v, double *o1, double *o2) {
  (void)m; /* used only by the data clauses */
#pragma acc data copyin(rs[0:n+1], v[0:m]) copy(o1[0:n], o2[0:n])
  {
    for (int pass = 0; pass < 2; pass++) {
#pragma acc parallel loop present(rs, v, o1, o2)
      for (int i = 0; i < n; i++) {
        if (i % 7 == 3) continue;
        int lo = rs[i], hi = rs[i + 1];
        double s = o1[i];
#pragma acc loop reduction(+:s)
        for (int j = lo; j < hi; j++) s += (double)v[j] * (double)(pass + 1);
        o1[i] = s;
        o2[i] += (double)(hi - lo) + (double)pass;
      }
    }
  }
}

/* every inner loop is empty */
static void r_zero_trip(int n, int *rs, long long *o) {
#pragma acc parallel loop copyin(rs[0:n+1]) copyout(o[0:n])
  for (int i = 0; i < n; i++) {
    int lo = rs[i], hi = rs[i + 1];
    long long s = 5 + i;
    int mn = i;
#pragma acc loop reduction(+:s) reduction(min:mn)
    for (int j = hi; j < lo; j++) {
      s += j;
      mn = j < mn ? j : mn;
    }
    o[i] = s * 2 + mn;
  }
}

/* a low NLK threshold: most loops go to the next-level kernel */
static void r_thr_low(int n, int m, int *rs, float *v, int *iv, double *o, long long *oc) {
  (void)m; /* used only by the data clauses */
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m], iv[0:m]) copyout(o[0:n], oc[0:n]) gtcc_threshold(16)
  for (int i = 0; i < n; i++) {
    int lo = rs[i], hi = rs[i + 1];
    double s = 0.0;
    long long c = 0;
#pragma acc loop reduction(+:s, c)
    for (int j = lo; j < hi; j++) {
      s += v[j];
      c += iv[j];
    }
    o[i] = s;
    oc[i] = c;
  }
}

/* a high NLK threshold: long loops stay in the warp tier */
static void r_thr_high(int n, int m, int *rs, float *v, double *o) {
  (void)m; /* used only by the data clauses */
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m]) copyout(o[0:n]) gtcc_threshold(100000)
  for (int i = 0; i < n; i++) {
    int lo = rs[i], hi = rs[i + 1];
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = lo; j < hi; j++) s += (double)v[j] * (double)(1 + (j & 1));
    o[i] = s;
  }
}

/* the outer index declared before the loop; a Before pointer to a struct,
 * an enum and int64_t locals, a reduction of a typedef'd type */
static void r_types(int n, int m, struct seg *sg, float *v, double *o) {
  (void)m; /* used only by the data clauses */
  int i;
#pragma acc parallel loop copyin(sg[0:n], v[0:m]) copyout(o[0:n])
  for (i = 0; i < n; i++) {
    struct seg *p = &sg[i];
    enum weight w = (enum weight)(i % 3);
    int64_t lo = p->lo;
    real s = 0.125;
#pragma acc loop reduction(+:s)
    for (int64_t j = lo; j < p->hi; j++) s += (double)v[j] * (w == W_TWO ? 2.0 : w == W_HALF ? 0.5 : 1.0);
    o[i] = s + (double)w;
  }
}

/* unsigned outer index counting down to a > bound; size_t inner index */
static void r_unsigned(int n, int m, int *rs, int *iv, long long *o) {
  (void)m; /* used only by the data clauses */
  unsigned un = (unsigned)n;
#pragma acc parallel loop copyin(rs[0:n+1], iv[0:m]) copy(o[0:n])
  for (unsigned u = un; u > 0u; u--) {
    size_t lo = (size_t)rs[u - 1], hi = (size_t)rs[u];
    long long s = 0;
#pragma acc loop reduction(+:s)
    for (size_t j = lo; j < hi; j++) s += (long long)iv[j] * (long long)(j % 5);
    o[u - 1] = s - (long long)u;
  }
}

/* inner acc loop collapse(2): the tiers run the two loops as one range */
static void r_collapse_in(int n, int m, int *rs, float *v, double *o) {
  (void)m; /* used only by the data clauses */
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m]) copyout(o[0:n])
  for (int i = 0; i < n; i++) {
    int lo = rs[i], q = (rs[i + 1] - lo) / 4;
    double s = 0.0;
#pragma acc loop collapse(2) reduction(+:s)
    for (int j = 0; j < q; j++)
      for (int k = 0; k < 4; k++) s += (double)v[lo + 4 * j + k] * (double)(k + 1);
    o[i] = s;
  }
}

/* omp target teams { distribute parallel for { parallel for simd } } */
static void r_omp_teams(int n, int m, int *rs, int *iv, long long *o) {
  (void)m; /* used only by the data clauses */
#pragma omp target teams map(to: rs[0:n+1], iv[0:m]) map(from: o[0:n])
  {
#pragma omp distribute parallel for
    for (int i = 0; i < n; i++) {
      int lo = rs[i], hi = rs[i + 1];
      long long s = 0;
      int mx = -100;
#pragma omp parallel for simd reduction(+:s) reduction(max:mx)
      for (int j = lo; j <= hi - 1; j++) {
        s += iv[j] * (j % 3);
        mx = iv[j] > mx ? iv[j] : mx;
      }
      o[i] = s * 256 + mx;
    }
  }
}

/* C89 style: both loop indices declared at the top of the function */
static void r_c89(int n, int m, int *rs, float *v, double *o) {
  int i, j;
  (void)m; /* used only by the data clauses */
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m]) copyout(o[0:n])
  for (i = 0; i < n; i++) {
    double s = 0.5;
#pragma acc loop reduction(+:s)
    for (j = rs[i + 1] - 1; rs[i] <= j; j--) s += (double)v[j] * (double)(1 + j % 3);
    o[i] = s;
  }
}

/* a pointer to a variable-length array; row lengths capped at the row size */
static void r_vla(int rows, int cols, float (*D)[cols], int *rs, double *o) {
#pragma acc parallel loop copyin(D[0:rows], rs[0:rows+1]) copyout(o[0:rows])
  for (int i = 0; i < rows; i++) {
    int len = rs[i + 1] - rs[i];
    int l = len < cols ? len : cols;
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = 0; j < l; j++) s += (double)D[i][j] * (double)(1 + j % 2);
    o[i] = s;
  }
}

/* Not in the default run (gtcc miscompiles it, see the report): a
 * firstprivate scalar assigned in Before and read by the inner loop and
 * After. The warp-flat tier reads the executing lane's copy, the warp tier
 * and the NLK the value passed at the launch. `nested_more firstprivate`. */
static void r_fp_before(int n, int m, int *rs, float *v, double *o) {
  (void)m; /* used only by the data clauses */
  double w = 1.0;
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m]) copyout(o[0:n]) firstprivate(w)
  for (int i = 0; i < n; i++) {
    w = (double)(1 + i % 4);
    int lo = rs[i], hi = rs[i + 1];
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = lo; j < hi; j++) s += w * (double)v[j];
    o[i] = s + w;
  }
}

/* ---- data sets ------------------------------------------------------------- */

enum { MIXED, EMPTY, ONE_LONG, THREE };

/* lengths around every threshold, for the first rows of MIXED sets */
static const int edge_len[] = {0,    1,    7,     8,     9,     16,    17,    18,    31,    32,   33,
                               34,   63,   64,    65,    66,    2047,  2048,  2049,  2050,  4096, 4097,
                               4098, 8192, 32767, 32768, 32769, 65536, 65537, 65538, 98305, 3};

static int row_len(int kind, int i, unsigned long long *st) {
  switch (kind) {
  case EMPTY: return 0;
  case ONE_LONG: return 70000;
  case THREE: return i == 0 ? 5 : i == 1 ? 20 : 3000;
  default: break;
  }
  if (i < (int)(sizeof edge_len / sizeof *edge_len)) return edge_len[i];
  unsigned long long r = lcg(st) % 10000;
  if (r < 5000) return (int)(r % 9);
  if (r < 7500) return 9 + (int)(r % 24);
  if (r < 9968) return 33 + (int)(r % 10 == 0 ? lcg(st) % 2016 : lcg(st) % 300);
  if (r < 9998) return 2049 + (int)(lcg(st) % 4000);
  return 32769 + (int)(lcg(st) % 120000);
}

static void run(int n, int kind, const char *label) {
  unsigned long long st = 12345 + (unsigned long long)n * 31 + (unsigned long long)kind;
  int *rs = malloc(sizeof(int) * (size_t)(n + 1));
  long long total = 0;
  rs[0] = 0;
  for (int i = 0; i < n; i++) {
    total += row_len(kind, i, &st);
    rs[i + 1] = (int)total;
  }
  int m = (int)total;
  size_t ma = (size_t)(m > 0 ? m : 1), na = (size_t)(n > 0 ? n : 1);
  float *v = malloc(sizeof(float) * ma);
  int *iv = malloc(sizeof(int) * ma), *idx = malloc(sizeof(int) * ma);
  for (int k = 0; k < m; k++) {
    unsigned long long r = lcg(&st);
    v[k] = 0.25f * (float)(1 + r % 16);
    iv[k] = (int)(r / 16 % 101) - 50;
    idx[k] = (int)(r / 2048 % (unsigned long long)na);
  }
  printf("== %s n %d m %d\n", label, n, m);

  float *fa = calloc(na, sizeof(float)), *fb = calloc(na, sizeof(float)), *dst = calloc(ma, sizeof(float));
  double *da = calloc(na, sizeof(double)), *db = calloc(na, sizeof(double));
  long long *la = calloc(na, sizeof(long long)), *lb = calloc(na, sizeof(long long));
  int *ia = calloc(na, sizeof(int)), *ib = calloc(na, sizeof(int)), *ic = calloc(na, sizeof(int));
  unsigned *ua = calloc(na, sizeof(unsigned));
  unsigned long long *xa = calloc(na, sizeof(unsigned long long));

  r_step_le(n, m, rs, v, fa, la);
  print_f("step_le.f", fa, n);
  print_ll("step_le.l", la, n);

  r_down(n, m, rs, v, iv, da, la);
  print_d("down.d", da, n);
  print_ll("down.l", la, n);

  r_wide(n, m, rs, iv, ua, xa);
  print_u("wide.u", ua, n);
  print_ull("wide.x", xa, n);

  r_ll_iv(n, rs, la);
  print_ll("ll_iv", la, n);

  r_scatter(n, m, rs, v, idx, dst, ic, ia);
  print_f("scatter.dst", dst, m);
  print_i("scatter.mark", ic, n);
  print_i("scatter.deg", ia, n);

  r_ops(n, m, rs, v, iv, fb, ia, ib);
  print_f("ops.f", fb, n);
  print_i("ops.sum", ia, n);
  print_i("ops.bits", ib, n);

  r_omp_tdpf(n, m, rs, v, da);
  print_d("omp_tdpf", da, n);

  r_omp_td(n, m, rs, iv, la);
  print_ll("omp_td", la, n);

  r_omp_data(n, m, rs, v, da);
  print_d("omp_data", da, n);

  r_acc_acc(n, m, rs, v, da);
  print_d("acc_acc", da, n);

  r_kernels(n, m, rs, v, da);
  print_d("kernels", da, n);

  r_par_loop(n, m, rs, iv, la);
  print_ll("par_loop", la, n);

  for (int i = 0; i < n; i++) da[i] = 0.25 * (double)(i % 3), db[i] = 1.0;
  r_data_pres(n, m, rs, v, da, db);
  print_d("data_pres.1", da, n);
  print_d("data_pres.2", db, n);

  r_zero_trip(n, rs, la);
  print_ll("zero_trip", la, n);

  r_thr_low(n, m, rs, v, iv, da, lb);
  print_d("thr_low.d", da, n);
  print_ll("thr_low.l", lb, n);

  r_thr_high(n, m, rs, v, da);
  print_d("thr_high", da, n);

  struct seg *sg = malloc(sizeof(struct seg) * na);
  for (int i = 0; i < n; i++) sg[i].lo = rs[i], sg[i].hi = rs[i + 1];
  r_types(n, m, sg, v, da);
  print_d("types", da, n);
  free(sg);

  r_unsigned(n, m, rs, iv, la);
  print_ll("unsigned", la, n);

  r_collapse_in(n, m, rs, v, da);
  print_d("collapse_in", da, n);

  r_omp_teams(n, m, rs, iv, la);
  print_ll("omp_teams", la, n);

  r_c89(n, m, rs, v, da);
  print_d("c89", da, n);

  int rows = n < 2000 ? n : 2000, cols = 3000;
  float (*D)[cols] = malloc(sizeof(float) * (size_t)cols * (size_t)(rows > 0 ? rows : 1));
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) D[i][j] = 0.25f * (float)(1 + (i * 7 + j) % 16);
  r_vla(rows, cols, D, rs, da);
  print_d("vla", da, rows);
  free(D);

  free(rs), free(v), free(iv), free(idx), free(fa), free(fb), free(dst), free(da), free(db);
  free(la), free(lb), free(ia), free(ib), free(ic), free(ua), free(xa);
}

/* run with the context buffer capacity set to cap (the runtime reads
 * GTRT_CDP_CAPACITY at every nested launch; the plain C build ignores it) */
static void run_capacity(const char *cap, int n) {
  const char *old = getenv("GTRT_CDP_CAPACITY");
  char *saved = old ? strdup(old) : NULL;
  char label[64];
  setenv("GTRT_CDP_CAPACITY", cap, 1);
  snprintf(label, sizeof label, "mixed capacity %s", cap);
  run(n, MIXED, label);
  if (saved) setenv("GTRT_CDP_CAPACITY", saved, 1);
  else unsetenv("GTRT_CDP_CAPACITY");
  free(saved);
}

/* the firstprivate region alone, on the mixed set of n rows */
static void run_firstprivate(int n) {
  unsigned long long st = 999;
  int *rs = malloc(sizeof(int) * (size_t)(n + 1));
  rs[0] = 0;
  for (int i = 0; i < n; i++) rs[i + 1] = rs[i] + row_len(MIXED, i, &st);
  int m = rs[n];
  float *v = malloc(sizeof(float) * (size_t)(m > 0 ? m : 1));
  double *o = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
  for (int k = 0; k < m; k++) v[k] = 0.25f * (float)(1 + lcg(&st) % 16);
  printf("== firstprivate n %d m %d\n", n, m);
  r_fp_before(n, m, rs, v, o);
  print_d("fp_before", o, n);
  free(rs), free(v), free(o);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "firstprivate")) {
    run_firstprivate(argc > 2 ? atoi(argv[2]) : 20000);
    return 0;
  }
  if (argc > 1) {
    int n = atoi(argv[1]);
    run(n < 0 ? 0 : n, MIXED, "mixed");
    return 0;
  }
  run(0, MIXED, "none");
  run(1, ONE_LONG, "one long");
  run(3, THREE, "three");
  run(1000, EMPTY, "empty");
  run(37, MIXED, "mixed");
  run(100000, MIXED, "mixed");
  run_capacity("3", 20000);
  run_capacity("0", 20000);
  return 0;
}
