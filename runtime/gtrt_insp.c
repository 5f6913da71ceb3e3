/* Task-region inspector, host part without a GPU: the generated host code
 * walks the task loop in program order and reports each depend item; the
 * builder replays them with OpenMP semantics per address (RAW, WAR, WAW):
 * an `in` task depends on the last out/inout before it, an out/inout task on
 * the last out/inout and on every `in` since. Each item adds at most one
 * edge plus the readers it retires, so the graph has at most 2 edges per
 * item. Plans of phased regions (gtrt_plan.c) replay the same way while
 * they record (gtrt_replay_*), the per-address state forgotten at each
 * phase boundary. */
#include "gtrt_insp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtrt_core.h"

/* ---- recording ------------------------------------------------------------ */

gtrt_insp *gtrt_insp_new(const gtrt_site *site, long long ntasks) {
  if (ntasks <= 0 || ntasks >= 0x80000000LL) {
    gtrt_record(site, GTRT_ERR_ARG, "task region of the '%s' at %s:%d has %lld tasks (must be 1 .. 2^31-1)",
                gtrt_site_what(site), site && site->file ? site->file : "?", site ? site->line : 0, ntasks);
    return NULL;
  }
  gtrt_insp *in = calloc(1, sizeof *in);
  if (!in) {
    gtrt_record(site, GTRT_ERR_NOMEM, "out of host memory for the task inspector of the '%s' region",
                gtrt_site_what(site));
    return NULL;
  }
  in->site = site;
  in->ntasks = (unsigned)ntasks;
  in->last_task = -1;
  return in;
}

static void gtrt_insp_misuse(gtrt_insp *in, const char *what, long long task, int kind) {
  if (!in->bad[0])
    snprintf(in->bad, sizeof in->bad, "%s (task %lld, kind %d)", what, task, kind);
}

void gtrt_insp_add(gtrt_insp *in, long long task, const void *addr, int kind) {
  const char *bad = task < 0 || task >= (long long)in->ntasks ? "task number out of range"
                    : task < in->last_task                    ? "tasks reported out of order"
                    : task < in->first_task                   ? "task reported after the barrier that ends its phase"
                    : kind < 0 || kind > 2                    ? "depend kind is not in/out/inout"
                                                              : NULL;
  if (bad) {
    gtrt_insp_misuse(in, bad, task, kind);
    return;
  }
  if (in->oom_bytes)
    return;
  if (in->n == in->cap) {
    size_t cap = in->cap ? 2 * in->cap : 1024;
    gtrt_insp_item *v = realloc(in->v, cap * sizeof *v);
    if (!v) {
      in->oom_bytes = cap * sizeof *v;
      return;
    }
    in->v = v;
    in->cap = cap;
  }
  in->last_task = task;
  gtrt_insp_try(in, task, addr, kind);
}

void gtrt_insp_access(gtrt_insp *in, long long task, const void *addr, int kind) {
  if (in && !gtrt_insp_try(in, task, addr, kind))
    gtrt_insp_add(in, task, addr, kind);
}

void gtrt_insp_free(gtrt_insp *in) {
  if (!in)
    return;
  free(in->v);
  free(in);
}

void gtrt_task_graph_free(gtrt_task_graph *g) {
  free(g->npred);
  free(g->off);
  free(g->succ);
  memset(g, 0, sizeof *g);
}

/* ---- per-address state: open-addressing hash table ----------------------------- */

/* States lie in first-use order, which follows the tasks, so replaying
 * neighbouring tasks touches neighbouring states; the hash slots are just
 * indexes (small and dense). Task fields hold task + 1, 0 for none. */
typedef struct gtrt_addr_state {
  uintptr_t addr;
  unsigned seen;    /* the last task that named it; below the phase's first task: a state left by
                       an earlier phase, untouched for this one */
  unsigned writer;  /* last out/inout task */
  unsigned readers; /* `in` tasks since that write: list head in the reader pool */
  int writes;       /* task `seen` writes this address */
} gtrt_addr_state;

typedef struct gtrt_addr_table {
  gtrt_addr_state *v;
  size_t n, cap;
  unsigned *slot;     /* [mask + 1]: index + 1 into v, 0 = empty */
  size_t mask;        /* slots - 1 (slots: a power of two, at least twice n) */
} gtrt_addr_table;

