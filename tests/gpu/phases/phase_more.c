/* More shapes of phased task regions, in exact integer arithmetic (every
 * value is a 32-bit unsigned hash, so a lost, repeated or misordered task
 * changes the checksums; they print as 8 hex digits).
 *
 *   phase_more [NB [BS [STEPS [BRK]]]]     (defaults 48 64 300 250)
 *
 * main runs the four regions below for 0, 1, 2 and STEPS steps (STEPS is
 * a run-time trip count; the short runs make regions with no task, one
 * step and two steps), each time from freshly initialised data.
 *
 * Region A (omp parallel + omp single, one function): per step t
 *   S1 task loop over NB blocks, buffers alternated by a flag the host code
 *      flips (offsets src/dst into one array U of two buffers with guard
 *      blocks), halo reads of the neighbour blocks, a parallel loop, and a
 *      coefficient the host code changes every step (declared outside the
 *      region: read back after it)
 *   S2 a single task between the task loops: hist[t] from two blocks of dst
 *   S3 task loop over m(t) = (5t + 1) % (NB + 1) blocks (0 .. NB, differs
 *      from step to step): V = f(V, dst)
 *   taskwait (first place)
 *   S4 2-deep task nest over an R x C grid of structs with a guard ring:
 *      nxt from the four neighbours' cur (halo reads; tasks of the nest are
 *      ordered by their depend items)
 *   S5 2-deep task nest: cur = g(nxt, cur)   (inout of the cell: after the
 *      S4 tasks that read it)
 *   every third step: taskwait (second place) and a single task whose
 *      parallel loop rescales every row of the grid
 * Region B (depend clauses only, steps overlap): a single task before the
 *   loop seeds acc; per step a task loop of NB - t % 4 blocks chains block
 *   b into block b+1 of X (in X[b], inout X[b+1]: a wavefront that
 *   pipelines over the steps), then a switch on t % 3: a single task that
 *   folds the last block into acc[0] (inout: a chain across steps), or a
 *   task loop counting down by 2 with a chain on acc[1] (program order of
 *   a decreasing loop), or `continue`; the loop leaves by `break` at step
 *   BRK. The loop counter and a counter of the host code are declared
 *   outside the region and read back after it.
 * Region C (omp parallel + omp master): per step, inside a taskgroup, two
 *   nested host loops (rows, then blocks) whose tasks read the indices and
 *   values of both host loops (firstprivate; values of mixed types: char,
 *   short, float, _Bool, long long, double in the snapshot); a second
 *   taskgroup with a task loop of row sums; then a single task that folds
 *   the row sums into acc (it runs in the next step's phase).
 * Region D (no taskwait): per step a 3-deep task nest over a 3-D array (a
 *   pointer to a VLA) whose tasks read the cell of the previous plane
 *   (cyclic, so plane 0 reads the last one: a WAR edge inside the step and
 *   a RAW edge across steps), and a single task that records one cell.
 * Written around two gtcc bugs found with it: no variable is named W or B
 * (they clash with the megakernel's template parameters in the .gt.cu),
 * and the struct's typedef is apart from its definition (`typedef struct
 * {...} T;` reaches the .gt.cu without `typedef`). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct cell {
  uint32_t cur, nxt;
  int16_t tag;
  uint8_t hits;
};
typedef struct cell cell_t;

static uint32_t mix(uint32_t x, uint32_t y) {
  x ^= y + 0x9e3779b9u + (x << 6) + (x >> 2);
  x *= 2654435761u;
  return x ^ (x >> 15);
}

/* ---- region A ------------------------------------------------------------ */

/* S4: cell (r, c) from the cur of its four neighbours */
static void step_cell(int C, cell_t (*P)[C + 2], int r, int c, int t) {
  const uint32_t s = P[r - 1][c].cur + 3u * P[r + 1][c].cur + 5u * P[r][c - 1].cur + 7u * P[r][c + 1].cur;
  P[r][c].nxt = mix(s, P[r][c].cur + (uint32_t)t);
  P[r][c].tag = (int16_t)(P[r][c].tag + (int16_t)((s >> 20) & 7u) - 3);
}

/* the rescale task's row r */
static void rescale_row(int C, cell_t (*P)[C + 2], int r, uint32_t coef) {
  for (int c = 1; c <= C; c++) P[r][c].cur = mix(P[r][c].cur, coef + (uint32_t)r);
}

