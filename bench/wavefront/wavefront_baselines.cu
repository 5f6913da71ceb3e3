// Wavefront benchmark, hand-written CUDA baselines (BRIEF §5, issue 4 item 5).
//
// The Needleman-Wunsch recurrence on an (N+1) x (N+1) int32 score matrix H:
//   H[0][j] = -j*GAP, H[i][0] = -i*GAP,
//   H[i][j] = max(H[i-1][j-1] + (a[i-1] == b[j-1] ? MATCH : MISMATCH),
//                 H[i-1][j] - GAP, H[i][j-1] - GAP)          (1 <= i, j <= N)
// with a, b N random letters of "ACGT" from a fixed seed (the same generator
// and scores as wf_gtcc.c, so both print the same checksums).
//
// Implementations (column impl):
//   cuda_diag   one kernel launch per anti-diagonal i + j = d, d = 2 .. 2N
//               (2N-1 launches, one thread per cell, 256 threads per block,
//               as many blocks as the diagonal needs)
//   cuda_graph  the same 2N-1 launches captured once into a CUDA graph and
//               replayed with one cudaGraphLaunch per sweep (instantiation
//               is not timed; it is printed as a comment)
// Bodies (column body):
//   nw          the recurrence above
//   noop        the same launches and grid shapes; each thread stores one
//               byte, D[i][j] = 1, into a dummy (N+1) x (N+1) char matrix (a
//               store the compiler cannot remove), and reads nothing. It
//               measures launch and scheduling cost alone.
//
// usage: wavefront_baselines [BODY [N [REPS]]]
//   BODY  nw | noop | all (default all);  N (default 2000);  REPS (default 10)
// Per (impl, body): the sweep runs once on a matrix whose interior holds a
// sentinel, which is checked (nw: full compare with a CPU computation;
// noop: every interior byte written), then one more warm-up sweep, then REPS
// sweeps each timed with cudaEvents on the stream; the median is reported.
//
// Output (stdout): lines starting with '#' are comments; every other line is
//   impl,body,N,ms,tasks_per_s          (tasks = N*N cells)
// printed only for a variant that passed its check. A failed check prints
// "CHECK FAIL ..." and the program exits 1 after the other variants.
// Exit status: 0 ok, 1 check failure or CUDA error, 2 usage, 77 no GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define WF_MATCH 1
#define WF_MISMATCH (-1)
#define WF_GAP 1
#define WF_SEED 20261120u

#define CK(call)                                                                                           \
  do {                                                                                                     \
    cudaError_t e_ = (call);                                                                               \
    if (e_ != cudaSuccess) {                                                                               \
      fprintf(stderr, "wavefront_baselines: %s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
              cudaGetErrorString(e_));                                                                     \
      exit(1);                                                                                             \
    }                                                                                                      \
  } while (0)

static const int BLOCK = 256;
static const int SENTINEL = INT32_MIN; // no reachable score: |H| <= 2 N GAP

// ---------------------------------------------------------------------------
// Inputs and the CPU reference (same generator as wf_gtcc.c).

static void make_sequences(int n, std::vector<char> &a, std::vector<char> &b) {
  uint32_t s = WF_SEED;
  a.resize(n);
  b.resize(n);
  for (int k = 0; k < n; k++) {
    s = s * 1664525u + 1013904223u;
    a[k] = "ACGT"[s >> 30];
  }
  for (int k = 0; k < n; k++) {
    s = s * 1664525u + 1013904223u;
    b[k] = "ACGT"[s >> 30];
  }
}

// Boundary row and column set; the interior filled with fill.
static void init_matrix(int n, std::vector<int> &h, int fill) {
  size_t w = (size_t)n + 1;
  h.assign(w * w, fill);
  for (int j = 0; j <= n; j++) h[j] = -j * WF_GAP;
  for (int i = 0; i <= n; i++) h[(size_t)i * w] = -i * WF_GAP;
}

static void nw_cpu(int n, const char *a, const char *b, std::vector<int> &h) {
  size_t w = (size_t)n + 1;
  init_matrix(n, h, 0);
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++) {
      int d = h[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? WF_MATCH : WF_MISMATCH);
      int u = h[(i - 1) * w + j] - WF_GAP;
      int l = h[i * w + j - 1] - WF_GAP;
      h[i * w + j] = std::max(d, std::max(u, l));
    }
}

static long long last_row_sum(int n, const std::vector<int> &h) {
  long long s = 0;
  for (int j = 0; j <= n; j++) s += h[(size_t)n * (n + 1) + j];
  return s;
}

// ---------------------------------------------------------------------------
// Kernels: anti-diagonal d holds the cells (i, d - i), i in [i0, i0 + len).