/* Slot of a: the 64-byte block is hashed and the 4-byte word within it
 * added, so the elements of one array lie in neighbouring slots and a walk
 * over them stays within a few cache lines of the slot table. Adding the
 * word (not putting it in the low bits: x << 4 | word) matters for block
 * addresses such as u[b*bs], which all share one word offset: in the low
 * bits they could use only every 16th slot, probe chains grew to about 8
 * and a checkpoint-form walk of 4096 blocks x 20 steps took 11 ms, not 6.8. */
static size_t gtrt_addr_hash(uintptr_t a) {
  unsigned long long x = (unsigned long long)a >> 6;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)(x + (a >> 2 & 15));
}

/* Room for k more addresses (states do not move while a task is replayed);
 * 0, or the size of the allocation that failed. */
static size_t gtrt_addr_reserve(gtrt_addr_table *t, size_t k) {
  if (t->n + k > t->cap) {
    size_t c = t->cap ? 2 * t->cap : 256;
    while (c < t->n + k)
      c *= 2;
    gtrt_addr_state *v = realloc(t->v, c * sizeof *v);
    if (!v)
      return c * sizeof *v;
    t->v = v;
    t->cap = c;
  }
  size_t slots = t->slot ? t->mask + 1 : 0, ns = slots ? slots : 512;
  if (2 * (t->n + k) <= slots)
    return 0;
  while (2 * (t->n + k) > ns)
    ns *= 2;
  unsigned *slot = calloc(ns, sizeof *slot);
  if (!slot)
    return ns * sizeof *slot;
  for (size_t i = 0; i < t->n; i++) {
    size_t h = gtrt_addr_hash(t->v[i].addr) & (ns - 1);
    while (slot[h])
      h = (h + 1) & (ns - 1);
    slot[h] = (unsigned)i + 1;
  }
  free(t->slot);
  t->slot = slot;
  t->mask = ns - 1;
  return 0;
}

/* addr's state, created on first use (room reserved). */
static gtrt_addr_state *gtrt_addr_find(gtrt_addr_table *t, uintptr_t addr) {
  size_t h = gtrt_addr_hash(addr) & t->mask;
  for (unsigned k; (k = t->slot[h]); h = (h + 1) & t->mask)
    if (t->v[k - 1].addr == addr)
      return &t->v[k - 1];
  gtrt_addr_state *s = &t->v[t->n];
  *s = (gtrt_addr_state){addr, 0, 0, 0, 0};
  t->slot[h] = (unsigned)++t->n;
  return s;
}

/* ---- graph building -------------------------------------------------------- */

/* Readers of all addresses share one pool, reset at each phase: one list
 * per address, newest first; a write hands its retired list to the free
 * list, so the pool holds only the live readers and stays in cache. */
typedef struct gtrt_reader {
  unsigned task;
  unsigned next; /* index + 1 of the next older reader, 0 at the end */
} gtrt_reader;

/* Per task as a predecessor; one line serves the dedup and the count. */
typedef struct gtrt_pred_src {
  unsigned mark; /* t + 1 of the last edge from this task (dedup) */
  unsigned nsucc;
} gtrt_pred_src;

struct gtrt_replay {
  gtrt_addr_table tab;
  unsigned lo;                /* first task of the phase of the last items + 1, 0 before any */
  gtrt_reader *pool;
  unsigned npool, free;       /* entries used in this phase; free list (index + 1) */
  size_t cappool;
  unsigned *pred;             /* predecessors of each replayed task in turn */
  size_t npreds, cappred;
  int *npred;                 /* [captask]: how many of them (0 for tasks never replayed) */
  gtrt_pred_src *src;         /* [captask]: by predecessor */
  size_t captask;
  size_t usedtask;            /* per-task entries written (zeroed again when the replay is reused) */
  gtrt_addr_state **cur;      /* addresses of the current task */
  size_t capcur;
};

/* The last freed replay, its arrays kept for the next one: a region that
 * runs again (a solver called every time step) then replays into memory
 * that is already mapped. Fresh arrays cost a page fault per 4 KB: a
 * third of the walk of heat's depend-only form (64 blocks x 1000 steps,
 * 5.1 against 3.4 ms). A replay above GTRT_REPLAY_KEEP_BYTES is freed. */
