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
 *
 *   task_engine [all|wavefront|inspector|overflow|watchdog|throughput]
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
    if (gtrt_task_lane<W>() == 0)
      gtrt_task_release_csr(q, t);
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

static void test_watchdog(const char *self) {
  pid_t pid;
  char *argv[] = {(char *)self, (char *)"watchdog-child", nullptr};
  setenv("GTRT_TASK_TIMEOUT", "1", 1);
  int e = posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv, environ);
  unsetenv("GTRT_TASK_TIMEOUT");
  if (e != 0) {
    check(false, "watchdog: posix_spawn failed");
    return;
  }
  double t0 = gtrt_now_ms();
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (gtrt_now_ms() - t0 > 30000) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      check(false, "watchdog: child still running after 30 s (wait or exit hangs)");
      return;
    }
    usleep(10000);
  }
  double s = (gtrt_now_ms() - t0) / 1e3;
  printf("watchdog: child exited with %d after %.2f s (process exit included)\n",
         WIFEXITED(status) ? WEXITSTATUS(status) : -1, s);
  check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "watchdog: child failed");
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

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "all";
  setenv("GTRT_REQUIRE_DEVICE", "1", 0);
  if (!gtrt_use_device())
    return 77;
  if (!strcmp(what, "watchdog-child"))
    return watchdog_child();
  bool all = !strcmp(what, "all");
  if (all || !strcmp(what, "wavefront"))
    test_wavefront();
  if (all || !strcmp(what, "inspector"))
    test_inspector();
  if (all || !strcmp(what, "overflow"))
    test_overflow();
  if (all || !strcmp(what, "watchdog"))
    test_watchdog(argv[0]);
  if (all || !strcmp(what, "throughput"))
    test_throughput();
  printf("%d passed, %d failed\n", passes, failures);
  return failures ? 1 : 0;
}
