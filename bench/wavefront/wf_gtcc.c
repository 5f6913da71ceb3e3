/* Wavefront benchmark, the gtcc side: Needleman-Wunsch written as a user of
 * gtcc writes it, one OpenMP task per cell with depend clauses on the cells
 * it reads and writes (BRIEF §4, task-dependency loops -> persistent
 * megakernel). The same computation as wavefront_baselines.cu (same
 * sequences, scores and checksums).
 *
 * usage: wf_gtcc BODY N REPS [IMPL]
 *   BODY  nw    H[i][j] = nw_cell(...) in each task
 *         noop  the same loop nest and dependences on a dummy char matrix
 *               D, with an empty task body
 *   N     matrix size (cells 1..N x 1..N)
 *   REPS  timed repetitions (after one untimed warm-up), median reported
 *   IMPL  label of the first CSV column (default: $WF_IMPL, else "gtcc")
 *
 * Built by gtcc (bench/wavefront/CMakeLists.txt, one binary per option set)
 * and by the plain C compiler (wf_cpu: the pragmas are ignored and the loop
 * runs sequentially, which is the CPU reference).
 *
 * Output: '#' comment lines, then one line
 *   IMPL,BODY,N,ms,tasks_per_s      (tasks = N*N cells, ms = median)
 * nw: after the target data region, H is compared in full with a plain
 * sequential computation; on a mismatch the program prints CHECK FAIL and
 * exits 1 (the CSV line is not printed). Exit status: 0 ok, 1 check failure
 * or allocation failure, 2 usage. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WF_MATCH 1
#define WF_MISMATCH (-1)
#define WF_GAP 1
#define WF_SEED 20261120u
#define WF_SENTINEL INT32_MIN /* no reachable score: |H| <= 2 N GAP */

/* One cell of the recurrence, reading the three cells above and to the left.
 * -DWF_CELL_SCALAR passes the values instead of the matrix (for a compiler
 * that cannot copy a function with a pointer-to-VLA parameter to the device). */
#ifndef WF_CELL_SCALAR
static int nw_cell(int n, int (*H)[n + 1], const char *a, const char *b, int i, int j) {
  int d = H[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? WF_MATCH : WF_MISMATCH);
  int u = H[i - 1][j] - WF_GAP;
  int l = H[i][j - 1] - WF_GAP;
  int m = d > u ? d : u;
  return m > l ? m : l;
}
#else
static int nw_cell(int diag, int up, int left, char ai, char bj) {
  int d = diag + (ai == bj ? WF_MATCH : WF_MISMATCH);
  int u = up - WF_GAP;
  int l = left - WF_GAP;
  int m = d > u ? d : u;
  return m > l ? m : l;
}
#endif

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int cmp_double(const void *x, const void *y) {
  double p = *(const double *)x, q = *(const double *)y;
  return (p > q) - (p < q);
}

static double median(double *v, int r) {
  qsort(v, (size_t)r, sizeof *v, cmp_double);
  return r % 2 ? v[r / 2] : 0.5 * (v[r / 2 - 1] + v[r / 2]);
}

/* a, b: n letters of "ACGT" from a fixed LCG (as in wavefront_baselines.cu). */
static void make_sequences(int n, char *a, char *b) {
  uint32_t s = WF_SEED;
  for (int k = 0; k < n; k++) {
    s = s * 1664525u + 1013904223u;
    a[k] = "ACGT"[s >> 30];
  }
  for (int k = 0; k < n; k++) {
    s = s * 1664525u + 1013904223u;
    b[k] = "ACGT"[s >> 30];
  }
}

/* Boundary row and column; the interior set to fill. */
static void init_matrix(int n, int (*H)[n + 1], int fill) {
  for (int i = 0; i <= n; i++)
    for (int j = 0; j <= n; j++)
      H[i][j] = i == 0 ? -j * WF_GAP : j == 0 ? -i * WF_GAP : fill;
}

/* The plain sequential computation the result is checked against. */
static void nw_reference(int n, int (*R)[n + 1], const char *a, const char *b) {
  init_matrix(n, R, 0);
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++) {
      int d = R[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? WF_MATCH : WF_MISMATCH);
      int u = R[i - 1][j] - WF_GAP;
      int l = R[i][j - 1] - WF_GAP;
      int m = d > u ? d : u;
      R[i][j] = m > l ? m : l;
    }
}

/* nw body: reps + 1 task sweeps over H inside one data region, the first
 * untimed; ms[r] = wall time of timed sweep r. */