__global__ void __launch_bounds__(BLOCK)
    k_nw_diag(int n, int d, int i0, int len, const char *__restrict__ a, const char *__restrict__ b, int *h) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= len) return;
  int i = i0 + t, j = d - i;
  size_t w = (size_t)n + 1;
  int dg = h[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? WF_MATCH : WF_MISMATCH);
  int up = h[(i - 1) * w + j] - WF_GAP;
  int lf = h[i * w + j - 1] - WF_GAP;
  h[i * w + j] = max(dg, max(up, lf));
}

__global__ void __launch_bounds__(BLOCK) k_noop_diag(int n, int d, int i0, int len, char *dmy) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= len) return;
  int i = i0 + t, j = d - i;
  dmy[(size_t)i * (n + 1) + j] = 1;
}

struct Dev {
  int n;
  char *a, *b; // device sequences
  int *h;      // (n+1)^2 scores
  char *dmy;   // (n+1)^2 dummy bytes for the noop body
};

// One sweep: 2N-1 launches on stream s.
static void sweep(const Dev &dv, bool nw, cudaStream_t s) {
  int n = dv.n;
  for (int d = 2; d <= 2 * n; d++) {
    int i0 = std::max(1, d - n), i1 = std::min(n, d - 1);
    int len = i1 - i0 + 1;
    int blocks = (len + BLOCK - 1) / BLOCK;
    if (nw)
      k_nw_diag<<<blocks, BLOCK, 0, s>>>(n, d, i0, len, dv.a, dv.b, dv.h);
    else
      k_noop_diag<<<blocks, BLOCK, 0, s>>>(n, d, i0, len, dv.dmy);
  }
  CK(cudaGetLastError());
}

// ---------------------------------------------------------------------------
// One (impl, body) measurement.

struct Ctx {
  Dev dv;
  cudaStream_t s;
  std::vector<char> a, b;
  std::vector<int> ref; // CPU result (nw)
  std::vector<int> h0;  // boundary + sentinel interior
  int reps;
  int fails;
};

static void reset_device(Ctx &c, bool nw) {
  size_t w = (size_t)c.dv.n + 1;
  if (nw)
    CK(cudaMemcpyAsync(c.dv.h, c.h0.data(), w * w * sizeof(int), cudaMemcpyHostToDevice, c.s));
  else
    CK(cudaMemsetAsync(c.dv.dmy, 0, w * w, c.s));
  CK(cudaStreamSynchronize(c.s));
}

// Checks the device result of one sweep; returns 1 if it is right.
static int check(Ctx &c, bool nw, const char *impl) {
  int n = c.dv.n;
  size_t w = (size_t)n + 1;
  if (nw) {
    std::vector<int> h(w * w);
    CK(cudaMemcpy(h.data(), c.dv.h, w * w * sizeof(int), cudaMemcpyDeviceToHost));
    for (size_t k = 0; k < w * w; k++)
      if (h[k] != c.ref[k]) {
        printf("CHECK FAIL %s nw N=%d: H[%zu][%zu] = %d, CPU %d\n", impl, n, k / w, k % w, h[k], c.ref[k]);
        return 0;
      }
    printf("# check ok %s nw N=%d: H[N][N] = %d, last-row sum %lld (full compare with the CPU)\n", impl, n,
           h[w * w - 1], last_row_sum(n, h));
  } else {
    std::vector<char> d(w * w);
    CK(cudaMemcpy(d.data(), c.dv.dmy, w * w, cudaMemcpyDeviceToHost));
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= n; j++)
        if (d[i * w + j] != 1) {
          printf("CHECK FAIL %s noop N=%d: D[%d][%d] not written\n", impl, n, i, j);
          return 0;
        }
    printf("# check ok %s noop N=%d: all %lld cells written\n", impl, n, (long long)n * n);
  }
  return 1;
}

static void report(const char *impl, const char *body, int n, std::vector<float> &ms) {
  std::sort(ms.begin(), ms.end());
  size_t r = ms.size();
  double med = r % 2 ? ms[r / 2] : 0.5 * (ms[r / 2 - 1] + ms[r / 2]);
  double tasks = (double)n * n;
  printf("%s,%s,%d,%.4f,%.4e\n", impl, body, n, med, tasks / (med * 1e-3));
  printf("# %s %s N=%d: median %.4f ms, min %.4f, max %.4f over %zu reps; %.3f us per diagonal\n", impl, body, n,
         med, ms[0], ms[r - 1], r, med * 1e3 / (2 * n - 1));
  fflush(stdout);
}