#define GTRT_REPLAY_KEEP_BYTES ((size_t)256 << 20)
static gtrt_replay *gtrt_replay_spare;

static size_t gtrt_replay_bytes(const gtrt_replay *r) {
  return r->tab.cap * sizeof *r->tab.v + (r->tab.slot ? (r->tab.mask + 1) * sizeof *r->tab.slot : 0) +
         r->cappool * sizeof *r->pool + r->cappred * sizeof *r->pred +
         r->captask * (sizeof *r->npred + sizeof *r->src) + r->capcur * sizeof *r->cur;
}

gtrt_replay *gtrt_replay_new(void) {
  gtrt_replay *r = __atomic_exchange_n(&gtrt_replay_spare, NULL, __ATOMIC_ACQ_REL);
  if (!r)
    return calloc(1, sizeof(gtrt_replay));
  /* empty again; capacities kept (the per-task tables are zero beyond usedtask) */
  r->tab.n = 0;
  if (r->tab.slot)
    memset(r->tab.slot, 0, (r->tab.mask + 1) * sizeof *r->tab.slot);
  if (r->npred) {
    memset(r->npred, 0, r->usedtask * sizeof *r->npred);
    memset(r->src, 0, r->usedtask * sizeof *r->src);
  }
  r->usedtask = 0;
  r->lo = 0;
  r->npool = r->free = 0;
  r->npreds = 0;
  return r;
}

void gtrt_replay_free(gtrt_replay *r) {
  if (!r)
    return;
  if (gtrt_replay_bytes(r) <= GTRT_REPLAY_KEEP_BYTES) {
    r = __atomic_exchange_n(&gtrt_replay_spare, r, __ATOMIC_ACQ_REL); /* free the one it replaces */
    if (!r)
      return;
  }
  free(r->tab.v);
  free(r->tab.slot);
  free(r->pool);
  free(r->pred);
  free(r->npred);
  free(r->src);
  free(r->cur);
  free(r);
}

/* Capacity for need elements, doubling from cap. */
static size_t gtrt_cap_for(size_t cap, size_t need) {
  size_t c = cap ? 2 * cap : 256;
  while (c < need)
    c *= 2;
  return c;
}

/* Per-task tables for tasks below ntasks, zeroed; 0 or the bytes that failed. */
static size_t gtrt_replay_tasks(gtrt_replay *r, size_t ntasks) {
  if (ntasks <= r->captask)
    return 0;
  size_t c = gtrt_cap_for(r->captask, ntasks);
  int *np = realloc(r->npred, c * sizeof *np);
  if (np)
    r->npred = np;
  gtrt_pred_src *ps = np ? realloc(r->src, c * sizeof *ps) : NULL;
  if (!ps)
    return c * sizeof *np;
  r->src = ps;
  memset(np + r->captask, 0, (c - r->captask) * sizeof *np);
  memset(ps + r->captask, 0, (c - r->captask) * sizeof *ps);
  r->captask = c;
  return 0;
}

/* Room for one task of m items. An item adds at most one edge (from the
 * last writer) and a reader; a write also retires the live readers, each
 * once. 0 or the bytes that failed. */
static size_t gtrt_replay_room(gtrt_replay *r, size_t m) {
  size_t bytes = gtrt_addr_reserve(&r->tab, m);
  if (bytes)
    return bytes;
  if (m > r->capcur) {
    size_t c = gtrt_cap_for(r->capcur, m);
    gtrt_addr_state **p = realloc(r->cur, c * sizeof *p);
    if (!p)
      return c * sizeof *p;
    r->cur = p;
    r->capcur = c;
  }
  if (r->npool + m > r->cappool) {
    size_t c = gtrt_cap_for(r->cappool, r->npool + m);
    gtrt_reader *p = realloc(r->pool, c * sizeof *p);
    if (!p)
      return c * sizeof *p;
    r->pool = p;
    r->cappool = c;
  }
  if (r->npreds + m + r->npool > r->cappred) {
    size_t c = gtrt_cap_for(r->cappred, r->npreds + m + r->npool);
    unsigned *p = realloc(r->pred, c * sizeof *p);
    if (!p)
      return c * sizeof *p;
    r->pred = p;
    r->cappred = c;
  }
  return 0;
}

