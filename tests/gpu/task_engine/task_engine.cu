/* GPU test of the task megakernel runtime (gtrt_task.cuh + the task API of
 * gtrt.h) through hand-written kernels shaped like gtcc's generated ones:
 *   wavefront   2D wavefront DAG (cell (i,j) after (i-1,j) and (i,j-1)),
 *               affine mode (init kernel), workers W = 1, 32, block, every
 *               queue policy, with and without ring reuse, against the CPU
 *   inspector   random depend patterns through gtrt_insp_*, many seeds
 *   overflow    GTRT_TASK_QUEUE_CAPACITY=2 on a wide DAG -> GTRT_ERR_OVERFLOW
 *   watchdog    a task body that never returns, GTRT_TASK_TIMEOUT=1 ->
 *               GTRT_ERR_TIMEOUT within seconds (in a child process: the
 *               kernel never ends, only process exit kills it)
 *   throughput  no-op tasks on a large wavefront: G tasks/s (printed only)
 *   phases      phased regions (gtrt_plan_*, gtrt_phase_*): an iterative
 *               loop of three task types, with taskwaits (grid barriers,
 *               empty phases) or through depend items only (steps overlap),
 *               W = 1, 32, block x every policy, ring reuse, against the CPU
 *
 *   task_engine [all|wavefront|inspector|overflow|watchdog|throughput|phases [steps]|phases-nofault [steps]]
 *
 * Exit status: 0 all passed, 1 a failure, 77 no GPU. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gtrt_task.cuh"

extern char **environ;

static int failures, passes;

static void check(bool ok, const std::string &what) {
  if (ok) {
    passes++;
  } else {
    failures++;
    printf("FAIL %s\n", what.c_str());
  }
}

#define CUDA_OK(call)                                                                              \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));       \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static const char *policy_name(int p) { return p == GTRT_TQ_SHARED ? "shared" : p == GTRT_TQ_BLOCK ? "block" : "task"; }

static const int kBlock = 256;

/* ---- (a) wavefront ------------------------------------------------------------------ */

/* Each cell holds K words; word k needs word k of the cell above and word
 * k+1 of the cell to the left, so lanes read what other lanes of the
 * predecessors wrote. */
static const int K = 64;

__host__ __device__ static unsigned cell(unsigned up, unsigned left, unsigned t, unsigned k) {
  return up * 3u + left * 5u + t + k;
}

template <int W> __global__ void __launch_bounds__(256) wave_kernel(unsigned *val, int R, int C, gtrt_taskq q) {
  unsigned t;
  while (gtrt_task_next<W>(q, t)) {
    int i = (int)(t / (unsigned)C), j = (int)(t % (unsigned)C);
    for (unsigned k = gtrt_task_lane<W>(); k < (unsigned)K; k += gtrt_task_width<W>()) {
      unsigned up = i ? val[(size_t)(t - C) * K + k] : 1u;
      unsigned left = j ? val[(size_t)(t - 1) * K + (k + 1) % K] : 2u;
      val[(size_t)t * K + k] = cell(up, left, t, k);
    }
    gtrt_task_publish<W>(q);
    if (gtrt_task_lane<W>() == 0) {
      if (j + 1 < C)
        gtrt_task_release(q, t + 1);
      if (i + 1 < R)
        gtrt_task_release(q, t + C);
    }
    gtrt_task_done<W>(q, t);
  }
}

/* No-op body: scheduling cost alone. */
template <int W> __global__ void __launch_bounds__(256) noop_kernel(int R, int C, gtrt_taskq q) {
  unsigned t;
  while (gtrt_task_next<W>(q, t)) {
    int i = (int)(t / (unsigned)C), j = (int)(t % (unsigned)C);
    gtrt_task_publish<W>(q);
    if (gtrt_task_lane<W>() == 0) {
      if (j + 1 < C)
        gtrt_task_release(q, t + 1);
      if (i + 1 < R)
        gtrt_task_release(q, t + C);
    }
    gtrt_task_done<W>(q, t);
  }
}

__global__ void wave_init(int R, int C, gtrt_taskq q) {
  for (unsigned t = blockIdx.x * blockDim.x + threadIdx.x; t < (unsigned)(R * C); t += gridDim.x * blockDim.x)
    gtrt_task_init_count(q, t, (t >= (unsigned)C) + (t % (unsigned)C != 0));
}

static gtrt_site wave_site = {"task_engine.cu", 1, "omp task loop (wavefront)"};

/* Runs one wavefront region; returns the status of gtrt_task_wait. */
template <int W> static gtrt_status run_wave(unsigned *dval, int R, int C, int policy, bool noop, float *ms) {
  gtrt_taskq q;
  gtrt_status st = gtrt_task_setup(&wave_site, (long long)R * C, policy, &q);
  if (st != GTRT_OK)
    return st;
  cudaEvent_t a, b;
  CUDA_OK(cudaEventCreate(&a));
  CUDA_OK(cudaEventCreate(&b));
  CUDA_OK(cudaEventRecord(a, 0));
  wave_init<<<gtrt_grid_for((long long)R * C, 256), 256>>>(R, C, q);
  const void *k = noop ? (const void *)noop_kernel<W> : (const void *)wave_kernel<W>;
  unsigned grid = gtrt_task_grid(&wave_site, k, kBlock, W, (long long)R * C);
  if (noop)
    noop_kernel<W><<<grid, kBlock>>>(R, C, q);
  else
    wave_kernel<W><<<grid, kBlock>>>(dval, R, C, q);
  CUDA_OK(cudaEventRecord(b, 0));
  st = gtrt_task_wait(&wave_site, &q);
  if (st == GTRT_OK && ms)
    CUDA_OK(cudaEventElapsedTime(ms, a, b));
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return st;
}