static void run_diag(Ctx &c, bool nw) {
  const char *body = nw ? "nw" : "noop";
  reset_device(c, nw);
  sweep(c.dv, nw, c.s);
  CK(cudaStreamSynchronize(c.s));
  if (!check(c, nw, "cuda_diag")) {
    c.fails++;
    return;
  }
  sweep(c.dv, nw, c.s); // warm-up
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int r = 0; r < c.reps; r++) {
    CK(cudaEventRecord(e0, c.s));
    sweep(c.dv, nw, c.s);
    CK(cudaEventRecord(e1, c.s));
    CK(cudaEventSynchronize(e1));
    float t;
    CK(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t);
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  report("cuda_diag", body, c.dv.n, ms);
}

static void run_graph(Ctx &c, bool nw) {
  const char *body = nw ? "nw" : "noop";
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CK(cudaEventRecord(e0, c.s));
  CK(cudaStreamBeginCapture(c.s, cudaStreamCaptureModeThreadLocal));
  sweep(c.dv, nw, c.s);
  CK(cudaStreamEndCapture(c.s, &g));
  CK(cudaGraphInstantiate(&ge, g, 0));
  CK(cudaGraphUpload(ge, c.s));
  CK(cudaEventRecord(e1, c.s));
  CK(cudaEventSynchronize(e1));
  float tinst;
  CK(cudaEventElapsedTime(&tinst, e0, e1));
  printf("# cuda_graph %s N=%d: capture + instantiate + upload of %d launches %.2f ms (not timed below)\n", body,
         c.dv.n, 2 * c.dv.n - 1, tinst);

  reset_device(c, nw);
  CK(cudaGraphLaunch(ge, c.s));
  CK(cudaStreamSynchronize(c.s));
  if (!check(c, nw, "cuda_graph")) {
    c.fails++;
  } else {
    CK(cudaGraphLaunch(ge, c.s)); // warm-up
    std::vector<float> ms;
    for (int r = 0; r < c.reps; r++) {
      CK(cudaEventRecord(e0, c.s));
      CK(cudaGraphLaunch(ge, c.s));
      CK(cudaEventRecord(e1, c.s));
      CK(cudaEventSynchronize(e1));
      float t;
      CK(cudaEventElapsedTime(&t, e0, e1));
      ms.push_back(t);
    }
    report("cuda_graph", body, c.dv.n, ms);
  }
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
}

static int usage(void) {
  fprintf(stderr, "usage: wavefront_baselines [nw|noop|all [N [REPS]]]   (defaults: all 2000 10)\n");
  return 2;
}

int main(int argc, char **argv) {
  const char *bodyarg = argc > 1 ? argv[1] : "all";
  int n = argc > 2 ? atoi(argv[2]) : 2000;
  int reps = argc > 3 ? atoi(argv[3]) : 10;
  bool do_nw = !strcmp(bodyarg, "nw") || !strcmp(bodyarg, "all");
  bool do_noop = !strcmp(bodyarg, "noop") || !strcmp(bodyarg, "all");
  if (argc > 4 || (!do_nw && !do_noop) || n < 1 || n > 46000 || reps < 1) return usage();

  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    fprintf(stderr, "wavefront_baselines: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("# wavefront_baselines: %s (%d SMs), N=%d, %d reps, scores match %d mismatch %d gap %d\n", prop.name,
         prop.multiProcessorCount, n, reps, WF_MATCH, WF_MISMATCH, WF_GAP);

  Ctx c;
  c.reps = reps;
  c.fails = 0;
  c.dv.n = n;
  size_t w = (size_t)n + 1;
  make_sequences(n, c.a, c.b);
  CK(cudaStreamCreateWithFlags(&c.s, cudaStreamNonBlocking));
  CK(cudaMalloc(&c.dv.a, n));
  CK(cudaMalloc(&c.dv.b, n));
  CK(cudaMemcpy(c.dv.a, c.a.data(), n, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(c.dv.b, c.b.data(), n, cudaMemcpyHostToDevice));
  c.dv.h = nullptr;
  c.dv.dmy = nullptr;
  if (do_nw) {
    nw_cpu(n, c.a.data(), c.b.data(), c.ref);
    printf("# CPU reference N=%d: H[N][N] = %d, last-row sum %lld\n", n, c.ref[w * w - 1], last_row_sum(n, c.ref));
    init_matrix(n, c.h0, SENTINEL);
    CK(cudaMalloc(&c.dv.h, w * w * sizeof(int)));
  }
  if (do_noop) CK(cudaMalloc(&c.dv.dmy, w * w));

  printf("impl,body,N,ms,tasks_per_s\n");
  if (do_nw) {
    run_diag(c, true);
    run_graph(c, true);
  }
  if (do_noop) {
    run_diag(c, false);
    run_graph(c, false);
  }
  CK(cudaFree(c.dv.a));
  CK(cudaFree(c.dv.b));
  if (c.dv.h) CK(cudaFree(c.dv.h));
  if (c.dv.dmy) CK(cudaFree(c.dv.dmy));
  CK(cudaStreamDestroy(c.s));
  return c.fails ? 1 : 0;
}