/* Adds the edge u -> t once (t1 = t + 1). */
static inline void gtrt_pred_add(gtrt_replay *r, unsigned u, unsigned t1) {
  if (u + 1 != t1 && r->src[u].mark != t1) {
    r->src[u].mark = t1;
    r->src[u].nsucc++;
    r->pred[r->npreds++] = u;
  }
}

/* Edges of task t into one address it accesses, then the address's new state. */
static void gtrt_replay_apply(gtrt_replay *r, gtrt_addr_state *s, unsigned t) {
  unsigned t1 = t + 1;
  if (s->writer)
    gtrt_pred_add(r, s->writer - 1, t1);
  if (!s->writes) {
    unsigned k = r->free ? r->free : ++r->npool;
    r->free = r->free ? r->pool[k - 1].next : 0;
    r->pool[k - 1] = (gtrt_reader){t, s->readers};
    s->readers = k;
    return;
  }
  if (s->readers) {
    unsigned k = s->readers;
    for (;; k = r->pool[k - 1].next) {
      gtrt_pred_add(r, r->pool[k - 1].task, t1);
      if (!r->pool[k - 1].next)
        break;
    }
    r->pool[k - 1].next = r->free;
    r->free = s->readers;
    s->readers = 0;
  }
  s->writer = t1;
}

/* Items of one task on the same address merge first (in + out on one
 * address is inout), so a task never depends on itself and an address
 * counts once per task. */
size_t gtrt_replay_items(gtrt_replay *r, const gtrt_insp_item *v, size_t n, unsigned lo) {
  size_t bytes = n ? gtrt_replay_tasks(r, (size_t)v[n - 1].task + 1) : 0;
  if (bytes || !n)
    return bytes;
  if (r->usedtask < (size_t)v[n - 1].task + 1)
    r->usedtask = (size_t)v[n - 1].task + 1;
  if (r->lo != lo + 1) { /* a new phase (two with items never share lo): the old readers are all stale */
    r->lo = lo + 1;
    r->npool = r->free = 0;
  }
  for (size_t i = 0, j; i < n; i = j) {
    unsigned t = v[i].task;
    for (j = i + 1; j < n && v[j].task == t;)
      j++;
    if ((bytes = gtrt_replay_room(r, j - i)))
      return bytes;
    size_t ncur = 0;
    for (size_t k = i; k < j; k++) {
      gtrt_addr_state *s = gtrt_addr_find(&r->tab, v[k].addr);
      if (s->seen != t + 1) {
        if (s->seen <= lo) { /* first use in this phase */
          s->writer = 0;
          s->readers = 0;
        }
        s->seen = t + 1;
        s->writes = 0;
        r->cur[ncur++] = s;
      }
      s->writes |= v[k].kind != 0;
    }
    size_t before = r->npreds;
    for (size_t k = 0; k < ncur; k++)
      gtrt_replay_apply(r, r->cur[k], t);
    r->npred[t] = (int)(r->npreds - before);
  }
  return 0;
}

size_t gtrt_replay_strides(gtrt_replay *r, const gtrt_strides *s, unsigned lo) {
  enum { BATCH = 1024 }; /* items per gtrt_replay_items call: whole tasks, 16 KB of stack */
  gtrt_insp_item v[BATCH];
  const unsigned per = BATCH / (unsigned)s->m; /* m <= GTRT_PLAN_STRIDED_MAX */
  for (unsigned t0 = 0; t0 < s->n; t0 += per) {
    const unsigned t1 = s->n - t0 < per ? s->n : t0 + per;
    size_t k = 0;
    for (unsigned t = t0; t < t1; t++)
      for (int j = 0; j < s->m; j++)
        v[k++] = (gtrt_insp_item){s->base[j] + (uintptr_t)t * s->stride[j], s->first + t, s->kind[j]};
    size_t bytes = gtrt_replay_items(r, v, k, lo);
    if (bytes)
      return bytes;
  }
  return 0;
}

/* Successor lists from the predecessor lists: by predecessor, filled in
 * increasing successor order, so each list comes out sorted. off[u + 1]
 * starts at u's start and filling moves it to u's end, the start of u + 1. */
