/* The last plan's graph, kept for the next plan that replays the same
 * items (record and replay, as OpenMP 6's taskgraph does by hand): a
 * region called again with the same depend items (a solver run every time
 * step, a benchmark repetition) then compares its items with the memo
 * instead of hashing them, and borrows the memo's graph instead of
 * building it. The items are compared exactly, never by a hash: a run
 * that differs anywhere replays everything and replaces the memo. One
 * memo per process (a plan takes it at gtrt_plan_new and gives it back
 * at gtrt_plan_free); at most GTRT_MEMO_MAX_ITEMS items are kept. An
 * instance given by strides (gtrt_plan_strided) is kept as its
 * descriptor and compared as one, so a host walk of block loops costs a
 * comparison per instance, not per item. The
 * memo's graph is shared with the plan graph that borrows it, which must
 * be freed before the next plan is built (gtrt_plan_finish does). */
#include <stdlib.h>
#include <string.h>

#include "gtrt_core.h"
#include "gtrt_insp.h"

/* 64 MB of items (16 bytes each); a larger plan keeps no memo */
#define GTRT_MEMO_MAX_ITEMS ((size_t)1 << 22)

/* A chunk is items[previous end .. end), or, when its send is one more
 * than the previous chunk's, the descriptor strides[send - 1]. */
typedef struct gtrt_memo_chunk {
  size_t end, send;
  unsigned lo; /* the first task of their phase (gtrt_replay_items' lo) */
} gtrt_memo_chunk;

struct gtrt_plan_memo {
  gtrt_insp_item *items; /* every chunk the recorded plan replayed, in order */
  size_t cap;
  gtrt_strides *strides; /* the descriptor chunks' */
  size_t capstrides;
  gtrt_memo_chunk *chunks;
  size_t nchunks, capchunks;
  unsigned ntasks;  /* the recorded plan's tasks */
  int valid;        /* g is the graph of these chunks and ntasks */
  gtrt_task_graph g;
  /* gtrt_plan_levels' answer for g (lv_width 0: none yet): lv_n phase
   * ends lv_end, or lv_n == 0 for "stays as it is"; it also depends on
   * the phase ends and instance begins, kept in lv_key */
  unsigned lv_width, lv_n;
  unsigned *lv_end;
  unsigned *lv_key;
  size_t lv_nkey;
  const gtrt_site *site; /* the region of the recorded plan */
  const gtrt_site *seen; /* the region of the last plan */
  /* the current plan's use of it (IDLE: neither uses nor changes it) */
  enum { GTRT_MEMO_MATCHING, GTRT_MEMO_RECORDING, GTRT_MEMO_OFF, GTRT_MEMO_IDLE } state;
  size_t pos;       /* MATCHING: the chunks matched so far (nothing replayed) */
  size_t unsaid;    /* after a difference: the leading chunks the replay has not seen, */
  size_t said;      /*   of which gtrt_memo_catch_up replayed this many */
};

static gtrt_plan_memo *gtrt_memo_kept;

/* A plan records only when the region ran before (the last plan was its
 * own): recording costs a page fault per 4 KB of fresh memory (16 bytes
 * per item: a checkpoint-form walk of 1.28 M items went from 11 to 22 ms),
 * which a region run once would pay for nothing. So a region's second run
 * records and its third reuses. */
gtrt_plan_memo *gtrt_memo_take(const gtrt_site *site) {
  if (gtrt_env_off("GTRT_PLAN_MEMO")) /* every plan builds its graph */
    return NULL;
  gtrt_plan_memo *m = __atomic_exchange_n(&gtrt_memo_kept, NULL, __ATOMIC_ACQ_REL);
  if (!m)
    m = calloc(1, sizeof *m); /* NULL: this plan keeps no memo */
  if (m) {
    const int mine = (m->valid && m->site == site) || m->seen == site;
    m->state = mine ? GTRT_MEMO_MATCHING : GTRT_MEMO_IDLE;
    m->seen = site;
    m->pos = m->unsaid = m->said = 0;
  }
  return m;
}

static void gtrt_memo_free(gtrt_plan_memo *m) {
  if (!m)
    return;
  free(m->items);
  free(m->strides);
  free(m->chunks);
  gtrt_task_graph_free(&m->g);
  free(m->lv_end);
  free(m->lv_key);
  free(m);
}

void gtrt_memo_give(gtrt_plan_memo *m) {
  if (m)
    gtrt_memo_free(__atomic_exchange_n(&gtrt_memo_kept, m, __ATOMIC_ACQ_REL)); /* another thread's, if any */
}

