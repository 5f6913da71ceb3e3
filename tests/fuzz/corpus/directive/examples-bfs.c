/* bfs: breadth-first search in a CSR graph, one offload region per level.
 * The outer loop runs over the vertices of the frontier, the inner loop
 * over each vertex's neighbours (no reduction), so the inner trip count is
 * the vertex's out-degree: a nested parallel loop for CollectiveDP.
 *
 *   bfs [VERTICES [SOURCES]]   built-in power-law graph with VERTICES
 *                              vertices (default 2^21 = 2,097,152, ~25M
 *                              edges), searched from SOURCES sources
 *                              (default 2) spread over the vertices
 *   bfs FILE.mtx [SOURCES]     the pattern of a square Matrix Market
 *                              matrix (see mmio.h): edge i -> j per entry
 *
 * The built-in graph has power-law out-degrees (Pareto, alpha = 4/3, at
 * least 3, at most 65536 neighbours; the largest hubs have tens of
 * thousands), half of the neighbours near the vertex and half uniform. It
 * comes from a 64-bit LCG and only exact IEEE operations, so every build
 * sees the same graph.
 *
 * Each level marks the unvisited neighbours of the frontier: every thread
 * that finds level[w] < 0 writes level[w] = d + 1 and next[w] = 1, the same
 * values whoever writes them, so the races are benign and the result is
 * deterministic. The host then collects the next frontier (in vertex order)
 * and clears next[].
 *
 * Prints, per source, the number of levels, the vertices reached, the
 * vertex count of every level and a checksum of the levels, one number per
 * line; time and traversed edges per second to stderr. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmio.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* One level: the neighbours of front[0..nf) not yet visited get level d + 1
 * and are flagged in next[]. */
static void expand(int n, int nnz, int nf, int d, const int *restrict rp, const int *restrict col,
                   const int *restrict front, int *restrict level, int *restrict next) {
  (void)n, (void)nnz; /* used only by the data clauses */
#pragma acc parallel loop copyin(rp[0:n+1], col[0:nnz], front[0:nf]) copy(level[0:n], next[0:n])
  for (int k = 0; k < nf; k++) {
    int v = front[k];
#pragma acc loop
    for (int j = rp[v]; j < rp[v + 1]; j++) {
      int w = col[j];
      if (level[w] < 0) {
        level[w] = d + 1;
        next[w] = 1;
      }
    }
  }
}

/* Knuth's MMIX LCG; uniform doubles in [0, 1) from the top 53 bits. */
static uint64_t lcg_next(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s;
}