static int gtrt_replay_csr(const gtrt_replay *r, gtrt_task_graph *g) {
  unsigned n = g->ntasks, *off = g->off;
  const unsigned *pred = r->pred;
  g->succ = malloc((r->npreds ? r->npreds : 1) * sizeof *g->succ);
  if (!g->succ)
    return 0;
  for (unsigned t = 0; t < n; t++)
    g->nroots += g->npred[t] == 0;
  if (!r->npreds)
    return 1;
  for (size_t u = 1; u < n; u++) /* tasks past captask never were predecessors */
    off[u + 1] = off[u] + (u - 1 < r->captask ? r->src[u - 1].nsucc : 0);
  size_t k = 0;
  for (unsigned t = 0; t < n; t++)
    for (size_t e = k + (unsigned)g->npred[t]; k < e; k++)
      g->succ[off[pred[k] + 1]++] = t;
  return 1;
}

int gtrt_replay_graph(gtrt_replay *r, unsigned ntasks, gtrt_task_graph *g) {
  memset(g, 0, sizeof *g);
  g->ntasks = ntasks;
  const int take = ntasks && ntasks <= r->captask;
  if (take) { /* taken over: zero for the tasks never replayed */
    g->npred = r->npred;
    r->npred = NULL;
  } else if ((g->npred = calloc(ntasks ? ntasks : 1, sizeof *g->npred)) && r->captask) {
    memcpy(g->npred, r->npred, r->captask * sizeof *g->npred); /* calloc leaves the rest untouched */
  }
  g->off = calloc((size_t)ntasks + 1, sizeof *g->off);
  const int ok = g->npred && g->off && gtrt_replay_csr(r, g);
  if (take)
    r->captask = r->usedtask = 0; /* after the CSR (it reads src): a reuse allocates npred again and zeroes src */
  if (!ok)
    gtrt_task_graph_free(g);
  return ok;
}

int gtrt_graph_build(const gtrt_insp *in, const unsigned *end, const unsigned char *no_graph, unsigned nphases,
                     gtrt_task_graph *g) {
  memset(g, 0, sizeof *g);
  gtrt_replay *r = gtrt_replay_new();
  int ok = r != NULL;
  for (size_t i = 0, p = 0; ok && i < in->n; p++) { /* phase p: the items below end[p] */
    size_t e = i;
    while (e < in->n && (!end || p + 1 >= nphases || in->v[e].task < end[p]))
      e++;
    if (!no_graph || !no_graph[p])
      ok = !gtrt_replay_items(r, in->v + i, e - i, p ? end[p - 1] : 0);
    i = e;
  }
  ok = ok && gtrt_replay_graph(r, in->ntasks, g);
  gtrt_replay_free(r);
  return ok;
}

/* The recording's misuse or out-of-memory, as a located error; GTRT_OK if
 * none. noun: "task inspector", "task plan". */
gtrt_status gtrt_insp_check(const gtrt_site *site, const gtrt_insp *in, const char *noun) {
  if (in->bad[0])
    return gtrt_record(site, GTRT_ERR_ARG, "%s of the '%s' region: %s", noun, gtrt_site_what(site), in->bad);
  if (in->oom_bytes)
    return gtrt_record(site, GTRT_ERR_NOMEM, "out of host memory in the %s of the '%s' region: an allocation of %zu bytes failed",
                       noun, gtrt_site_what(site), in->oom_bytes);
  if (in->ndone + in->n > 0x7fffffffu)
    return gtrt_record(site, GTRT_ERR_ARG, "%s of the '%s' region: %zu depend items (at most 2^31-1)", noun,
                       gtrt_site_what(site), in->ndone + in->n);
  return GTRT_OK;
}

gtrt_status gtrt_insp_build(const gtrt_site *site, const gtrt_insp *in, gtrt_task_graph *g) {
  memset(g, 0, sizeof *g);
  if (!in)
    return gtrt_record(site, GTRT_ERR_ARG, "task inspector of the '%s' region was not created",
                       gtrt_site_what(site));
  gtrt_status st = gtrt_insp_check(site, in, "task inspector");
  if (st != GTRT_OK)
    return st;
  if (gtrt_graph_build(in, NULL, NULL, 1, g))
    return GTRT_OK;
  return gtrt_record(site, GTRT_ERR_NOMEM, "out of host memory building the task graph of the '%s' region (%zu depend items)",
                     gtrt_site_what(site), in->n);
}