static size_t gtrt_memo_start(const gtrt_plan_memo *m, size_t c) { return c ? m->chunks[c - 1].end : 0; }
static size_t gtrt_memo_sstart(const gtrt_plan_memo *m, size_t c) { return c ? m->chunks[c - 1].send : 0; }

/* Chunk c's descriptor, or NULL for a chunk of items. */
static const gtrt_strides *gtrt_memo_strides_of(const gtrt_plan_memo *m, size_t c) {
  const size_t s = gtrt_memo_sstart(m, c);
  return m->chunks[c].send > s ? m->strides + s : NULL;
}

/* v (elem bytes each, capacity *cap < need) reallocated to hold need,
 * doubling from first; NULL when out of memory (v and *cap unchanged). */
static void *gtrt_memo_grow(void *v, size_t *cap, size_t need, size_t elem, size_t first) {
  size_t c = *cap ? 2 * *cap : first;
  while (c < need)
    c *= 2;
  void *p = realloc(v, c * elem);
  if (p)
    *cap = c;
  return p;
}

/* Appends a chunk: items v[0..k), or the descriptor sd (then k is 0);
 * 0 (memo off, nothing appended) past the limit or out of memory. A
 * descriptor counts as the items its bytes would hold. */
static int gtrt_memo_append(gtrt_plan_memo *m, const gtrt_insp_item *v, size_t k, const gtrt_strides *sd,
                            unsigned lo) {
  size_t n = gtrt_memo_start(m, m->nchunks), ns = gtrt_memo_sstart(m, m->nchunks);
  if (n + k + (ns + (sd != NULL)) * (sizeof *sd / sizeof *v) > GTRT_MEMO_MAX_ITEMS)
    return 0;
  if (sd && ns == m->capstrides) {
    gtrt_strides *p = gtrt_memo_grow(m->strides, &m->capstrides, ns + 1, sizeof *p, 64);
    if (!p)
      return 0;
    m->strides = p;
  }
  if (n + k > m->cap) {
    gtrt_insp_item *p = gtrt_memo_grow(m->items, &m->cap, n + k, sizeof *p, 4096);
    if (!p)
      return 0;
    m->items = p;
  }
  if (m->nchunks == m->capchunks) {
    gtrt_memo_chunk *p = gtrt_memo_grow(m->chunks, &m->capchunks, m->nchunks + 1, sizeof *p, 64);
    if (!p)
      return 0;
    m->chunks = p;
  }
  if (k) /* v may be NULL when nothing was recorded */
    memcpy(m->items + n, v, k * sizeof *v);
  if (sd)
    m->strides[ns++] = *sd;
  m->chunks[m->nchunks++] = (gtrt_memo_chunk){n + k, ns, lo};
  return 1;
}

/* Leaves MATCHING after pos matched chunks: the memo keeps those (they
 * are the new plan's first chunks too, to be replayed by
 * gtrt_memo_catch_up) and records the rest; its graph is not theirs. */
static void gtrt_memo_diverge(gtrt_plan_memo *m) {
  m->nchunks = m->pos;
  m->unsaid = m->pos;
  m->valid = 0;
  m->lv_width = 0;
  m->state = GTRT_MEMO_RECORDING;
}

/* Is chunk c the chunk (v, k) or (sd) of the phase starting at lo? */
static int gtrt_memo_same(const gtrt_plan_memo *m, size_t c, const gtrt_insp_item *v, size_t k,
                          const gtrt_strides *sd, unsigned lo) {
  if (c >= m->nchunks || m->chunks[c].lo != lo)
    return 0;
  const gtrt_strides *kept = gtrt_memo_strides_of(m, c);
  if (sd || kept)
    return sd && kept && memcmp(sd, kept, sizeof *sd) == 0;
  const size_t s = gtrt_memo_start(m, c);
  return m->chunks[c].end - s == k && (k == 0 || memcmp(m->items + s, v, k * sizeof *v) == 0);
}

static int gtrt_memo_follow_chunk(gtrt_plan_memo *m, const gtrt_insp_item *v, size_t k, const gtrt_strides *sd,
                                  unsigned lo) {
  if (!m || m->state == GTRT_MEMO_OFF || m->state == GTRT_MEMO_IDLE)
    return 0;
  if (m->state == GTRT_MEMO_MATCHING) {
    if (gtrt_memo_same(m, m->pos, v, k, sd, lo)) {
      m->pos++;
      return 1;
    }
    gtrt_memo_diverge(m);
  }
  if (!gtrt_memo_append(m, v, k, sd, lo))
    m->state = GTRT_MEMO_OFF; /* the unsaid chunks stay until gtrt_memo_catch_up replays them */
  return 0;
}