static void region_a(int nb, int bs, int steps, int R, int C, uint32_t *U, uint32_t *V, uint32_t *hist,
                     cell_t (*P)[C + 2], uint32_t *coef_out, int *flag_out) {
  const int L = (nb + 2) * bs; /* one buffer: guard block, nb blocks, guard block */
  uint32_t coef = 0x01234567u;
  int flag = 0;
#pragma omp target data map(tofrom: U[0:2*L], V[0:nb*bs+1], hist[0:steps+1], P[0:R+2][0:C+2])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    const int src = flag * L, dst = (1 - flag) * L;
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(in: U[src + b*bs], U[src + (b+1)*bs], U[src + (b+2)*bs]) depend(out: U[dst + (b+1)*bs])
      {
        const int lo = (b + 1) * bs;
#pragma omp parallel for
        for (int i = lo; i < lo + bs; i++)
          U[dst + i] = mix(U[src + i - 1] + 3u * U[src + i + 1], U[src + i] ^ coef) + (uint32_t)t;
      }
    }
#pragma omp task depend(in: U[dst + bs], U[dst + nb*bs]) depend(out: hist[t])
    hist[t] = mix(U[dst + bs], U[dst + nb * bs + bs - 1]) ^ coef;
    const int m = (t * 5 + 1) % (nb + 1);
    for (int b = 0; b < m; b++) {
#pragma omp task depend(in: U[dst + (b+1)*bs]) depend(inout: V[b*bs])
      for (int i = 0; i < bs; i++) V[b * bs + i] = V[b * bs + i] * 33u + U[dst + (b + 1) * bs + i] + (uint32_t)m;
    }
#pragma omp taskwait
    for (int r = 1; r <= R; r++)
      for (int c = 1; c <= C; c++) {
#pragma omp task depend(in: P[r-1][c], P[r+1][c], P[r][c-1], P[r][c+1]) depend(inout: P[r][c])
        step_cell(C, P, r, c, t);
      }
    for (int r = 1; r <= R; r++)
      for (int c = 1; c <= C; c++) {
#pragma omp task depend(inout: P[r][c])
        {
          P[r][c].cur = P[r][c].nxt ^ (P[r][c].cur >> 5);
          P[r][c].hits++;
        }
      }
    if (t % 3 == 2) {
#pragma omp taskwait
#pragma omp task depend(inout: P[0][0])
      {
#pragma omp parallel for
        for (int r = 1; r <= R; r++) rescale_row(C, P, r, coef);
      }
    }
    coef = coef * 1664525u + 1013904223u;
    flag = 1 - flag;
  }
  *coef_out = coef;
  *flag_out = flag;
}

/* ---- region B ------------------------------------------------------------ */

/* block b+1 of X from itself and block b */
static void chain_block(uint32_t *X, int b, int bs, int t) {
  for (int i = 0; i < bs; i++) X[(b + 1) * bs + i] = mix(X[(b + 1) * bs + i], X[b * bs + (i + t) % bs]);
}

static void region_b(int nb, int bs, int steps, int brk, uint32_t *X, uint32_t *Y, uint32_t *acc, int *t_out,
                     int *cnt_out) {
  int t, cnt = 0; /* X: block 0 a fixed source block, blocks 1 .. nb the chain */
#pragma omp target data map(tofrom: X[0:(nb+1)*bs], Y[0:nb*bs+1], acc[0:2])
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out: acc[0], acc[1])
    {
      acc[0] = 0x9e3779b9u;
      acc[1] = 12345u;
    }
    for (t = 0; t < steps; t++) {
      if (t == brk) break;
      const int m = nb - t % 4;
      for (int b = 0; b < m; b++) {
#pragma omp task depend(in: X[b*bs]) depend(inout: X[(b+1)*bs])
        chain_block(X, b, bs, t);
      }
      switch (t % 3) {
      case 0:
#pragma omp task depend(in: X[nb*bs]) depend(inout: acc[0])
        acc[0] = mix(acc[0], X[nb * bs + bs - 1] + (uint32_t)t);
        break;
      case 1:
        for (int b = m - 1; b >= 0; b -= 2) {
#pragma omp task depend(in: X[(b+1)*bs]) depend(inout: Y[b*bs], acc[1])
          {
            for (int i = 0; i < bs; i++) Y[b * bs + i] = mix(Y[b * bs + i], X[(b + 1) * bs + i] ^ (uint32_t)t);
            acc[1] = acc[1] * 31u + Y[b * bs] + (uint32_t)b;
          }
        }
        break;
      default:
        cnt += 2;
        continue;
      }
      cnt++;
    }
  }
  *t_out = t;
  *cnt_out = cnt;
}

