// Phases benchmark, hand-written CUDA baselines (issue 5 item 5): the
// computations of ph_gtcc.c (examples/heat.c, examples/jacobi_tasks.c, same
// inputs, arithmetic and checksums) as a host loop that launches ONE KERNEL
// PER PHASE.
//
// Launch configuration: the same block decomposition as the task programs,
// one CUDA block per task (a gtcc task with a parallel loop runs on one
// 256-thread block worker):
//   heat      init <<<nb, 256>>>, then per step update <<<nb, 256>>> and copy
//             <<<nb, 256>>> (each block strides over its BS cells)
//   jacobi    init <<<nb, 256>>>, then per iteration jacobi <<<nb, NSL = 32>>>
//             (thread s computes rows lo+s, lo+s+32, ... of block b and leaves
//             its partial residual in part[b*32 + s]: the task's parallel loop
//             over 32 slices) and check <<<1, LANES = 256>>> (lane l sums
//             part[l], part[l+256], ... into hist[h*256 + l]: the check task);
//             stages: check after every iteration, checkpoints: after every
//             K = 10 iterations and after the last (a launch sequence cannot
//             overlap iterations, so this is the launch-per-phase form of both)
// Implementations (column impl):
//   cuda_launch  the launches above, one by one on a stream from a host loop
//   cuda_graph   the same launches captured once into a CUDA graph, one
//                cudaGraphLaunch per repetition (capture and instantiation are
//                not timed; they are printed as a comment)
//
// usage: ph_baselines PROGRAM N BS STEPS REPS
//   PROGRAM  heat | jacobi_stages | jacobi_checkpoints | all
// Per (impl, program): one checked run (heat: every cell compared with a CPU
// computation; jacobi: the newest x and every residual), one warm-up, then
// REPS timed repetitions (wall clock around enqueueing everything and the
// stream synchronize), median reported. Each repetition starts with the
// init kernel, so all compute the same thing.
//
// Output: '#' comment lines, and per implementation that passed its check
//   IMPL,PROGRAM,N,STEPS,ms
// A failed check prints "CHECK FAIL ..." and the program exits 1 after the
// others. Exit status: 0 ok, 1 check failure or CUDA error, 2 usage, 77 no GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(call)                                                                                           \
  do {                                                                                                     \
    cudaError_t e_ = (call);                                                                               \
    if (e_ != cudaSuccess) {                                                                               \
      fprintf(stderr, "ph_baselines: %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      exit(1);                                                                                             \
    }                                                                                                      \
  } while (0)

enum { THREADS = 256, NSL = 32, LANES = 256, WMAX = 4, JACOBI_K = 10 };
static const double HEAT_R = 0.3, LEFT_VALUE = 1.0, RIGHT_VALUE = -0.5;

static double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

__host__ __device__ static int block_len(int b, int bs, int n) {
  int rest = n - b * bs;
  return rest < bs ? rest : bs;
}

// ---------------------------------------------------------------------------
// heat

__host__ __device__ static double heat_initial(int i) {
  unsigned h = (unsigned)i * 2654435761u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (double)(h >> 8) / 16777216.0;
}

// u, v: nb+2 blocks of bs cells, cell i at bs + i (as in ph_gtcc.c).
__global__ void __launch_bounds__(THREADS) k_heat_init(int n, int bs, double *u) {
  const int b = blockIdx.x, lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
  for (int i = lo + threadIdx.x; i < hi; i += blockDim.x) u[i] = heat_initial(i - bs);
}

__global__ void __launch_bounds__(THREADS) k_heat_update(int n, int bs, double r, const double *u, double *v) {
  const int b = blockIdx.x, lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
  for (int i = lo + threadIdx.x; i < hi; i += blockDim.x) v[i] = u[i] + r * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
}

__global__ void __launch_bounds__(THREADS) k_heat_copy(int n, int bs, const double *v, double *u) {
  const int b = blockIdx.x, lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
  for (int i = lo + threadIdx.x; i < hi; i += blockDim.x) u[i] = v[i];
}

struct Heat {
  int n, bs, nb, steps;
  double *u, *v; // device
};

static void heat_enqueue(const Heat &h, cudaStream_t s) {
  k_heat_init<<<h.nb, THREADS, 0, s>>>(h.n, h.bs, h.u);
  for (int t = 0; t < h.steps; t++) {
    k_heat_update<<<h.nb, THREADS, 0, s>>>(h.n, h.bs, HEAT_R, h.u, h.v);
    k_heat_copy<<<h.nb, THREADS, 0, s>>>(h.n, h.bs, h.v, h.u);
  }
  CK(cudaGetLastError());
}

static int heat_check(const Heat &h, const char *impl) {
  int n = h.n, bs = h.bs;
  std::vector<double> u((size_t)(h.nb + 2) * bs), ref(n), tmp(n);
  CK(cudaMemcpy(u.data(), h.u, u.size() * sizeof(double), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) ref[i] = heat_initial(i);
  for (int t = 0; t < h.steps; t++) {
    for (int i = 0; i < n; i++) {
      double l = i > 0 ? ref[i - 1] : LEFT_VALUE, rr = i + 1 < n ? ref[i + 1] : RIGHT_VALUE;
      tmp[i] = ref[i] + HEAT_R * (l - 2.0 * ref[i] + rr);
    }
    ref.swap(tmp);
  }
  double sum = 0.0, wsum = 0.0;
  for (int i = 0; i < n; i++) {
    double x = u[bs + i];
    if (!(std::fabs(x - ref[i]) <= 1e-9 * (1.0 + std::fabs(ref[i])))) {
      printf("CHECK FAIL %s heat N=%d: u[%d] = %.15e, sequential CPU %.15e\n", impl, n, i, x, ref[i]);
      return 0;
    }
    sum += x;
    wsum += x * (double)(i % 7 - 3);
  }
  printf("# check ok %s heat N=%d BS=%d blocks=%d steps=%d: sum %.12e wsum %.12e (every cell compared with the CPU)\n",
         impl, n, bs, h.nb, h.steps, sum, wsum);
  return 1;
}

// ---------------------------------------------------------------------------
// jacobi

static unsigned mix(unsigned h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}
static double unit(unsigned h) { return (double)(mix(h) >> 8) / 16777216.0; }
static int link_present(int i, int d) { return d == 1 || mix((unsigned)i * 8u + (unsigned)d) % 4u != 0; }
static double link_value(int i, int d) { return -(0.25 + 0.75 * unit((unsigned)i * 8u + (unsigned)d + 0x9e3779b9u)); }

struct Csr {
  int n;
  std::vector<int> rowptr, col;
  std::vector<double> val, diag, rhs;
};

static void build_matrix(int n, int w, Csr &A) {
  A.n = n;
  A.rowptr.assign(n + 1, 0);
  A.col.clear();
  A.val.clear();
  A.diag.assign(n, 0.0);
  A.rhs.assign(n, 0.0);
  std::vector<double> xstar(n);
  for (int i = 0; i < n; i++) xstar[i] = 2.0 * unit((unsigned)i + 12345u) - 1.0;
  for (int i = 0; i < n; i++) {
    A.rowptr[i] = (int)A.col.size();
    for (int d = w; d >= 1; d--)
      if (i - d >= 0 && link_present(i - d, d)) A.col.push_back(i - d), A.val.push_back(link_value(i - d, d));
    for (int d = 1; d <= w; d++)
      if (i + d < n && link_present(i, d)) A.col.push_back(i + d), A.val.push_back(link_value(i, d));
    double off = 0.0, ax = 0.0;
    for (int q = A.rowptr[i]; q < (int)A.col.size(); q++) off += std::fabs(A.val[q]), ax += A.val[q] * xstar[A.col[q]];
    A.diag[i] = 1.0125 * off + 0.001;
    A.rhs[i] = A.diag[i] * xstar[i] + ax;
  }
  A.rowptr[n] = (int)A.col.size();
}

// The slice of ph_gtcc.c's jacobi_slice (host and device).
__host__ __device__ static void jacobi_slice(int b, int s, int bs, int n, const int *rowptr, const int *col,
                                             const double *val, const double *diag, const double *rhs,
                                             const double *x, double *xn, double *part) {
  const int lo = b * bs, hi = lo + block_len(b, bs, n);
  double r = 0.0;
  for (int i = lo + s; i < hi; i += NSL) {
    double acc = rhs[i];
    for (int q = rowptr[i]; q < rowptr[i + 1]; q++) acc -= val[q] * x[bs + col[q]];
    const double xi = acc / diag[i];
    r += fabs(xi - x[bs + i]);
    xn[bs + i] = xi;
  }
  part[b * NSL + s] = r;
}

__host__ __device__ static double lane_sum(const double *part, int l, int total) {
  double s = 0.0;
  for (int q = l; q < total; q += LANES) s += part[q];
  return s;
}

__global__ void __launch_bounds__(THREADS) k_jac_init(int n, int bs, double *x) {
  const int b = blockIdx.x, lo = (b + 1) * bs, hi = lo + block_len(b, bs, n);
  for (int i = lo + threadIdx.x; i < hi; i += blockDim.x) x[i] = 1.0;
}

__global__ void __launch_bounds__(NSL) k_jacobi(int n, int bs, const int *rowptr, const int *col, const double *val,
                                               const double *diag, const double *rhs, const double *x, double *xn,
                                               double *part) {
  jacobi_slice(blockIdx.x, threadIdx.x, bs, n, rowptr, col, val, diag, rhs, x, xn, part);
}

__global__ void __launch_bounds__(LANES) k_check(const double *part, int total, double *hist) {
  hist[threadIdx.x] = lane_sum(part, threadIdx.x, total);
}

struct Jac {
  int n, bs, nb, iters, K, nhist;
  int *rowptr, *col;
  double *val, *diag, *rhs, *xa, *xb, *part, *hist; // device
};

// All launches of one run; the newest iterate ends in xa when iters is even.
static void jacobi_enqueue(const Jac &j, cudaStream_t s) {
  double *x = j.xa, *xn = j.xb;
  k_jac_init<<<j.nb, THREADS, 0, s>>>(j.n, j.bs, x);
  for (int it = 0; it < j.iters; it++) {
    k_jacobi<<<j.nb, NSL, 0, s>>>(j.n, j.bs, j.rowptr, j.col, j.val, j.diag, j.rhs, x, xn, j.part);
    std::swap(x, xn);
    if ((it + 1) % j.K == 0 || it + 1 == j.iters) k_check<<<1, LANES, 0, s>>>(j.part, j.nb * NSL, j.hist + (size_t)(it / j.K) * LANES);
  }
  CK(cudaGetLastError());
}

static int jacobi_check(const Jac &j, const Csr &A, const char *prog, const char *impl) {
  int n = j.n, bs = j.bs, nb = j.nb;
  size_t xlen = (size_t)(nb + 2) * bs;
  std::vector<double> x(xlen), hist((size_t)j.nhist * LANES);
  CK(cudaMemcpy(x.data(), j.iters % 2 ? j.xb : j.xa, xlen * sizeof(double), cudaMemcpyDeviceToHost));
  if (j.nhist) CK(cudaMemcpy(hist.data(), j.hist, hist.size() * sizeof(double), cudaMemcpyDeviceToHost));
  // sequential reference, the same slices and lane sums
  std::vector<double> ra(xlen, 0.0), rb(xlen, 0.0), part((size_t)nb * NSL + 1), rhist(hist.size());
  double *rx = ra.data(), *rxn = rb.data();
  for (int i = 0; i < n; i++) rx[bs + i] = 1.0;
  for (int it = 0; it < j.iters; it++) {
    for (int b = 0; b < nb; b++)
      for (int s = 0; s < NSL; s++)
        jacobi_slice(b, s, bs, n, A.rowptr.data(), A.col.data(), A.val.data(), A.diag.data(), A.rhs.data(), rx, rxn,
                     part.data());
    std::swap(rx, rxn);
    if ((it + 1) % j.K == 0 || it + 1 == j.iters)
      for (int l = 0; l < LANES; l++) rhist[(size_t)(it / j.K) * LANES + l] = lane_sum(part.data(), l, nb * NSL);
  }
  double sum = 0.0, wsum = 0.0;
  for (int i = 0; i < n; i++) {
    if (!(std::fabs(x[bs + i] - rx[bs + i]) <= 1e-9 * (1.0 + std::fabs(rx[bs + i])))) {
      printf("CHECK FAIL %s %s N=%d: x[%d] = %.15e, sequential CPU %.15e\n", impl, prog, n, i, x[bs + i], rx[bs + i]);
      return 0;
    }
    sum += x[bs + i];
    wsum += x[bs + i] * (double)(i % 7 - 3);
  }
  double hsum = 0.0;
  for (int h = 0; h < j.nhist; h++) {
    double res = 0.0, rres = 0.0;
    for (int l = 0; l < LANES; l++) res += hist[(size_t)h * LANES + l], rres += rhist[(size_t)h * LANES + l];
    if (!(std::fabs(res - rres) <= 1e-8 * std::fabs(rres) + 1e-300)) {
      printf("CHECK FAIL %s %s N=%d: residual %d = %.15e, sequential CPU %.15e\n", impl, prog, n, h, res, rres);
      return 0;
    }
    hsum += res * (double)(h % 5 + 1);
  }
  printf("# check ok %s %s N=%d BS=%d blocks=%d nnz=%d iters=%d K=%d: x sum %.12e wsum %.12e, residual history "
         "checksum %.12e (x and every residual compared with the CPU)\n",
         impl, prog, n, bs, nb, A.rowptr[n], j.iters, j.K, sum, wsum, hsum);
  return 1;
}

// ---------------------------------------------------------------------------
// Measurement: enqueue(s) is one complete run.

template <class F> static double median_ms(F enqueue, cudaStream_t s, int reps) {
  std::vector<double> ms;
  enqueue(s); // warm-up
  CK(cudaStreamSynchronize(s));
  for (int r = 0; r < reps; r++) {
    double t0 = now_ms();
    enqueue(s);
    CK(cudaStreamSynchronize(s));
    ms.push_back(now_ms() - t0);
  }
  std::sort(ms.begin(), ms.end());
  size_t m = ms.size();
  return m % 2 ? ms[m / 2] : 0.5 * (ms[m / 2 - 1] + ms[m / 2]);
}

static void report(const char *impl, const char *prog, int n, int bs, int steps, double med, int launches) {
  printf("# %s %s N=%d BS=%d steps=%d: median %.4f ms; %.3f us per step; %d kernel launches per run\n", impl, prog, n,
         bs, steps, med, steps ? med * 1e3 / steps : 0.0, launches);
  printf("%s,%s,%d,%d,%.4f\n", impl, prog, n, steps, med);
  fflush(stdout);
}

// Runs both implementations of one program; returns the number of failed checks.
template <class Enq, class Check>
static int measure(const char *prog, int n, int bs, int steps, int reps, int launches, Enq enqueue, Check check,
                   cudaStream_t s) {
  int fails = 0;
  // cuda_launch
  enqueue(s);
  CK(cudaStreamSynchronize(s));
  if (!check("cuda_launch")) fails++;
  else report("cuda_launch", prog, n, bs, steps, median_ms(enqueue, s, reps), launches);
  // cuda_graph
  cudaGraph_t g;
  cudaGraphExec_t ge;
  double t0 = now_ms();
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  enqueue(s);
  CK(cudaStreamEndCapture(s, &g));
  CK(cudaGraphInstantiate(&ge, g, 0));
  CK(cudaGraphUpload(ge, s));
  CK(cudaStreamSynchronize(s));
  printf("# cuda_graph %s N=%d: capture + instantiate + upload of %d launches %.2f ms (not timed below)\n", prog, n,
         launches, now_ms() - t0);
  auto graph = [&](cudaStream_t st) { CK(cudaGraphLaunch(ge, st)); };
  graph(s);
  CK(cudaStreamSynchronize(s));
  if (!check("cuda_graph")) fails++;
  else report("cuda_graph", prog, n, bs, steps, median_ms(graph, s, reps), launches);
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));
  return fails;
}

static int run_heat(int n, int bs, int steps, int reps, cudaStream_t s) {
  Heat h;
  h.n = n, h.bs = bs, h.nb = (n + bs - 1) / bs, h.steps = steps;
  size_t len = (size_t)(h.nb + 2) * bs;
  std::vector<double> u0(len, 0.0);
  u0[bs - 1] = LEFT_VALUE;
  u0[bs + n] = RIGHT_VALUE;
  CK(cudaMalloc(&h.u, len * sizeof(double)));
  CK(cudaMalloc(&h.v, len * sizeof(double)));
  CK(cudaMemcpy(h.u, u0.data(), len * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(h.v, u0.data(), len * sizeof(double), cudaMemcpyHostToDevice));
  int fails = measure(
      "heat", n, bs, steps, reps, 1 + 2 * steps, [&](cudaStream_t st) { heat_enqueue(h, st); },
      [&](const char *impl) { return heat_check(h, impl); }, s);
  CK(cudaFree(h.u));
  CK(cudaFree(h.v));
  return fails;
}

static int run_jacobi(bool checkpoints, int n, int bs, int iters, int reps, cudaStream_t s) {
  const char *prog = checkpoints ? "jacobi_checkpoints" : "jacobi_stages";
  Jac j;
  j.n = n, j.bs = bs, j.nb = (n + bs - 1) / bs, j.iters = iters, j.K = checkpoints ? JACOBI_K : 1;
  j.nhist = (iters + j.K - 1) / j.K;
  Csr A;
  build_matrix(n, bs < WMAX ? bs : WMAX, A);
  size_t nnz = A.col.size(), xlen = (size_t)(j.nb + 2) * bs;
  CK(cudaMalloc(&j.rowptr, (n + 1) * sizeof(int)));
  CK(cudaMalloc(&j.col, (nnz + 1) * sizeof(int)));
  CK(cudaMalloc(&j.val, (nnz + 1) * sizeof(double)));
  CK(cudaMalloc(&j.diag, n * sizeof(double)));
  CK(cudaMalloc(&j.rhs, n * sizeof(double)));
  CK(cudaMalloc(&j.xa, xlen * sizeof(double)));
  CK(cudaMalloc(&j.xb, xlen * sizeof(double)));
  CK(cudaMalloc(&j.part, ((size_t)j.nb * NSL + 1) * sizeof(double)));
  CK(cudaMalloc(&j.hist, ((size_t)j.nhist * LANES + 1) * sizeof(double)));
  CK(cudaMemcpy(j.rowptr, A.rowptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(j.col, A.col.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(j.val, A.val.data(), nnz * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(j.diag, A.diag.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(j.rhs, A.rhs.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemset(j.xa, 0, xlen * sizeof(double))); // guard blocks stay 0
  CK(cudaMemset(j.xb, 0, xlen * sizeof(double)));
  int launches = 1 + iters + j.nhist;
  int fails = measure(
      prog, n, bs, iters, reps, launches, [&](cudaStream_t st) { jacobi_enqueue(j, st); },
      [&](const char *impl) { return jacobi_check(j, A, prog, impl); }, s);
  CK(cudaFree(j.rowptr));
  CK(cudaFree(j.col));
  CK(cudaFree(j.val));
  CK(cudaFree(j.diag));
  CK(cudaFree(j.rhs));
  CK(cudaFree(j.xa));
  CK(cudaFree(j.xb));
  CK(cudaFree(j.part));
  CK(cudaFree(j.hist));
  return fails;
}

static int usage() {
  fprintf(stderr, "usage: ph_baselines heat|jacobi_stages|jacobi_checkpoints|all N BS STEPS REPS\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc != 6) return usage();
  const char *prog = argv[1];
  long n = atol(argv[2]), bs = atol(argv[3]), steps = atol(argv[4]), reps = atol(argv[5]);
  bool all = !strcmp(prog, "all"), heat = all || !strcmp(prog, "heat");
  bool stages = all || !strcmp(prog, "jacobi_stages"), chk = all || !strcmp(prog, "jacobi_checkpoints");
  if ((!heat && !stages && !chk) || n < 1 || bs < 1 || n + 2 * bs > (1L << 30) || steps < 0 || steps > (1L << 20) ||
      reps < 1)
    return usage();
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    fprintf(stderr, "ph_baselines: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("# ph_baselines: %s (%d SMs), N=%ld BS=%ld steps=%ld, %ld reps\n", prop.name, prop.multiProcessorCount, n, bs,
         steps, reps);
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  printf("impl,program,N,steps,ms\n");
  int fails = 0;
  if (heat) fails += run_heat((int)n, (int)bs, (int)steps, (int)reps, s);
  if (stages) fails += run_jacobi(false, (int)n, (int)bs, (int)steps, (int)reps, s);
  if (chk) fails += run_jacobi(true, (int)n, (int)bs, (int)steps, (int)reps, s);
  CK(cudaStreamDestroy(s));
  return fails ? 1 : 0;
}