static void run_nw(int N, int (*H)[N + 1], const char *a, const char *b, int reps, double *ms) {
#pragma omp target data map(tofrom: H[0:N+1][0:N+1]) map(to: a[0:N], b[0:N])
  {
    for (int r = -1; r < reps; r++) {
      double t0 = now_ms();
#pragma omp parallel
#pragma omp single
      for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++) {
#pragma omp task depend(in: H[i-1][j], H[i][j-1], H[i-1][j-1]) depend(out: H[i][j])
#ifndef WF_CELL_SCALAR
          H[i][j] = nw_cell(N, H, a, b, i, j);
#else
          H[i][j] = nw_cell(H[i - 1][j - 1], H[i - 1][j], H[i][j - 1], a[i - 1], b[j - 1]);
#endif
        }
      double t1 = now_ms();
      if (r >= 0) ms[r] = t1 - t0;
    }
  }
}

/* noop body: the same loop nest and dependences on the dummy D, empty tasks. */
static void run_noop(int N, char (*D)[N + 1], int reps, double *ms) {
  (void)D; /* only named by the map and depend clauses */
#pragma omp target data map(alloc: D[0:N+1][0:N+1])
  {
    for (int r = -1; r < reps; r++) {
      double t0 = now_ms();
#pragma omp parallel
#pragma omp single
      for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++) {
#pragma omp task depend(in: D[i-1][j], D[i][j-1]) depend(out: D[i][j])
          { }
        }
      double t1 = now_ms();
      if (r >= 0) ms[r] = t1 - t0;
    }
  }
}

static int usage(void) {
  fprintf(stderr, "usage: wf_gtcc nw|noop N REPS [IMPL]   (IMPL default: $WF_IMPL, else gtcc)\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 4 || argc > 5) return usage();
  const char *body = argv[1];
  int is_nw = strcmp(body, "nw") == 0;
  if (!is_nw && strcmp(body, "noop") != 0) return usage();
  int N = atoi(argv[2]), reps = atoi(argv[3]);
  if (N < 1 || N > 46000 || reps < 1) return usage();
  const char *impl = argc > 4 ? argv[4] : getenv("WF_IMPL");
  if (!impl || !*impl) impl = "gtcc";

  double *ms = malloc(sizeof(double) * (size_t)reps);
  if (!ms) {
    fprintf(stderr, "wf_gtcc: out of memory\n");
    return 1;
  }
  int status = 0;
  if (is_nw) {
    int (*H)[N + 1] = malloc(sizeof(int[N + 1][N + 1]));
    int (*R)[N + 1] = malloc(sizeof(int[N + 1][N + 1]));
    char *a = malloc((size_t)N), *b = malloc((size_t)N);
    if (!H || !R || !a || !b) {
      fprintf(stderr, "wf_gtcc: out of memory (N=%d)\n", N);
      return 1;
    }
    make_sequences(N, a, b);
    init_matrix(N, H, WF_SENTINEL);
    run_nw(N, H, a, b, reps, ms);
    nw_reference(N, R, a, b);
    for (int i = 0; i <= N && !status; i++)
      for (int j = 0; j <= N; j++)
        if (H[i][j] != R[i][j]) {
          printf("CHECK FAIL %s nw N=%d: H[%d][%d] = %d, sequential CPU %d\n", impl, N, i, j, H[i][j], R[i][j]);
          status = 1;
          break;
        }
    if (!status) {
      long long sum = 0;
      for (int j = 0; j <= N; j++) sum += H[N][j];
      printf("# check ok %s nw N=%d: H[N][N] = %d, last-row sum %lld (full compare with the CPU)\n", impl, N,
             H[N][N], sum);
    }
    free(H);
    free(R);
    free(a);
    free(b);
  } else {
    char (*D)[N + 1] = calloc((size_t)N + 1, sizeof(char[N + 1]));
    if (!D) {
      fprintf(stderr, "wf_gtcc: out of memory (N=%d)\n", N);
      return 1;
    }
    run_noop(N, D, reps, ms);
    free(D);
  }
  if (!status) {
    double med = median(ms, reps);
    double per_s = med > 0 ? (double)N * N / (med * 1e-3) : 0.0; /* 0: too fast to time (CPU noop) */
    printf("# %s %s N=%d: median %.4f ms, min %.4f, max %.4f over %d reps\n", impl, body, N, med, ms[0],
           ms[reps - 1], reps);
    printf("%s,%s,%d,%.4f,%.4e\n", impl, body, N, med, per_s);
  }
  free(ms);
  return status;
}