int gtrt_memo_follow(gtrt_plan_memo *m, const gtrt_insp_item *v, size_t k, unsigned lo) {
  return gtrt_memo_follow_chunk(m, v, k, NULL, lo);
}

int gtrt_memo_follow_strides(gtrt_plan_memo *m, const gtrt_strides *sd, unsigned lo) {
  return gtrt_memo_follow_chunk(m, NULL, 0, sd, lo);
}

size_t gtrt_memo_catch_up(gtrt_plan_memo *m, gtrt_replay *r) {
  if (!m)
    return 0;
  for (; m->said < m->unsaid; m->said++) {
    const size_t c = m->said, s = gtrt_memo_start(m, c);
    const gtrt_strides *sd = gtrt_memo_strides_of(m, c);
    size_t bytes = sd ? gtrt_replay_strides(r, sd, m->chunks[c].lo)
                      : gtrt_replay_items(r, m->items + s, m->chunks[c].end - s, m->chunks[c].lo);
    if (bytes)
      return bytes;
  }
  if (m->state == GTRT_MEMO_OFF)
    m->nchunks = m->unsaid = m->said = 0;
  return 0;
}

int gtrt_memo_reuse(gtrt_plan_memo *m, unsigned ntasks, gtrt_task_graph *g) {
  if (!m || m->state != GTRT_MEMO_MATCHING || m->pos == 0)
    return 0; /* no memo, a plan that differed, or one that replayed nothing (the memo stays) */
  if (m->pos == m->nchunks && m->valid && m->ntasks == ntasks) {
    *g = m->g;
    return 1;
  }
  gtrt_memo_diverge(m); /* fewer chunks, or another task count */
  return 0;
}

int gtrt_memo_pending(const gtrt_plan_memo *m) { return m && m->said < m->unsaid; }

int gtrt_memo_keep(gtrt_plan_memo *m, unsigned ntasks, const gtrt_task_graph *g) {
  if (!m || m->state != GTRT_MEMO_RECORDING)
    return 0;
  gtrt_task_graph_free(&m->g);
  m->g = *g;
  m->lv_width = 0;
  m->ntasks = ntasks;
  m->site = m->seen;
  m->valid = 1;
  return 1;
}

/* The inputs of the levels besides the graph: nphases phase ends, then
 * ninst + 1 instance begins. */
static int gtrt_memo_key_is(const gtrt_plan_memo *m, const unsigned *a, size_t na, const unsigned *b, size_t nb) {
  return m->lv_nkey == na + nb && memcmp(m->lv_key, a, na * sizeof *a) == 0 &&
         memcmp(m->lv_key + na, b, nb * sizeof *b) == 0;
}

int gtrt_memo_levels(const gtrt_plan_memo *m, unsigned width, const unsigned *phase_end, size_t nphases,
                     const unsigned *inst_begin, size_t ninst, const unsigned **end, unsigned *n) {
  if (!m || !m->valid || !width || m->lv_width != width ||
      !gtrt_memo_key_is(m, phase_end, nphases, inst_begin, ninst + 1))
    return 0;
  *end = m->lv_end;
  *n = m->lv_n;
  return 1;
}

void gtrt_memo_set_levels(gtrt_plan_memo *m, unsigned width, const unsigned *phase_end, size_t nphases,
                          const unsigned *inst_begin, size_t ninst, const unsigned *end, unsigned n) {
  if (!m || !m->valid || !width)
    return;
  const size_t nkey = nphases + ninst + 1;
  unsigned *copy = malloc(((size_t)n + 1) * sizeof *copy), *key = malloc(nkey * sizeof *key);
  if (!copy || !key) { /* not kept: found again next time */
    free(copy);
    free(key);
    return;
  }
  memcpy(copy, end, (size_t)n * sizeof *copy);
  memcpy(key, phase_end, nphases * sizeof *key);
  memcpy(key + nphases, inst_begin, (ninst + 1) * sizeof *key);
  free(m->lv_end);
  free(m->lv_key);
  m->lv_end = copy;
  m->lv_n = n;
  m->lv_key = key;
  m->lv_nkey = nkey;
  m->lv_width = width;
}