/* ---- region C ------------------------------------------------------------ */

static uint32_t row_hash(const uint32_t *Z, int base, int len) {
  uint32_t h = 0;
  for (int i = 0; i < len; i++) h = h * 131u + Z[base + i];
  return h;
}

static void region_c(int R, int nbr, int bs, int steps, uint32_t *Z, uint32_t *S, uint32_t *acc) {
  const int rs = nbr * bs;
#pragma omp target data map(tofrom: Z[0:R*rs+1], S[0:R*steps+1], acc[0:1])
#pragma omp parallel
#pragma omp master
  {
    for (int t = 0; t < steps; t++) {
#pragma omp taskgroup
      {
        for (int r = 0; r < R; r++) {
          const int base = r * rs;
          const uint32_t salt = (uint32_t)(t * 131 + r * 7);
          const signed char sc = (signed char)(r - 2);
          const short sh = (short)(t * 3 - 500);
          const float fr = 0.25f * (float)r;
          const _Bool odd = (t & 1) != 0;
          const long long big = (long long)t << 33;
          const double dh = 0.5 * (double)(t % 7);
          for (int b = 0; b < nbr; b++) {
#pragma omp task depend(in: Z[base + ((b+1)%nbr)*bs]) depend(inout: Z[base + b*bs]) firstprivate(salt)
            {
              const int nxt = base + ((b + 1) % nbr) * bs;
              const uint32_t k = (uint32_t)(r * 1000 + b) + (uint32_t)sc + (uint32_t)sh + (uint32_t)(fr * 4.0f) +
                                 (odd ? 77u : 0u) + (uint32_t)(big >> 30) + (uint32_t)(dh * 2.0);
              for (int i = 0; i < bs; i++)
                Z[base + b * bs + i] = mix(Z[base + b * bs + i] + salt, Z[nxt + (bs - 1 - i)] + k);
            }
          }
        }
      }
#pragma omp taskgroup
      {
        for (int r = 0; r < R; r++) {
#pragma omp task depend(in: Z[r*rs]) depend(out: S[t*R + r])
          S[t * R + r] = row_hash(Z, r * rs, rs) ^ (uint32_t)t;
        }
      }
#pragma omp task depend(in: S[t*R]) depend(inout: acc[0])
      {
        for (int r = 0; r < R; r++) acc[0] = mix(acc[0], S[t * R + r]);
      }
    }
  }
}

/* ---- region D ------------------------------------------------------------ */

static void region_d(int A, int B2, int C3, int steps, uint32_t (*Q)[B2][C3], uint32_t *probe) {
#pragma omp target data map(tofrom: Q[0:A][0:B2][0:C3], probe[0:steps+1])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < A; i++)
      for (int j = 0; j < B2; j++)
        for (int k = 0; k < C3; k++) {
#pragma omp task depend(in: Q[(i+A-1)%A][j][k]) depend(inout: Q[i][j][k])
          Q[i][j][k] = mix(Q[i][j][k], Q[(i + A - 1) % A][j][k] + (uint32_t)(t * 1000 + i * 100 + j * 10 + k));
        }
#pragma omp task depend(in: Q[t%A][t%B2][t%C3]) depend(out: probe[t])
    probe[t] = Q[t % A][t % B2][t % C3] ^ (uint32_t)t;
  }
}

/* ---- driver -------------------------------------------------------------- */

