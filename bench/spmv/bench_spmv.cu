// SpMV benchmark: gtcc's CollectiveDP variants of one annotated CSR SpMV
// (spmv_gtcc.c, compiled once per --cdp mode) against cuSPARSE (generic
// API, CSR ALG1 and ALG2) and three hand-written kernels: thread per row,
// warp per row, and a thread-per-row parent that launches a child grid
// per long row (naive CUDA dynamic parallelism, CDP2, fire-and-forget).
//
//   bench_spmv [-o DIR] [-m LIST] [--variants LIST] [--min-ms MS]
//              [--child-threshold N] [--threads N] [--dry-run] [FILE.mtx...]
//
// Matrices: the five of BRIEF §5 by default (bench/support/spgen.h), or the
// names in -m (comma separated; "all" = every built-in), plus any Matrix
// Market files. Every variant is checked against a CPU reference: the
// error of y[i] relative to sum_j |a_ij x_j| must be <= 1e-9, or the run
// prints FAIL and exits 1 at the end.
//
// Timing is the same for every variant: warm-up, then R back-to-back calls,
// each followed by cudaDeviceSynchronize, timed by the host wall clock
// (R such that one measurement takes >= --min-ms, default 20 ms); the best
// of three such measurements is reported. Effective bandwidth counts
// 12 nnz + 4 (rows+1) + 8 rows + 8 cols bytes (BRIEF §5; = 12 nnz +
// 4 (n+1) + 16 n for square matrices).
//
// Output: a table per matrix and a summary on stdout; rows appended to
// DIR/spmv.csv (header written when the file is new). Exit status: 0 ok,
// 1 a variant failed verification or a CUDA error, 2 usage, 77 no GPU
// (--dry-run needs none: it only generates the matrices and prints their
// shapes and checksums).
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

#include "gtrt.h" // extern "C" inside
#include "mmio.h"
#include "spgen.h"

extern "C" {
// spmv_gtcc.c compiled with gtcc --cdp=MODE, one symbol per mode.
void spmv_host(int n, int m, int nnz, const int *rp, const int *col, const double *val, const double *x, double *y);
void spmv_tail(int n, int m, int nnz, const int *rp, const int *col, const double *val, const double *x, double *y);
void spmv_cta(int n, int m, int nnz, const int *rp, const int *col, const double *val, const double *x, double *y);
void spmv_warp(int n, int m, int nnz, const int *rp, const int *col, const double *val, const double *x, double *y);
void spmv_off(int n, int m, int nnz, const int *rp, const int *col, const double *val, const double *x, double *y);
// row_kernels.cu: thread per row and warp per row, on device pointers.
void spmv_thread_row(int n, const int *rp, const int *col, const double *val, const double *x, double *y);
void spmv_warp_row(int n, const int *rp, const int *col, const double *val, const double *x, double *y);
}