static std::vector<unsigned> wave_reference(int R, int C) {
  std::vector<unsigned> v((size_t)R * C * K);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      unsigned t = (unsigned)(i * C + j);
      for (int k = 0; k < K; k++) {
        unsigned up = i ? v[(size_t)(t - C) * K + k] : 1u;
        unsigned left = j ? v[(size_t)(t - 1) * K + (k + 1) % K] : 2u;
        v[(size_t)t * K + k] = cell(up, left, t, (unsigned)k);
      }
    }
  return v;
}

template <int W> static void wave_case(int R, int C, int policy, const char *cap) {
  std::string name = "wavefront " + std::to_string(R) + "x" + std::to_string(C) + " W=" + std::to_string(W) +
                     " " + policy_name(policy) + (cap ? std::string(" capacity ") + cap : std::string());
  if (cap)
    setenv("GTRT_TASK_QUEUE_CAPACITY", cap, 1);
  size_t n = (size_t)R * C * K;
  unsigned *d;
  CUDA_OK(cudaMalloc(&d, n * sizeof *d));
  CUDA_OK(cudaMemset(d, 0xff, n * sizeof *d));
  gtrt_status st = run_wave<W>(d, R, C, policy, false, nullptr);
  unsetenv("GTRT_TASK_QUEUE_CAPACITY");
  if (st != GTRT_OK) {
    check(false, name + ": " + gtrt_last_error());
    cudaFree(d);
    return;
  }
  std::vector<unsigned> got(n), want = wave_reference(R, C);
  CUDA_OK(cudaMemcpy(got.data(), d, n * sizeof *d, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaFree(d));
  size_t bad = 0;
  while (bad < n && got[bad] == want[bad])
    bad++;
  check(bad == n, name + (bad < n ? ": first wrong word " + std::to_string(bad) : std::string()));
}

static void test_wavefront() {
  static const int sizes[][2] = {{1, 1}, {1, 500}, {500, 1}, {300, 200}};
  for (int p = GTRT_TQ_SHARED; p <= GTRT_TQ_TASK; p++) {
    for (auto &s : sizes) {
      wave_case<1>(s[0], s[1], p, nullptr);
      wave_case<32>(s[0], s[1], p, nullptr);
      wave_case<0>(s[0], s[1], p, nullptr);
    }
    /* Ring reuse: far fewer entries than tasks (the widest antidiagonal is
     * 200 tasks; multi-queue rings spill into each other). */
    const char *cap = p == GTRT_TQ_SHARED ? "256" : "4";
    wave_case<1>(300, 200, p, cap);
    wave_case<32>(300, 200, p, cap);
    wave_case<0>(300, 200, p, cap);
  }
  printf("wavefront: done\n");
}

/* ---- (b) random DAGs through the inspector -------------------------------------------------- */

/* Task t reads its in/inout addresses, computes r = 1 + max(values read)
 * (or t % 7 with nothing read) and writes r to its out/inout addresses and
 * to out[t]. Only the OpenMP order of the sequential run gives the same
 * out[]. */
__device__ __host__ static unsigned insp_body(const unsigned *mem, unsigned *mem_w, const int *addr, const int *kind,
                                              int lo, int hi, unsigned t) {
  unsigned r = 0;
  bool any = false;
  for (int i = lo; i < hi; i++)
    if (kind[i] != 1) {
      unsigned x = mem[addr[i]];
      r = any && r > x ? r : x;
      any = true;
    }
  r = any ? r + 1 : t % 7u;
  for (int i = lo; i < hi; i++)
    if (kind[i] != 0)
      mem_w[addr[i]] = r;
  return r;
}

template <int W>
__global__ void __launch_bounds__(256) insp_kernel(unsigned *mem, unsigned *out, const int *off, const int *addr,
                                                   const int *kind, gtrt_taskq q) {
  unsigned t;
  while (gtrt_task_next<W>(q, t)) {
    if (gtrt_task_lane<W>() == 0)
      out[t] = insp_body(mem, mem, addr, kind, off[t], off[t + 1], t);
    gtrt_task_publish<W>(q);
    gtrt_task_release_graph<W>(q, t); /* lanes of one warp release at once (serially for W = 1) */
    gtrt_task_done<W>(q, t);
  }
}

static gtrt_site insp_site = {"task_engine.cu", 2, "omp task loop (inspector)"};

struct rand_dag {
  int n;
  std::vector<int> off, addr, kind;
};

static rand_dag make_dag(unsigned seed, int n, int naddr) {
  rand_dag g;
  g.n = n;
  srand(seed);
  g.off.push_back(0);
  for (int t = 0; t < n; t++) {
    int items = rand() % 4; /* 0..3 items, duplicates allowed */
    for (int i = 0; i < items; i++) {
      g.addr.push_back(rand() % naddr);
      g.kind.push_back(rand() % 3);
    }
    g.off.push_back((int)g.addr.size());
  }
  return g;
}

template <int W> static bool insp_run(const rand_dag &g, int naddr, int policy, std::string &why) {
  std::vector<unsigned> host_mem(naddr, 0), want(g.n);
  for (int t = 0; t < g.n; t++)
    want[t] = insp_body(host_mem.data(), host_mem.data(), g.addr.data(), g.kind.data(), g.off[t], g.off[t + 1],
                        (unsigned)t);
  std::vector<unsigned> want_mem = host_mem;

  gtrt_taskq q;
  if (gtrt_task_setup(&insp_site, g.n, policy, &q) != GTRT_OK)
    return why = gtrt_last_error(), false;
  static unsigned addr_space[64]; /* the host addresses the inspector sees */
  gtrt_insp *in = gtrt_insp_new(&insp_site, g.n);
  for (int t = 0; t < g.n; t++)
    for (int i = g.off[t]; i < g.off[t + 1]; i++)
      gtrt_insp_access(in, t, &addr_space[g.addr[i]], g.kind[i]);
  if (gtrt_insp_finish(&insp_site, in, &q) != GTRT_OK)
    return why = gtrt_last_error(), false;

  unsigned *mem, *out;
  int *off, *addr, *kind;
  size_t ni = g.addr.size() ? g.addr.size() : 1;
  CUDA_OK(cudaMalloc(&mem, naddr * sizeof *mem));
  CUDA_OK(cudaMalloc(&out, g.n * sizeof *out));
  CUDA_OK(cudaMalloc(&off, (g.n + 1) * sizeof *off));
  CUDA_OK(cudaMalloc(&addr, ni * sizeof *addr));
  CUDA_OK(cudaMalloc(&kind, ni * sizeof *kind));
  CUDA_OK(cudaMemset(mem, 0, naddr * sizeof *mem));
  CUDA_OK(cudaMemcpy(off, g.off.data(), (g.n + 1) * sizeof *off, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(addr, g.addr.data(), g.addr.size() * sizeof *addr, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(kind, g.kind.data(), g.kind.size() * sizeof *kind, cudaMemcpyHostToDevice));
  unsigned grid = gtrt_task_grid(&insp_site, (const void *)insp_kernel<W>, kBlock, W, g.n);
  insp_kernel<W><<<grid, kBlock>>>(mem, out, off, addr, kind, q);
  bool ok = gtrt_task_wait(&insp_site, &q) == GTRT_OK;
  if (!ok)
    why = gtrt_last_error();
  std::vector<unsigned> got(g.n), got_mem(naddr);
  CUDA_OK(cudaMemcpy(got.data(), out, g.n * sizeof *out, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(got_mem.data(), mem, naddr * sizeof *mem, cudaMemcpyDeviceToHost));
  for (int t = 0; ok && t < g.n; t++)
    if (got[t] != want[t])
      ok = false, why = "task " + std::to_string(t) + ": " + std::to_string(got[t]) + ", want " + std::to_string(want[t]);
  if (ok && got_mem != want_mem)
    ok = false, why = "final memory differs";
  cudaFree(mem), cudaFree(out), cudaFree(off), cudaFree(addr), cudaFree(kind);
  return ok;
}

static void test_inspector() {
  int runs = 0;
  for (unsigned seed = 1; seed <= 40; seed++) {
    int n = seed == 1 ? 1 : (int)(seed * 97 % 3000) + 2;
    int naddr = 1 + (int)(seed * 13 % 48);
    rand_dag g = make_dag(seed, n, naddr);
    for (int p = GTRT_TQ_SHARED; p <= GTRT_TQ_TASK; p++) {
      std::string why;
      int w = (int)(seed % 3);
      bool ok = w == 0 ? insp_run<1>(g, naddr, p, why) : w == 1 ? insp_run<32>(g, naddr, p, why) : insp_run<0>(g, naddr, p, why);
      check(ok, "inspector seed " + std::to_string(seed) + " n=" + std::to_string(n) + " addresses=" +
                    std::to_string(naddr) + " W=" + std::to_string(w == 0 ? 1 : w == 1 ? 32 : 0) + " " +
                    policy_name(p) + ": " + why);
      runs++;
    }
  }
  printf("inspector: %d random DAGs done\n", runs);
}

/* ---- star DAG: task 0 precedes all others ------------------------------------------------------ */

/* Task 0 spins while *spin != 0 (a body that never returns), then releases
 * every other task at once. */
__global__ void __launch_bounds__(256) star_kernel(volatile int *spin, gtrt_taskq q) {
  unsigned t;
  while (gtrt_task_next<32>(q, t)) {
    if (t == 0 && gtrt_task_lane<32>() == 0)
      while (*spin != 0)
        ;
    gtrt_task_publish<32>(q);
    if (gtrt_task_lane<32>() == 0 && t == 0)
      for (unsigned s = 1; s < q.ntasks; s++)
        gtrt_task_release(q, s);
    gtrt_task_done<32>(q, t);
  }
}

/* wide: no task waits for task 0 (all are roots: the widest DAG). */
__global__ void star_init(gtrt_taskq q, int wide) {
  for (unsigned t = blockIdx.x * blockDim.x + threadIdx.x; t < q.ntasks; t += gridDim.x * blockDim.x)
    gtrt_task_init_count(q, t, t && !wide ? 1 : 0);
}

static gtrt_status run_star(const gtrt_site *site, int n, int policy, int spin, int wide = 0) {
  int *flag;
  CUDA_OK(cudaMalloc(&flag, sizeof *flag));
  CUDA_OK(cudaMemcpy(flag, &spin, sizeof spin, cudaMemcpyHostToDevice));
  gtrt_taskq q;
  gtrt_status st = gtrt_task_setup(site, n, policy, &q);
  if (st != GTRT_OK)
    return st;
  star_init<<<4, 256>>>(q, wide);
  star_kernel<<<gtrt_task_grid(site, (const void *)star_kernel, kBlock, 32, n), kBlock>>>(flag, q);
  st = gtrt_task_wait(site, &q);
  if (!spin)
    CUDA_OK(cudaFree(flag));
  return st;
}

/* ---- (c) overflow ----------------------------------------------------------------------------- */

static bool has(const std::string &s, const char *part) { return s.find(part) != std::string::npos; }

static void test_overflow() {
  static gtrt_site star_site = {"star.c", 5, "omp task loop"};
  static unsigned cells[20000];
  const int n = 20000;
  setenv("GTRT_TASK_QUEUE_CAPACITY", "2", 1);
  for (int p = GTRT_TQ_SHARED; p <= GTRT_TQ_TASK; p++) {
    /* 20000 independent tasks through the inspector: the roots alone. */
    gtrt_taskq q;
    gtrt_status st = gtrt_task_setup(&insp_site, n, p, &q);
    gtrt_insp *in = gtrt_insp_new(&insp_site, n);
    for (int t = 0; t < n; t++)
      gtrt_insp_access(in, t, &cells[t], 1);
    if (st == GTRT_OK)
      st = gtrt_insp_finish(&insp_site, in, &q);
    std::string msg = gtrt_last_error();
    check(st == GTRT_ERR_OVERFLOW && has(msg, "task queue overflow in the omp task loop (inspector) at task_engine.cu:2: 2 "
                                              "entries per queue are not enough; raise GTRT_TASK_QUEUE_CAPACITY"),
          std::string("overflow of inspector roots, ") + policy_name(p) + ": status " + std::to_string(st) + " " + msg);
    /* On the device: the init kernel pushes 20000 roots. (A fan-out of one
     * task is no sure overflow: the poppers keep up with one pusher.) */
    st = run_star(&star_site, n, p, 0, 1);
    msg = gtrt_last_error();
    check(st == GTRT_ERR_OVERFLOW &&
              has(msg, "star.c:5: error: task queue overflow in the omp task loop at star.c:5: 2 entries per queue are "
                       "not enough; raise GTRT_TASK_QUEUE_CAPACITY"),
          std::string("overflow on the device, ") + policy_name(p) + ": status " + std::to_string(st) + " " + msg);
    printf("overflow %s: %s\n", policy_name(p), msg.c_str());
  }
  unsetenv("GTRT_TASK_QUEUE_CAPACITY");
  /* The runtime recovers: the same regions right after. */
  for (int p = GTRT_TQ_SHARED; p <= GTRT_TQ_TASK; p++) {
    gtrt_status st = run_star(&star_site, n, p, 0);
    check(st == GTRT_OK, std::string("star after overflow, ") + policy_name(p) + ": " + gtrt_last_error());
  }
  wave_case<32>(64, 64, GTRT_TQ_SHARED, nullptr);
}

/* ---- (d) watchdog (child process) ------------------------------------------------------------ */

/* Child: expects GTRT_ERR_TIMEOUT with the message, then exits with the
 * kernel still spinning, as gtrt_fatal would. */
static int watchdog_child() {
  static gtrt_site site = {"spin.c", 7, "omp task loop"};
  double t0 = gtrt_now_ms();
  gtrt_status st = run_star(&site, 1000, GTRT_TQ_SHARED, 1);
  double s = (gtrt_now_ms() - t0) / 1e3;
  std::string msg = gtrt_last_error();
  printf("watchdog: status %d after %.2f s: %s\n", st, s, msg.c_str());
  fflush(stdout);
  bool ok = st == GTRT_ERR_TIMEOUT &&
            has(msg, "spin.c:7: error: the task megakernel of the omp task loop at spin.c:7 made no progress for 1 s: ") &&
            has(msg, "(GTRT_TASK_TIMEOUT=seconds, default 10)") && s < 5;
  exit(ok ? 0 : 3);
}

/* Runs `self child` with GTRT_TASK_TIMEOUT=1; the child checks the error. */
static void test_watchdog(const char *self, const char *child) {
  pid_t pid;
  char *argv[] = {(char *)self, (char *)child, nullptr};
  setenv("GTRT_TASK_TIMEOUT", "1", 1);
  int e = posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv, environ);
  unsetenv("GTRT_TASK_TIMEOUT");
  if (e != 0) {
    check(false, std::string(child) + ": posix_spawn failed");
    return;
  }
  double t0 = gtrt_now_ms();
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (gtrt_now_ms() - t0 > 30000) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      check(false, std::string(child) + ": still running after 30 s (wait or exit hangs)");
      return;
    }
    usleep(10000);
  }
  double s = (gtrt_now_ms() - t0) / 1e3;
  printf("%s exited with %d after %.2f s (process exit included)\n", child,
         WIFEXITED(status) ? WEXITSTATUS(status) : -1, s);
  check(WIFEXITED(status) && WEXITSTATUS(status) == 0, std::string(child) + " failed");
}

/* ---- (e) throughput ----------------------------------------------------------------------------- */

template <int W> static void throughput_case(int N, int policy) {
  float ms = 0;
  gtrt_status st = run_wave<W>(nullptr, N, N, policy, true, &ms);
  if (st != GTRT_OK) {
    check(false, std::string("throughput: ") + gtrt_last_error());
    return;
  }
  run_wave<W>(nullptr, N, N, policy, true, &ms); /* second run: buffers already there */
  printf("throughput: %dx%d no-op wavefront, W=%d, %s queue: %.2f ms, %.3f G tasks/s\n", N, N, W, policy_name(policy),
         ms, (double)N * N / (ms * 1e6));
}

static void test_throughput() {
  for (int p = GTRT_TQ_SHARED; p <= GTRT_TQ_TASK; p++) {
    throughput_case<1>(10000, p);
    throughput_case<32>(10000, p);
    throughput_case<0>(2000, p);
  }
}

/* ---- (f) phased regions ----------------------------------------------------------------------- */

/* An iterative loop shaped like gtcc's phased regions: step s records
 *   task type 0: a[i] = mix(s, x)          n tasks (none when s % 5 == 2)
 *   taskwait                               (waits variant only)
 *   task type 1: b[i] = 3 b[i] + a[i] + a[i+1]   n tasks
 *   taskwait                               (waits variant only)
 *   task type 2: c[s] = b[0] + b[n-1] + x  one task
 *   taskwait, sometimes two                (waits variant only)
 * with x a host scalar updated every step (read by tasks through the
 * snapshot). Each element is PK words written by different lanes. Without
 * taskwaits the whole loop is one phase and steps overlap through the depend
 * items. */
static const int PK = 48;

struct ph_snap {
  int step;
  unsigned x;
};

__host__ __device__ static unsigned ph_mix(int s, unsigned x, unsigned i, unsigned k) {
  return x ^ (unsigned)s * 2654435761u ^ i * 40503u ^ k * 977u;
}

/* spin (watchdog test): task type 2 of step 1 waits while *spin != 0. */
/* One task of the phase kernel, run by a worker of V threads. */
template <int V>
__device__ void phase_task(unsigned *a, unsigned *b, unsigned *c, unsigned *runs, int n, const volatile int *spin,
                           gtrt_taskq &gt_q, const gtrt_phases &gt_ph, const unsigned char *gt_rec, unsigned gt_t) {
  const long long gt_lane = gtrt_task_lane<V>(), gt_width = gtrt_task_width<V>();
  const unsigned gt_i = gtrt_phase_inst(gt_q, gt_ph, gt_t);
  const unsigned i = gt_t - gtrt_phase_inst_first(gt_q, gt_ph, gt_i);
  const ph_snap *sn = (const ph_snap *)gtrt_phase_snap(gt_q, gt_ph, gt_i, gt_rec);
  switch (gtrt_phase_stage(gt_q, gt_ph, gt_i)) {
  case 0:
    for (long long k = gt_lane; k < PK; k += gt_width)
      a[(size_t)i * PK + k] = ph_mix(sn->step, sn->x, i, (unsigned)k);
    break;
  case 1:
    for (long long k = gt_lane; k < PK; k += gt_width) {
      size_t j = (size_t)(i + 1 == (unsigned)n ? 0 : i + 1) * PK + (k + 1) % PK;
      b[(size_t)i * PK + k] = b[(size_t)i * PK + k] * 3u + a[(size_t)i * PK + k] + a[j];
    }
    break;
  case 2:
    if (gt_lane == 0 && spin && sn->step == 1)
      while (*spin != 0)
        ;
    if (gt_lane == 0)
      c[sn->step] = b[0] + b[(size_t)n * PK - 1] + sn->x;
    break;
  }
  if (gt_lane == 0)
    atomicAdd(runs + gt_t, 1u);
  gtrt_task_publish<V>(gt_q);
  gtrt_task_release_graph<V>(gt_q, gt_t);
  gtrt_task_done<V>(gt_q, gt_t);
}

/* The megakernel of the phase tests, shaped as gtcc emits it: block
 * workers run a phase marked warp one task per warp. */
template <int W>
__global__ void __launch_bounds__(256) phase_kernel(unsigned *a, unsigned *b, unsigned *c, unsigned *runs, int n,
                                                    const volatile int *spin, gtrt_taskq gt_q, gtrt_phases gt_ph) {
  __shared__ __align__(16) unsigned char gt_rec[2][GTRT_PHASE_REC_MAX(sizeof(ph_snap))];
  gtrt_phase_load(gt_ph, 0, gt_rec[0]);
  __syncthreads();
  for (unsigned gt_p = 0; gt_p < gt_ph.nphases; gt_p++) {
    gtrt_phase_fetch(gt_ph, gt_p + 1, gt_rec[(gt_p + 1) & 1]);
    const int gt_mode = gtrt_phase_begin<W>(gt_q, gt_ph, gt_rec[gt_p & 1]);
    if (gt_mode == GTRT_PHASE_SKIP) {
      gtrt_phase_landed();
      __syncthreads();
      continue;
    }
    unsigned gt_t;
    if (gt_mode == GTRT_PHASE_WARPS) {
      while (gtrt_task_next<32>(gt_q, gt_t))
        phase_task<32>(a, b, c, runs, n, spin, gt_q, gt_ph, gt_rec[gt_p & 1], gt_t);
    } else {
      while (gtrt_task_next<W>(gt_q, gt_t))
        phase_task<W>(a, b, c, runs, n, spin, gt_q, gt_ph, gt_rec[gt_p & 1], gt_t);
    }
    if (!gtrt_phase_end(gt_q))
      return;
  }
}

static gtrt_site phase_site = {"task_engine.cu", 3, "omp single (phased tasks)"};

struct ph_state {
  std::vector<unsigned> a, b, c;
};

/* The CPU run, in program order. */
static ph_state phase_reference(int steps, int n) {
  ph_state r{std::vector<unsigned>((size_t)n * PK), std::vector<unsigned>((size_t)n * PK), std::vector<unsigned>(steps)};
  unsigned x = 12345u;
  for (int s = 0; s < steps; s++) {
    x = x * 1664525u + 1013904223u;
    if (s % 5 != 2)
      for (int i = 0; i < n; i++)
        for (int k = 0; k < PK; k++)
          r.a[(size_t)i * PK + k] = ph_mix(s, x, (unsigned)i, (unsigned)k);
    for (int i = 0; i < n; i++)
      for (int k = 0; k < PK; k++)
        r.b[(size_t)i * PK + k] =
            r.b[(size_t)i * PK + k] * 3u + r.a[(size_t)i * PK + k] + r.a[(size_t)((i + 1) % n) * PK + (k + 1) % PK];
    r.c[s] = r.b[0] + r.b[(size_t)n * PK - 1] + x;
  }
  return r;
}

/* The host walk: stage instances, snapshots, depend items (host addresses
 * of the reference arrays stand for the elements) and taskwaits. */
static gtrt_plan *phase_plan(int steps, int n, bool waits, ph_state &h) {
  gtrt_plan *pl = gtrt_plan_new(&phase_site, sizeof(ph_snap));
  unsigned x = 12345u;
  if (waits)
    gtrt_plan_barrier(pl); /* phase 0 has no tasks */
  for (int s = 0; s < steps; s++) {
    x = x * 1664525u + 1013904223u;
    ph_snap sn = {s, x};
    int n0 = s % 5 == 2 ? 0 : n;
    long long t = gtrt_plan_stage(pl, 0, n0, &sn, 1);
    for (int i = 0; i < n0; i++)
      gtrt_plan_access(pl, t + i, &h.a[(size_t)i * PK], 1);
    if (waits)
      gtrt_plan_barrier(pl);
    t = gtrt_plan_stage(pl, 1, n, &sn, 1);
    for (int i = 0; i < n; i++) {
      gtrt_plan_access(pl, t + i, &h.a[(size_t)i * PK], 0);
      gtrt_plan_access(pl, t + i, &h.a[(size_t)((i + 1) % n) * PK], 0);
      gtrt_plan_access(pl, t + i, &h.b[(size_t)i * PK], 2);
    }
    if (waits)
      gtrt_plan_barrier(pl);
    t = gtrt_plan_stage(pl, 2, 1, &sn, 0);
    gtrt_plan_access(pl, t, &h.b[0], 0);
    gtrt_plan_access(pl, t, &h.b[(size_t)(n - 1) * PK], 0);
    gtrt_plan_access(pl, t, &h.c[s], 1);
    if (waits && s % 3 == 0) /* else task type 2 shares a phase with the next step's type 0 */
      gtrt_plan_barrier(pl);
    if (waits && s % 7 == 0) { /* taskwait twice: an empty phase */
      gtrt_plan_barrier(pl);
      gtrt_plan_barrier(pl);
    }
  }
  return pl;
}

/* One region run: the status of gtrt_plan_finish or gtrt_task_wait, or
 * GTRT_ERR_ARG for wrong results (why says which). */
template <int W>
static gtrt_status phase_run(int steps, int n, bool waits, int policy, const ph_state &want, std::string &why,
                             const int *spin = nullptr) {
  ph_state h = want; /* addresses only */
  gtrt_plan *pl = phase_plan(steps, n, waits, h);
  gtrt_taskq q;
  gtrt_phases ph;
  double t0 = gtrt_now_ms();
  /* stages 0 and 1 run on any width: independent phases of them go one task per warp with block workers */
  static const unsigned char narrow[3] = {1, 1, 0};
  gtrt_status st = gtrt_plan_finish(&phase_site, pl, policy, narrow, 3, &q, &ph);
  if (st != GTRT_OK)
    return why = gtrt_last_error(), st;
  double t1 = gtrt_now_ms();
  unsigned *a, *b, *c, *runs;
  size_t na = (size_t)n * PK;
  CUDA_OK(cudaMalloc(&a, na * sizeof *a));
  CUDA_OK(cudaMalloc(&b, na * sizeof *b));
  CUDA_OK(cudaMalloc(&c, steps * sizeof *c));
  CUDA_OK(cudaMalloc(&runs, q.ntasks * sizeof *runs));
  CUDA_OK(cudaMemset(a, 0, na * sizeof *a));
  CUDA_OK(cudaMemset(b, 0, na * sizeof *b));
  CUDA_OK(cudaMemset(c, 0, steps * sizeof *c));
  CUDA_OK(cudaMemset(runs, 0, q.ntasks * sizeof *runs));
  unsigned grid = gtrt_task_grid(&phase_site, (const void *)phase_kernel<W>, kBlock, W, q.ntasks);
  phase_kernel<W><<<grid, kBlock>>>(a, b, c, runs, n, spin, q, ph);
  st = gtrt_task_wait(&phase_site, &q);
  double t2 = gtrt_now_ms();
  if (st != GTRT_OK) {
    why = gtrt_last_error();
    if (spin) /* the kernel still runs: leave it its memory */
      return st;
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(runs);
    return st;
  }
  bool ok = true;
  ph_state got{std::vector<unsigned>(na), std::vector<unsigned>(na), std::vector<unsigned>(steps)};
  std::vector<unsigned> got_runs(q.ntasks);
  CUDA_OK(cudaMemcpy(got.a.data(), a, na * sizeof *a, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(got.b.data(), b, na * sizeof *b, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(got.c.data(), c, steps * sizeof *c, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(got_runs.data(), runs, q.ntasks * sizeof *runs, cudaMemcpyDeviceToHost));
  for (unsigned t = 0; ok && t < q.ntasks; t++)
    if (got_runs[t] != 1)
      ok = false, why = "task " + std::to_string(t) + " ran " + std::to_string(got_runs[t]) + " times";
  for (int s = 0; ok && s < steps; s++)
    if (got.c[s] != want.c[s])
      ok = false, why = "c[" + std::to_string(s) + "] = " + std::to_string(got.c[s]) + ", want " + std::to_string(want.c[s]);
  if (ok && (got.a != want.a || got.b != want.b))
    ok = false, why = "final a or b differs";
  if (ok)
    why = std::to_string(q.ntasks) + " tasks, " + std::to_string(ph.nphases) + " phases: plan " +
          std::to_string((int)(t1 - t0)) + " ms, run " + std::to_string((int)(t2 - t1)) + " ms";
  cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(runs);
  return ok ? GTRT_OK : GTRT_ERR_ARG;
}

template <int W> static void phase_case(int steps, int n, bool waits, int policy, const char *cap, const ph_state &want) {
  std::string name = std::string("phases ") + (waits ? "taskwait" : "depend") + " steps=" + std::to_string(steps) +
                     " n=" + std::to_string(n) + " W=" + std::to_string(W) + " " + policy_name(policy) +
                     (cap ? std::string(" capacity ") + cap : std::string());
  if (cap)
    setenv("GTRT_TASK_QUEUE_CAPACITY", cap, 1);
  std::string why;
  bool ok = phase_run<W>(steps, n, waits, policy, want, why) == GTRT_OK;
  unsetenv("GTRT_TASK_QUEUE_CAPACITY");
  check(ok, name + ": " + why);
  if (ok)
    printf("%s: %s\n", name.c_str(), why.c_str());
}

/* Plans with nothing to launch, and misuse, through gtrt_plan_finish. */
static void phase_edges() {
  gtrt_taskq q;
  gtrt_phases ph;
  ph_snap sn = {0, 0};
  gtrt_plan *pl = gtrt_plan_new(&phase_site, sizeof(ph_snap));
  gtrt_plan_barrier(pl);
  gtrt_plan_stage(pl, 0, 0, &sn, 1);
  gtrt_plan_barrier(pl);
  gtrt_status st = gtrt_plan_finish(&phase_site, pl, GTRT_TQ_SHARED, nullptr, 0, &q, &ph);
  check(st == GTRT_OK && q.ntasks == 0, "phases: empty plan: " + std::string(gtrt_last_error()));
  pl = gtrt_plan_new(&phase_site, 0);
  gtrt_plan_stage(pl, 0, 2, nullptr, 0);
  gtrt_plan_access(pl, 1, &q, 1);
  gtrt_plan_access(pl, 0, &q, 1);
  st = gtrt_plan_finish(&phase_site, pl, GTRT_TQ_SHARED, nullptr, 0, &q, &ph);
  std::string msg = gtrt_last_error();
  check(st == GTRT_ERR_ARG && q.ntasks == 0 &&
            has(msg, "task_engine.cu:3: error: task plan of the 'omp single (phased tasks)' region: tasks reported out of order"),
        "phases: misuse: " + msg);
}

/* A stop inside a phase (overflow of the roots' pushes on the device)
 * leaves through the grid barrier; the next region runs normally. 20000
 * roots at once against block workers: far more than the claims waiting
 * (thread and warp workers claim ahead enough to absorb small phases).
 * The depend-only form: a phase whose tasks are all roots runs without a
 * queue (a static share per worker), so it cannot overflow. */
static void phase_overflow() {
  ph_state want = phase_reference(3, 20000);
  setenv("GTRT_TASK_QUEUE_CAPACITY", "2", 1);
  for (int p = GTRT_TQ_SHARED; p <= GTRT_TQ_TASK; p++) {
    std::string why;
    gtrt_status st = phase_run<0>(3, 20000, false, p, want, why);
    check(st == GTRT_ERR_OVERFLOW &&
              has(why, "task_engine.cu:3: error: task queue overflow in the omp single (phased tasks) at task_engine.cu:3: "
                       "2 entries per queue are not enough"),
          std::string("phases: overflow, ") + policy_name(p) + ": status " + std::to_string(st) + " " + why);
  }
  unsetenv("GTRT_TASK_QUEUE_CAPACITY");
  std::string why;
  check(phase_run<0>(3, 20000, true, GTRT_TQ_SHARED, want, why) == GTRT_OK, "phases: run after overflow: " + why);
}

/* Child: a task that never returns in the middle of a phased region; the
 * other blocks wait at the grid barrier or for work. Expects
 * GTRT_ERR_TIMEOUT, then exits with the kernel still spinning. */
static int phase_watchdog_child() {
  int one = 1, *spin;
  CUDA_OK(cudaMalloc(&spin, sizeof *spin));
  CUDA_OK(cudaMemcpy(spin, &one, sizeof one, cudaMemcpyHostToDevice));
  ph_state want = phase_reference(20, 300);
  std::string why;
  double t0 = gtrt_now_ms();
  gtrt_status st = phase_run<32>(20, 300, true, GTRT_TQ_SHARED, want, why, spin);
  double s = (gtrt_now_ms() - t0) / 1e3;
  printf("phases watchdog: status %d after %.2f s: %s\n", st, s, why.c_str());
  fflush(stdout);
  bool ok = st == GTRT_ERR_TIMEOUT &&
            has(why, "task_engine.cu:3: error: the task megakernel of the omp single (phased tasks) at task_engine.cu:3 "
                     "made no progress for 1 s: ") &&
            s < 5;
  exit(ok ? 0 : 3);
}

static void test_watchdog(const char *self, const char *child);

/* faults: also the overflow and watchdog cases (not under
 * compute-sanitizer: a kernel that never ends). */
static void test_phases(int steps, const char *self, bool faults) {
  const int n = 300;
  phase_edges();
  ph_state want = phase_reference(steps, n);
  for (int waits = 1; waits >= 0; waits--)
    for (int p = GTRT_TQ_SHARED; p <= GTRT_TQ_TASK; p++) {
      phase_case<1>(steps, n, waits, p, nullptr, want);
      phase_case<32>(steps, n, waits, p, nullptr, want);
      phase_case<0>(steps, n, waits, p, nullptr, want);
    }
  /* Ring reuse: far fewer entries than tasks (one phase of all tasks without
   * taskwaits; multi-queue rings spill into each other). */
  for (int p = GTRT_TQ_SHARED; p <= GTRT_TQ_TASK; p++)
    for (int waits = 1; waits >= 0; waits--)
      phase_case<32>(steps, n, waits, p, p == GTRT_TQ_SHARED ? "1024" : "16", want);
  /* Records without the snapshot copy (too large a table): every task reads
   * its instance's snapshot from global memory. */
  setenv("GTRT_PHASE_SNAP_INLINE", "0", 1);
  phase_case<0>(steps, n, true, GTRT_TQ_SHARED, nullptr, want);
  phase_case<32>(steps, n, false, GTRT_TQ_BLOCK, nullptr, want);
  unsetenv("GTRT_PHASE_SNAP_INLINE");
  /* A few steps, and one (phases shorter than the grid). */
  ph_state few = phase_reference(3, 5), one = phase_reference(1, 1);
  phase_case<1>(3, 5, true, GTRT_TQ_SHARED, nullptr, few);
  phase_case<32>(3, 5, false, GTRT_TQ_BLOCK, nullptr, few);
  phase_case<0>(1, 1, true, GTRT_TQ_TASK, nullptr, one);
  if (faults) {
    phase_overflow();
    test_watchdog(self, "phase-watchdog-child");
  }
  printf("phases: done\n");
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "all";
  setenv("GTRT_REQUIRE_DEVICE", "1", 0);
  if (!gtrt_use_device())
    return 77;
  if (!strcmp(what, "watchdog-child"))
    return watchdog_child();
  if (!strcmp(what, "phase-watchdog-child"))
    return phase_watchdog_child();
  bool all = !strcmp(what, "all");
  if (all || !strcmp(what, "wavefront"))
    test_wavefront();
  if (all || !strcmp(what, "inspector"))
    test_inspector();
  if (all || !strcmp(what, "overflow"))
    test_overflow();
  if (all || !strcmp(what, "watchdog"))
    test_watchdog(argv[0], "watchdog-child");
  if (all || !strcmp(what, "throughput"))
    test_throughput();
  if (all || !strcmp(what, "phases") || !strcmp(what, "phases-nofault"))
    test_phases(argc > 2 && atoi(argv[2]) > 0 ? atoi(argv[2]) : 1000, argv[0], strcmp(what, "phases-nofault") != 0);
  printf("%d passed, %d failed\n", passes, failures);
  return failures ? 1 : 0;
}