static uint32_t hash_u32(const uint32_t *v, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ v[i]) * 16777619u;
  return h;
}

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 48, bs = argc > 2 ? atoi(argv[2]) : 64;
  int steps = argc > 3 ? atoi(argv[3]) : 300, brk = argc > 4 ? atoi(argv[4]) : 250;
  if (argc > 5 || nb < 1 || bs < 1 || steps < 0) {
    fprintf(stderr, "usage: phase_more [NB [BS [STEPS [BRK]]]]\n");
    return 2;
  }
  enum { R = 16, C = 12, RC = 4, DA = 6, DB = 5, DC = 7 };
  const int runs[4] = {0, 1, 2, steps}, maxs = steps > 2 ? steps : 2;
  const int L = (nb + 2) * bs, LX = (nb + 1) * bs, nbr = nb / 3 + 1, rs = nbr * bs;
  uint32_t *U = malloc(sizeof(uint32_t) * 2 * (size_t)L), *V = malloc(sizeof(uint32_t) * ((size_t)nb * bs + 1));
  uint32_t *hist = malloc(sizeof(uint32_t) * ((size_t)maxs + 1));
  cell_t (*P)[C + 2] = malloc(sizeof(cell_t) * (R + 2) * (C + 2));
  uint32_t *X = malloc(sizeof(uint32_t) * (size_t)LX), *Y = malloc(sizeof(uint32_t) * ((size_t)nb * bs + 1));
  uint32_t *accb = malloc(sizeof(uint32_t) * 2), *accc = malloc(sizeof(uint32_t));
  uint32_t *Z = malloc(sizeof(uint32_t) * ((size_t)RC * rs + 1)), *S = malloc(sizeof(uint32_t) * ((size_t)RC * maxs + 1));
  uint32_t (*Q)[DB][DC] = malloc(sizeof(uint32_t) * DA * DB * DC), *probe = malloc(sizeof(uint32_t) * ((size_t)maxs + 1));
  if (!U || !V || !hist || !P || !X || !Y || !accb || !accc || !Z || !S || !Q || !probe) return 1;
  printf("phase_more nb %d bs %d steps %d brk %d grid %d x %d rows %d of %d blocks box %d x %d x %d\n", nb, bs, steps,
         brk, R, C, RC, nbr, DA, DB, DC);

  for (int k = 0; k < 4; k++) {
    const int st = runs[k];
    /* region A */
    for (int i = 0; i < 2 * L; i++) U[i] = mix((uint32_t)i, 17u);
    for (int i = 0; i <= nb * bs; i++) V[i] = (uint32_t)i * 7u;
    for (int i = 0; i <= maxs; i++) hist[i] = 0xdeadbeefu;
    for (int r = 0; r < R + 2; r++)
      for (int c = 0; c < C + 2; c++) P[r][c] = (cell_t){mix((uint32_t)r, (uint32_t)c), 0u, (int16_t)(r - c), 0};
    uint32_t coef = 0;
    int flag = -1;
    region_a(nb, bs, st, R, C, U, V, hist, P, &coef, &flag);
    uint32_t hp = 2166136261u;
    int tags = 0, hits = 0;
    for (int r = 0; r < R + 2; r++)
      for (int c = 0; c < C + 2; c++) {
        hp = (hp ^ P[r][c].cur) * 16777619u;
        hp = (hp ^ P[r][c].nxt) * 16777619u;
        tags += P[r][c].tag * (r + 2 * c + 1);
        hits += P[r][c].hits;
      }
    printf("A steps %d: U %08x V %08x hist %08x grid %08x tags %d hits %d coef %08x flag %d\n", st,
           hash_u32(U, 2 * (size_t)L), hash_u32(V, (size_t)nb * bs), hash_u32(hist, (size_t)st), hp, tags, hits,
           coef, flag);

    /* region B */
    for (int i = 0; i < LX; i++) X[i] = mix((uint32_t)i, 5u);
    for (int i = 0; i <= nb * bs; i++) Y[i] = (uint32_t)i;
    accb[0] = accb[1] = 0;
    int t = -1, cnt = -1;
    region_b(nb, bs, st, brk, X, Y, accb, &t, &cnt);
    printf("B steps %d: X %08x Y %08x acc %08x %08x t %d cnt %d\n", st, hash_u32(X, (size_t)LX),
           hash_u32(Y, (size_t)nb * bs), accb[0], accb[1], t, cnt);

    /* region C */
    for (int i = 0; i <= RC * rs; i++) Z[i] = mix((uint32_t)i, 9u);
    for (int i = 0; i <= RC * maxs; i++) S[i] = 0;
    accc[0] = 1u;
    region_c(RC, nbr, bs, st, Z, S, accc);
    printf("C steps %d: Z %08x S %08x acc %08x\n", st, hash_u32(Z, (size_t)RC * rs), hash_u32(S, (size_t)RC * st),
           accc[0]);

    /* region D */
    for (int i = 0; i < DA; i++)
      for (int j = 0; j < DB; j++)
        for (int c = 0; c < DC; c++) Q[i][j][c] = mix((uint32_t)(i * 100 + j * 10 + c), 3u);
    for (int i = 0; i <= maxs; i++) probe[i] = 0;
    region_d(DA, DB, DC, st, Q, probe);
    printf("D steps %d: Q %08x probe %08x\n", st, hash_u32(&Q[0][0][0], (size_t)DA * DB * DC),
           hash_u32(probe, (size_t)st));
  }
  free(U), free(V), free(hist), free(P), free(X), free(Y), free(accb), free(accc), free(Z), free(S), free(Q), free(probe);
  return 0;
}