static double lcg_unit(uint64_t *s) {
  return (double)(lcg_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* Out-degree ~ Pareto(x_m = 3, alpha = 4/3): 3 / v^(3/4) with v in (0, 1]. */
static int out_degree(uint64_t *s, int maxdeg) {
  double v = 1.0 - lcg_unit(s);
  double deg = 3.0 / (sqrt(v) * sqrt(sqrt(v)));
  return deg >= (double)maxdeg ? maxdeg : (int)deg;
}

static int generate(int n, mm_csr *A) {
  uint64_t s = 20261121u;
  int maxdeg = n < 65536 ? n : 65536;
  memset(A, 0, sizeof *A);
  A->nrows = A->ncols = n;
  A->rp = malloc(sizeof *A->rp * ((size_t)n + 1));
  if (!A->rp)
    return -1;
  long total = 0;
  A->rp[0] = 0;
  for (int i = 0; i < n; i++) {
    total += out_degree(&s, maxdeg);
    if (total > INT_MAX) {
      fprintf(stderr, "bfs: %d vertices give more than 2^31-1 edges\n", n);
      return -1;
    }
    A->rp[i + 1] = (int)total;
  }
  A->nnz = (int)total;
  A->col = malloc(sizeof *A->col * (size_t)(total ? total : 1));
  if (!A->col)
    return -1;
  for (int i = 0; i < n; i++)
    for (int j = A->rp[i]; j < A->rp[i + 1]; j++) {
      uint64_t r = lcg_next(&s) >> 16;
      long c;
      if (r & 1) /* near the vertex */
        c = ((long)i + (long)((r >> 1) % 257) - 128 + n) % n;
      else
        c = (long)((r >> 1) % (uint64_t)n);
      A->col[j] = (int)c;
    }
  return 0;
}

static int all_digits(const char *s) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return 0;
  return 1;
}

int main(int argc, char **argv) {
  mm_csr A;
  int nsrc = 2;
  if (argc > 3) {
    fprintf(stderr, "usage: bfs [VERTICES | FILE.mtx] [SOURCES]\n");
    return 2;
  }
  if (argc > 2) {
    char *end;
    long r = strtol(argv[2], &end, 10);
    if (*end || end == argv[2] || r < 1 || r > 1000) {
      fprintf(stderr, "bfs: SOURCES ('%s') must be an integer in [1, 1000]\n", argv[2]);
      return 2;
    }
    nsrc = (int)r;
  }
  if (argc > 1 && !all_digits(argv[1])) {
    char err[512];
    if (mm_read_csr(argv[1], &A, err, sizeof err) != 0) {
      fprintf(stderr, "bfs: %s\n", err);
      return 1;
    }
    if (A.nrows != A.ncols) {
      fprintf(stderr, "bfs: %s: the matrix is %d x %d, not square\n", argv[1], A.nrows, A.ncols);
      return 1;
    }
  } else {
    long verts = 1L << 21;
    if (argc > 1) {
      verts = strtol(argv[1], NULL, 10);
      if (verts > (1L << 30)) {
        fprintf(stderr, "bfs: VERTICES ('%s') must be at most 2^30\n", argv[1]);
        return 2;
      }
    }
    if (generate((int)verts, &A) != 0) {
      fprintf(stderr, "bfs: cannot generate a graph with %ld vertices (out of memory?)\n", verts);
      return 1;
    }
  }
  int n = A.nrows, nnz = A.nnz;

  int *level = malloc(sizeof *level * (size_t)(n ? n : 1));
  int *next = malloc(sizeof *next * (size_t)(n ? n : 1));
  int *front = malloc(sizeof *front * (size_t)(n ? n : 1));
  long *count = malloc(sizeof *count * ((size_t)n + 1));
  if (!level || !next || !front || !count) {
    fprintf(stderr, "bfs: out of memory\n");
    return 1;
  }
  int maxdeg = 0;
  for (int i = 0; i < n; i++)
    if (A.rp[i + 1] - A.rp[i] > maxdeg)
      maxdeg = A.rp[i + 1] - A.rp[i];
  printf("vertices %d\n", n);
  printf("edges %d\n", nnz);
  printf("maxdegree %d\n", maxdeg);
  printf("sources %d\n", n > 0 ? nsrc : 0);

  double first = 0.0, best = 0.0;
  long traversed = 0;
  for (int t = 0; t < nsrc && n > 0; t++) {
    int src = (int)((long)t * n / nsrc);
    for (int i = 0; i < n; i++)
      level[i] = -1, next[i] = 0;
    level[src] = 0;
    front[0] = src;
    int nf = 1, d = 0;
    long edges = 0;
    double t0 = now_ms();
    while (nf > 0) {
      count[d] = nf;
      for (int k = 0; k < nf; k++)
        edges += A.rp[front[k] + 1] - A.rp[front[k]];
      expand(n, nnz, nf, d, A.rp, A.col, front, level, next);
      nf = 0;
      for (int i = 0; i < n; i++)
        if (next[i]) {
          front[nf++] = i;
          next[i] = 0;
        }
      d++;
    }
    double ms = now_ms() - t0;
    traversed += edges;
    if (t == 0)
      first = ms;
    else if (t == 1 || ms < best)
      best = ms;

    long reached = 0, bad = 0;
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) {
      if (level[i] >= 0)
        reached++;
      if (level[i] >= d)
        bad++;
      h = (h ^ (uint64_t)(uint32_t)level[i]) * 1099511628211ULL;
    }
    printf("source %d\n", src);
    printf("levels %d\n", d);
    printf("reached %ld\n", reached);
    printf("bad %ld\n", bad);
    printf("checksum h%016llx\n", (unsigned long long)h);
    for (int l = 0; l < d; l++)
      printf("level %d %ld\n", l, count[l]);
  }
  double per = nsrc > 1 ? best : first;
  fprintf(stderr,
          "bfs: %d vertices, %d edges, largest out-degree %d: first search %.3f ms, best other %.3f "
          "ms (incl. transfers; %.1f M edges/s)\n",
          n, nnz, maxdeg, first, best, per > 0 && nsrc > 0 ? traversed / nsrc / (per * 1e3) : 0.0);
  mm_free(&A);
  free(level);
  free(next);
  free(front);
  free(count);
  return 0;
}