#define CK(call)                                                                                           \
  do {                                                                                                     \
    cudaError_t e_ = (call);                                                                               \
    if (e_ != cudaSuccess) {                                                                               \
      fprintf(stderr, "bench_spmv: %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      exit(1);                                                                                             \
    }                                                                                                      \
  } while (0)

#define CKS(call)                                                                                 \
  do {                                                                                            \
    cusparseStatus_t s_ = (call);                                                                 \
    if (s_ != CUSPARSE_STATUS_SUCCESS) {                                                          \
      fprintf(stderr, "bench_spmv: %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cusparseGetErrorString(s_)); \
      exit(1);                                                                                    \
    }                                                                                             \
  } while (0)

// ---------------------------------------------------------------------------
// Hand-written kernels.

constexpr int CHILD_BLOCK = 256;
constexpr int CHILD_ITEMS = 4 * CHILD_BLOCK; // entries per child block
constexpr int CHILD_MAX_BLOCKS = 1024;

// One long row [b, e): grid-strided partial sums, block reduction, one
// atomicAdd per block into *yi (the parent zeroed it before the launch).
__global__ void __launch_bounds__(CHILD_BLOCK)
    k_child_row(int b, int e, const int *__restrict__ col, const double *__restrict__ val,
                const double *__restrict__ x, double *yi) {
  __shared__ double part[CHILD_BLOCK / 32];
  double s = 0.0;
  for (long long j = (long long)b + (long long)blockIdx.x * blockDim.x + threadIdx.x; j < e;
       j += (long long)gridDim.x * blockDim.x)
    s += val[j] * x[col[j]];
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < CHILD_BLOCK / 32 ? part[threadIdx.x] : 0.0;
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if (threadIdx.x == 0) atomicAdd(yi, s);
  }
}

// Thread per row; a row longer than `threshold` gets its own child grid,
// launched from the device (fire-and-forget stream). A failed launch is
// recorded in *err (and the row is left wrong, so verification fails too).
__global__ void __launch_bounds__(256)
    k_parent_row(int n, int threshold, const int *__restrict__ rp, const int *__restrict__ col,
                 const double *__restrict__ val, const double *__restrict__ x, double *__restrict__ y, int *err) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int b = rp[i], e = rp[i + 1];
  if (e - b > threshold) {
    y[i] = 0.0; // visible to the child: written before the launch
    long long want = ((long long)e - b + CHILD_ITEMS - 1) / CHILD_ITEMS;
    int blocks = want < CHILD_MAX_BLOCKS ? (int)want : CHILD_MAX_BLOCKS;
    k_child_row<<<blocks, CHILD_BLOCK, 0, cudaStreamFireAndForget>>>(b, e, col, val, x, y + i);
    cudaError_t st = cudaGetLastError();
    if (st != cudaSuccess) atomicCAS(err, 0, (int)st);
    return;
  }
  double s = 0.0;
  for (int j = b; j < e; j++) s += val[j] * x[col[j]];
  y[i] = s;
}

// ---------------------------------------------------------------------------
// Host side.

static double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static int g_threads = 0; // host threads for generation and the reference

template <class F> static void parallel_rows(int n, F f) {
  int t = g_threads > 0 ? g_threads : (int)std::max(1u, std::thread::hardware_concurrency());
  t = std::min(t, 64);
  if (n < 65536 || t == 1) {
    f(0, n);
    return;
  }
  std::vector<std::thread> th;
  // more chunks than threads: rows are uneven (power-law, giant)
  int chunks = 8 * t;
  std::atomic<int> k(0);
  for (int w = 0; w < t; w++)
    th.emplace_back([&] {
      for (int c; (c = k.fetch_add(1)) < chunks;) {
        int lo = (int)((long long)n * c / chunks), hi = (int)((long long)n * (c + 1) / chunks);
        f(lo, hi);
      }
    });
  for (auto &x : th) x.join();
}

struct Matrix {
  std::string name, desc;
  spgen_csr A{};
  int max_row = 0, argmax = 0;
  double gen_s = 0;
};

static bool load_builtin(const spgen_spec *s, Matrix &M) {
  M.name = s->name;
  M.desc = s->desc;
  double t0 = now_ms();
  if (spgen_shape(s, &M.A) != 0) {
    fprintf(stderr, "bench_spmv: %s: cannot generate (out of memory or more than 2^31-1 entries)\n", s->name);
    return false;
  }
  parallel_rows(M.A.nrows, [&](int lo, int hi) { spgen_fill(s, &M.A, lo, hi); });
  M.gen_s = (now_ms() - t0) / 1e3;
  M.max_row = spgen_max_row(&M.A, &M.argmax);
  return true;
}

static bool load_mtx(const char *path, Matrix &M) {
  std::string p(path);
  size_t slash = p.find_last_of('/');
  std::string base = slash == std::string::npos ? p : p.substr(slash + 1);
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".mtx") == 0) base.resize(base.size() - 4);
  M.name = base;
  M.desc = p;
  mm_csr B;
  char err[512];
  double t0 = now_ms();
  if (mm_read_csr(path, &B, err, sizeof err) != 0) {
    fprintf(stderr, "bench_spmv: %s\n", err);
    return false;
  }
  M.gen_s = (now_ms() - t0) / 1e3;
  M.A.nrows = B.nrows, M.A.ncols = B.ncols, M.A.nnz = B.nnz;
  M.A.rp = B.rp, M.A.col = B.col, M.A.val = B.val; // both free()d
  M.max_row = spgen_max_row(&M.A, &M.argmax);
  return true;
}

static double bytes_of(const spgen_csr &A) {
  return 12.0 * A.nnz + 4.0 * (A.nrows + 1.0) + 8.0 * A.nrows + 8.0 * A.ncols;
}

struct Result {
  std::string variant;
  double ms = NAN, gbps = NAN, err = NAN;
  int reps = 0;
  bool ok = false, ran = false;
};

// Warm-up, then best of three timings of R synchronised calls.
template <class F> static double time_variant(F call, double min_ms, int *reps_out) {
  for (int w = 0; w < 2; w++) {
    call();
    CK(cudaDeviceSynchronize());
  }
  double t0 = now_ms();
  for (int w = 0; w < 3; w++) {
    call();
    CK(cudaDeviceSynchronize());
  }
  double one = (now_ms() - t0) / 3;
  int R = one > 0 ? (int)std::ceil(min_ms / one) : 1000;
  R = std::max(1, std::min(R, 100000));
  double best = INFINITY;
  for (int trial = 0; trial < 3; trial++) {
    double a = now_ms();
    for (int r = 0; r < R; r++) {
      call();
      CK(cudaDeviceSynchronize());
    }
    best = std::min(best, (now_ms() - a) / R);
  }
  CK(cudaGetLastError());
  *reps_out = R;
  return best;
}

static const char *ALL_VARIANTS[] = {"gtcc_host",     "gtcc_tail", "gtcc_cta", "gtcc_warp",   "gtcc_off",
                                     "cusparse_alg1", "cusparse_alg2", "thread_row", "warp_row", "child_launch"};
constexpr int NVARIANTS = sizeof ALL_VARIANTS / sizeof *ALL_VARIANTS;

static bool in_list(const std::string &list, const std::string &name) {
  size_t p = 0;
  while (p <= list.size()) {
    size_t q = list.find(',', p);
    if (q == std::string::npos) q = list.size();
    std::string w = list.substr(p, q - p);
    if (w == name || w == "all" || (w == "gtcc" && name.rfind("gtcc_", 0) == 0) ||
        (w == "cusparse" && name.rfind("cusparse_", 0) == 0))
      return true;
    p = q + 1;
  }
  return false;
}

static void usage(FILE *f) {
  fprintf(f, "usage: bench_spmv [-o DIR] [-m LIST] [--variants LIST] [--min-ms MS] [--child-threshold N]\n"
             "                  [--threads N] [--dry-run] [FILE.mtx...]\n"
             "  -o DIR              append results to DIR/spmv.csv (default .)\n"
             "  -m LIST             built-in matrices, comma separated (default: the five of BRIEF 5;\n"
             "                      'all' = every built-in; 'none' = only the .mtx files)\n"
             "  --variants LIST     variants to run (default all; groups: gtcc, cusparse)\n"
             "  --min-ms MS         each timed measurement lasts at least MS ms (default 20)\n"
             "  --child-threshold N rows longer than N get a child grid in child_launch (default 32, gtcc's default warp threshold)\n"
             "  --threads N         host threads for generation and the CPU reference (default: all)\n"
             "  --dry-run           generate and print shapes and checksums only (no GPU needed)\n"
             "built-in matrices:");
  for (const spgen_spec &s : spgen_specs) fprintf(f, " %s%s", s.name, s.brief ? "*" : "");
  fprintf(f, "   (* = default)\nvariants:");
  for (const char *v : ALL_VARIANTS) fprintf(f, " %s", v);
  fprintf(f, "\n");
}

int main(int argc, char **argv) {
  std::string outdir = ".", mlist, vlist = "all";
  double min_ms = 20;
  int child_threshold = 32; /* rows gtcc takes off the parent thread by default (--cdp-warp-threshold) */
  bool dry = false;
  std::vector<const char *> files;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto val = [&](void) -> const char * {
      if (i + 1 >= argc) {
        fprintf(stderr, "bench_spmv: %s needs a value\n", a.c_str());
        exit(2);
      }
      return argv[++i];
    };
    if (a == "-o") outdir = val();
    else if (a == "-m") mlist = val();
    else if (a == "--variants") vlist = val();
    else if (a == "--min-ms") min_ms = atof(val());
    else if (a == "--child-threshold") child_threshold = atoi(val());
    else if (a == "--threads") g_threads = atoi(val());
    else if (a == "--dry-run") dry = true;
    else if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a.size() > 1 && a[0] == '-') {
      fprintf(stderr, "bench_spmv: unknown option '%s'\n", a.c_str());
      usage(stderr);
      return 2;
    } else
      files.push_back(argv[i]);
  }
  if (min_ms <= 0 || child_threshold < 1) {
    fprintf(stderr, "bench_spmv: --min-ms and --child-threshold must be positive\n");
    return 2;
  }
  {
    // reject unknown names in -m / --variants
    auto check = [](const std::string &list, bool matrices) {
      size_t p = 0;
      while (p < list.size()) {
        size_t q = list.find(',', p);
        if (q == std::string::npos) q = list.size();
        std::string w = list.substr(p, q - p);
        bool known = w == "all" || (matrices && w == "none") || (!matrices && (w == "gtcc" || w == "cusparse"));
        if (matrices) known = known || spgen_find(w.c_str());
        else
          for (const char *v : ALL_VARIANTS) known = known || w == v;
        if (!known) {
          fprintf(stderr, "bench_spmv: unknown %s '%s' (see --help)\n", matrices ? "matrix" : "variant", w.c_str());
          exit(2);
        }
        p = q + 1;
      }
    };
    check(mlist, true);
    check(vlist, false);
  }
  std::vector<const spgen_spec *> specs;
  for (const spgen_spec &s : spgen_specs)
    if (mlist.empty() ? s.brief != 0 : (mlist == "all" || in_list(mlist, s.name))) specs.push_back(&s);

  char date[32];
  time_t tnow = time(nullptr);
  strftime(date, sizeof date, "%Y-%m-%d", gmtime(&tnow));

  // --dry-run: shapes only, no GPU.
  if (dry) {
    printf("%-14s %-24s %10s %10s %10s %9s %8s %16s\n", "matrix", "description", "rows", "cols", "nnz", "max_row",
           "gen_s", "checksum");
    double total = 0;
    auto show = [&](Matrix &M) {
      total += M.gen_s;
      printf("%-14s %-24s %10d %10d %10d %9d %8.2f %016llx\n", M.name.c_str(), M.desc.substr(0, 24).c_str(),
             M.A.nrows, M.A.ncols, M.A.nnz, M.max_row, M.gen_s, (unsigned long long)spgen_checksum(&M.A));
      fflush(stdout);
      spgen_free(&M.A);
    };
    for (const spgen_spec *s : specs) {
      Matrix M;
      if (!load_builtin(s, M)) return 1;
      show(M);
    }
    for (const char *f : files) {
      Matrix M;
      if (!load_mtx(f, M)) return 1;
      show(M);
    }
    printf("# generation/reading took %.2f s in all\n", total);
    return 0;
  }

  int ndev = 0;
  cudaError_t de = cudaGetDeviceCount(&ndev);
  if (de != cudaSuccess || ndev == 0) {
    printf("bench_spmv: no CUDA GPU here (%s): nothing to measure (exit 77; --dry-run needs no GPU)\n",
           de != cudaSuccess ? cudaGetErrorString(de) : "0 devices");
    return 77;
  }
  setenv("GTRT_REQUIRE_DEVICE", "1", 0); // gtcc functions must never fall back to the host
  if (!gtrt_use_device()) {
    printf("bench_spmv: libgtrt finds no usable GPU: nothing to measure\n");
    return 77;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::string gpu = prop.name;
  for (char &c : gpu)
    if (c == ',') c = ' ';

  mkdir(outdir.c_str(), 0777);
  std::string csvpath = outdir + "/spmv.csv";
  FILE *csv = fopen(csvpath.c_str(), "a");
  if (!csv) {
    fprintf(stderr, "bench_spmv: cannot write %s\n", csvpath.c_str());
    return 1;
  }
  if (ftell(csv) == 0)
    fprintf(csv, "date,gpu,matrix,rows,nnz,max_row,variant,ms,GBps,ratio_to_best_cusparse,max_rel_err,ok\n");
  fflush(csv);
  printf("# bench_spmv %s on %s (%d SMs), min %.0f ms per measurement, child threshold %d\n", date, gpu.c_str(),
         prop.multiProcessorCount, min_ms, child_threshold);

  cusparseHandle_t handle;
  CKS(cusparseCreate(&handle));
  int *d_err;
  CK(cudaMalloc(&d_err, sizeof(int)));

  int nfail = 0;
  std::vector<std::pair<std::string, std::vector<Result>>> summary;
  size_t nmat = specs.size() + files.size();
  for (size_t mi = 0; mi < nmat; mi++) {
    Matrix M;
    if (mi < specs.size() ? !load_builtin(specs[mi], M) : !load_mtx(files[mi - specs.size()], M)) {
      nfail++;
      continue;
    }
    spgen_csr &A = M.A;
    int n = A.nrows, m = A.ncols, nnz = A.nnz;
    printf("\n== %s (%s): %d x %d, %d entries, max row %d (row %d); %s in %.2f s\n", M.name.c_str(),
           M.desc.c_str(), n, m, nnz, M.max_row, M.argmax, mi < specs.size() ? "generated" : "read", M.gen_s);

    // x and the CPU reference (with the row's sum of |a_ij x_j| for the check)
    std::vector<double> x(std::max(m, 1)), y(std::max(n, 1)), ref(std::max(n, 1)), absum(std::max(n, 1));
    uint64_t st = 42;
    for (int j = 0; j < m; j++) x[j] = 0.5 + spgen_unit_(&st);
    double t0 = now_ms();
    parallel_rows(n, [&](int lo, int hi) {
      for (int i = lo; i < hi; i++) {
        double s = 0, a = 0;
        for (int j = A.rp[i]; j < A.rp[i + 1]; j++) {
          double p = A.val[j] * x[A.col[j]];
          s += p;
          a += std::fabs(p);
        }
        ref[i] = s, absum[i] = a;
      }
    });
    printf("   CPU reference in %.2f s\n", (now_ms() - t0) / 1e3);

    // Map for gtcc (present() in spmv_gtcc.c) and share the device copies.
    static const gtrt_site site = {__FILE__, __LINE__, "bench_spmv data"};
    size_t b_rp = sizeof(int) * ((size_t)n + 1), b_col = sizeof(int) * (size_t)nnz,
           b_val = sizeof(double) * (size_t)nnz, b_x = sizeof(double) * (size_t)m, b_y = sizeof(double) * (size_t)n;
    if (gtrt_map_enter(&site, "rp", A.rp, b_rp, GTRT_MAP_TO) || gtrt_map_enter(&site, "col", A.col, b_col, GTRT_MAP_TO) ||
        gtrt_map_enter(&site, "val", A.val, b_val, GTRT_MAP_TO) || gtrt_map_enter(&site, "x", x.data(), b_x, GTRT_MAP_TO) ||
        gtrt_map_enter(&site, "y", y.data(), b_y, GTRT_MAP_ALLOC))
      gtrt_fatal();
    int *d_rp = (int *)gtrt_dev_ptr(&site, "rp", A.rp);
    int *d_col = (int *)gtrt_dev_ptr(&site, "col", A.col);
    double *d_val = (double *)gtrt_dev_ptr(&site, "val", A.val);
    double *d_x = (double *)gtrt_dev_ptr(&site, "x", x.data());
    double *d_y = (double *)gtrt_dev_ptr(&site, "y", y.data());
    if ((nnz && (!d_col || !d_val)) || !d_rp || (m && !d_x) || (n && !d_y)) gtrt_fatal();

    // cuSPARSE descriptors and one buffer per algorithm, outside the timing.
    cusparseSpMatDescr_t dA;
    cusparseDnVecDescr_t dX, dY;
    CKS(cusparseCreateCsr(&dA, n, m, nnz, d_rp, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CKS(cusparseCreateDnVec(&dX, m, d_x, CUDA_R_64F));
    CKS(cusparseCreateDnVec(&dY, n, d_y, CUDA_R_64F));
    const double one = 1.0, zero = 0.0;
    cusparseSpMVAlg_t algs[2] = {CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG2};
    void *cbuf[2] = {nullptr, nullptr};
    for (int k = 0; k < 2; k++) {
      size_t sz = 0;
      CKS(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, dA, dX, &zero, dY, CUDA_R_64F,
                                  algs[k], &sz));
      CK(cudaMalloc(&cbuf[k], std::max<size_t>(sz, 16)));
    }

    // Child launch: enough pending-launch slots for every long row at once.
    long long nlong = 0;
    for (int i = 0; i < n; i++) nlong += A.rp[i + 1] - A.rp[i] > child_threshold;
    printf("   %lld rows longer than %d (child grids per child_launch call)\n", nlong, child_threshold);
    if (in_list(vlist, "child_launch")) {
      size_t cur = 0;
      CK(cudaDeviceGetLimit(&cur, cudaLimitDevRuntimePendingLaunchCount));
      if ((size_t)nlong + 64 > cur) CK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, (size_t)nlong + 64));
    }

    unsigned g_row = (unsigned)((n + 255) / 256);
    auto run = [&](int v) {
      std::string name = ALL_VARIANTS[v];
      switch (v) {
      case 0: spmv_host(n, m, nnz, A.rp, A.col, A.val, x.data(), y.data()); break;
      case 1: spmv_tail(n, m, nnz, A.rp, A.col, A.val, x.data(), y.data()); break;
      case 2: spmv_cta(n, m, nnz, A.rp, A.col, A.val, x.data(), y.data()); break;
      case 3: spmv_warp(n, m, nnz, A.rp, A.col, A.val, x.data(), y.data()); break;
      case 4: spmv_off(n, m, nnz, A.rp, A.col, A.val, x.data(), y.data()); break;
      case 5:
      case 6:
        CKS(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, dA, dX, &zero, dY, CUDA_R_64F, algs[v - 5],
                         cbuf[v - 5]));
        break;
      case 7:
        spmv_thread_row(n, d_rp, d_col, d_val, d_x, d_y);
        break;
      case 8:
        spmv_warp_row(n, d_rp, d_col, d_val, d_x, d_y);
        break;
      case 9:
        if (n) k_parent_row<<<g_row, 256>>>(n, child_threshold, d_rp, d_col, d_val, d_x, d_y, d_err);
        break;
      }
    };

    std::vector<Result> res;
    for (int v = 0; v < NVARIANTS; v++) {
      Result r;
      r.variant = ALL_VARIANTS[v];
      if (!in_list(vlist, r.variant)) continue;
      // poison y (finite, so beta = 0 in cuSPARSE cannot turn it into NaN), run once, check
      CK(cudaMemset(d_y, 0x7e, b_y));
      CK(cudaMemset(d_err, 0, sizeof(int)));
      run(v);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      int herr = 0;
      CK(cudaMemcpy(&herr, d_err, sizeof(int), cudaMemcpyDeviceToHost));
      if (herr)
        fprintf(stderr, "bench_spmv: %s/%s: a device-side launch failed: %s\n", M.name.c_str(), r.variant.c_str(),
                cudaGetErrorString((cudaError_t)herr));
      std::vector<double> got(std::max(n, 1));
      CK(cudaMemcpy(got.data(), d_y, b_y, cudaMemcpyDeviceToHost));
      double worst = 0;
      int wi = -1;
      for (int i = 0; i < n; i++) {
        double d = std::fabs(got[i] - ref[i]);
        double e = absum[i] > 0 ? d / absum[i] : (d == 0 ? 0.0 : INFINITY);
        if (!(e <= worst)) worst = e, wi = i; // NaN counts as worst
        if (std::isnan(e)) worst = INFINITY;
      }
      r.err = worst;
      r.ok = worst <= 1e-9 && !herr;
      if (!r.ok) {
        nfail++;
        printf("   *** FAIL *** %s on %s: max relative error %.3g at row %d (got %.17g, expected %.17g, row length "
               "%d)\n",
               r.variant.c_str(), M.name.c_str(), worst, wi, wi >= 0 ? got[wi] : 0.0, wi >= 0 ? ref[wi] : 0.0,
               wi >= 0 ? A.rp[wi + 1] - A.rp[wi] : 0);
        fprintf(stderr, "bench_spmv: FAIL: %s on %s (max relative error %.3g)\n", r.variant.c_str(),
                M.name.c_str(), worst);
      }
      r.ms = time_variant([&] { run(v); }, min_ms, &r.reps);
      r.gbps = bytes_of(A) / (r.ms * 1e6);
      r.ran = true;
      printf("   %-14s %10.4f ms %9.1f GB/s  (R=%d, err %.2g)%s\n", r.variant.c_str(), r.ms, r.gbps, r.reps, r.err,
             r.ok ? "" : "  FAIL");
      fflush(stdout);
      res.push_back(r);
    }

    double best_cs = NAN;
    for (const Result &r : res)
      if (r.variant.rfind("cusparse_", 0) == 0 && r.ok && !(r.gbps <= best_cs)) best_cs = r.gbps;
    printf("   %-14s %10s %12s %10s %10s\n", "variant", "ms", "GB/s", "/cuSPARSE", "check");
    for (const Result &r : res) {
      double ratio = r.gbps / best_cs;
      printf("   %-14s %10.4f %12.1f %10.3f %10s\n", r.variant.c_str(), r.ms, r.gbps, ratio, r.ok ? "ok" : "FAIL");
      fprintf(csv, "%s,%s,%s,%d,%d,%d,%s,%.6f,%.3f,%.6f,%.3g,%d\n", date, gpu.c_str(), M.name.c_str(), n, nnz,
              M.max_row, r.variant.c_str(), r.ms, r.gbps, ratio, r.err, r.ok ? 1 : 0);
    }
    fflush(csv);
    summary.emplace_back(M.name, res);

    for (int k = 0; k < 2; k++) CK(cudaFree(cbuf[k]));
    CKS(cusparseDestroySpMat(dA));
    CKS(cusparseDestroyDnVec(dX));
    CKS(cusparseDestroyDnVec(dY));
    if (gtrt_map_exit(&site, "rp", A.rp, b_rp, GTRT_MAP_ALLOC, 1) ||
        gtrt_map_exit(&site, "col", A.col, b_col, GTRT_MAP_ALLOC, 1) ||
        gtrt_map_exit(&site, "val", A.val, b_val, GTRT_MAP_ALLOC, 1) ||
        gtrt_map_exit(&site, "x", x.data(), b_x, GTRT_MAP_ALLOC, 1) ||
        gtrt_map_exit(&site, "y", y.data(), b_y, GTRT_MAP_ALLOC, 1))
      gtrt_fatal();
    spgen_free(&A);
  }
  fclose(csv);
  CK(cudaFree(d_err));
  CKS(cusparseDestroy(handle));

  // Summary: GB/s per matrix and variant.
  printf("\n# GB/s (effective; ratio to the better cuSPARSE algorithm in the CSV)\n%-12s", "matrix");
  for (const char *v : ALL_VARIANTS)
    if (in_list(vlist, v)) printf(" %13s", v);
  printf("\n");
  for (auto &row : summary) {
    printf("%-12s", row.first.c_str());
    for (const Result &r : row.second) printf(" %12.1f%s", r.gbps, r.ok ? " " : "!");
    printf("\n");
  }
  printf("# results appended to %s\n", csvpath.c_str());
  if (nfail) printf("# %d FAILURE(S): see '*** FAIL ***' above\n", nfail);
  return nfail ? 1 : 0;
}
