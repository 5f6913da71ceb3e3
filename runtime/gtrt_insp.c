/* Task-region inspector, host part without a GPU: the generated host code
 * walks the task loop in program order and reports each depend item; the
 * builder replays them with OpenMP semantics per address (RAW, WAR, WAW):
 * an `in` task depends on the last out/inout before it, an out/inout task on
 * the last out/inout and on every `in` since. Each item adds at most one
 * edge plus the readers it retires, so the graph has at most 2 edges per
 * item. Plans of phased regions (gtrt_plan.c) replay the same way with the
 * per-address state forgotten at each phase boundary. */
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

void gtrt_insp_access(gtrt_insp *in, long long task, const void *addr, int kind) {
  if (!in)
    return;
  if (task < 0 || task >= (long long)in->ntasks)
    return gtrt_insp_misuse(in, "task number out of range", task, kind);
  if (task < in->last_task)
    return gtrt_insp_misuse(in, "tasks reported out of order", task, kind);
  if (kind < 0 || kind > 2)
    return gtrt_insp_misuse(in, "depend kind is not in/out/inout", task, kind);
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
  in->v[in->n++] = (gtrt_insp_item){(uintptr_t)addr, (unsigned)task, kind};
  in->last_task = task;
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

typedef struct gtrt_addr_state {
  uintptr_t addr;
  long long writer;    /* last out/inout task, -1 if none */
  unsigned *readers;   /* `in` tasks since that write */
  unsigned nreaders, capreaders;
  long long seen;      /* task whose items are being merged */
  int writes;          /* that task writes this address */
  unsigned phase;      /* writer and readers belong to this phase */
} gtrt_addr_state;

typedef struct gtrt_addr_table {
  gtrt_addr_state *v;  /* states, in insertion order */
  size_t n, cap;
  unsigned *slot;      /* hash slots: index + 1 into v, 0 = empty */
  size_t nslots;       /* power of two, at least twice n */
} gtrt_addr_table;

static size_t gtrt_addr_hash(uintptr_t a) {
  unsigned long long x = (unsigned long long)a;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

static int gtrt_addr_rehash(gtrt_addr_table *t, size_t nslots) {
  unsigned *slot = calloc(nslots, sizeof *slot);
  if (!slot)
    return 0;
  for (size_t i = 0; i < t->n; i++) {
    size_t h = gtrt_addr_hash(t->v[i].addr) & (nslots - 1);
    while (slot[h])
      h = (h + 1) & (nslots - 1);
    slot[h] = (unsigned)i + 1;
  }
  free(t->slot);
  t->slot = slot;
  t->nslots = nslots;
  return 1;
}

/* Index of addr's state, created on first use; -1 when out of memory. */
static long long gtrt_addr_find(gtrt_addr_table *t, uintptr_t addr) {
  if (2 * (t->n + 1) > t->nslots && !gtrt_addr_rehash(t, t->nslots ? 2 * t->nslots : 1024))
    return -1;
  size_t h = gtrt_addr_hash(addr) & (t->nslots - 1);
  for (; t->slot[h]; h = (h + 1) & (t->nslots - 1))
    if (t->v[t->slot[h] - 1].addr == addr)
      return t->slot[h] - 1;
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 256;
    gtrt_addr_state *v = realloc(t->v, cap * sizeof *v);
    if (!v)
      return -1;
    t->v = v;
    t->cap = cap;
  }
  t->v[t->n] = (gtrt_addr_state){addr, -1, NULL, 0, 0, -1, 0, 0};
  t->slot[h] = (unsigned)++t->n;
  return (long long)t->n - 1;
}

static void gtrt_addr_free(gtrt_addr_table *t) {
  for (size_t i = 0; i < t->n; i++)
    free(t->v[i].readers);
  free(t->v);
  free(t->slot);
}

/* ---- graph building -------------------------------------------------------- */

typedef struct gtrt_edges {
  unsigned *from, *to;
  size_t n, cap;
  unsigned *mark; /* [ntasks]: succ + 1 of the last edge from this task (dedup) */
} gtrt_edges;

/* Adds pred -> t once; 0 when out of memory. */
static int gtrt_edge_add(gtrt_edges *e, long long pred, unsigned t) {
  if (pred < 0 || (unsigned)pred == t || e->mark[pred] == t + 1)
    return 1;
  e->mark[pred] = t + 1;
  if (e->n == e->cap) {
    size_t cap = e->cap ? 2 * e->cap : 1024;
    unsigned *f = realloc(e->from, cap * sizeof *f);
    if (!f)
      return 0;
    e->from = f;
    unsigned *to = realloc(e->to, cap * sizeof *to);
    if (!to)
      return 0;
    e->to = to;
    e->cap = cap;
  }
  e->from[e->n] = (unsigned)pred;
  e->to[e->n++] = t;
  return 1;
}

static int gtrt_reader_add(gtrt_addr_state *s, unsigned t) {
  if (s->nreaders == s->capreaders) {
    unsigned cap = s->capreaders ? 2 * s->capreaders : 4;
    unsigned *r = realloc(s->readers, cap * sizeof *r);
    if (!r)
      return 0;
    s->readers = r;
    s->capreaders = cap;
  }
  s->readers[s->nreaders++] = t;
  return 1;
}

/* Edges of task t into one address it accesses, then the address's new state. */
static int gtrt_insp_apply(gtrt_edges *e, gtrt_addr_state *s, unsigned t) {
  if (!gtrt_edge_add(e, s->writer, t))
    return 0;
  if (!s->writes)
    return gtrt_reader_add(s, t);
  for (unsigned i = 0; i < s->nreaders; i++)
    if (!gtrt_edge_add(e, s->readers[i], t))
      return 0;
  s->nreaders = 0;
  s->writer = t;
  return 1;
}

static int gtrt_grow_ll(long long **v, size_t *cap) {
  size_t c = *cap ? 2 * *cap : 16;
  long long *p = realloc(*v, c * sizeof *p);
  if (!p)
    return 0;
  *v = p;
  *cap = c;
  return 1;
}

/* Phases the replay walks through: an address state left by an earlier
 * phase counts as untouched, so no edge joins two phases. */
typedef struct gtrt_phase_walk {
  const unsigned *end;
  const unsigned char *no_graph;
  unsigned n, cur;
} gtrt_phase_walk;

/* Moves to the phase of task t; 0 when that phase needs no graph. */
static int gtrt_phase_enter(gtrt_phase_walk *w, unsigned t) {
  if (!w->end)
    return 1;
  while (w->cur + 1 < w->n && t >= w->end[w->cur])
    w->cur++;
  return !w->no_graph || !w->no_graph[w->cur];
}

/* Skips task t's items. */
static size_t gtrt_insp_skip(const gtrt_insp *in, size_t i, unsigned t) {
  while (i < in->n && in->v[i].task == t)
    i++;
  return i;
}

/* Replays the items task by task: items of one task on the same address
 * merge first (in + out on one address is inout), so a task never depends
 * on itself and an address counts once per task. */
static int gtrt_insp_edges(const gtrt_insp *in, gtrt_phase_walk *w, gtrt_addr_table *tab, gtrt_edges *e) {
  long long *cur = NULL; /* addresses of the current task (state indexes) */
  size_t ncur = 0, capcur = 0;
  int ok = 1;
  for (size_t i = 0; ok && i < in->n;) {
    unsigned t = in->v[i].task;
    if (!gtrt_phase_enter(w, t)) {
      i = gtrt_insp_skip(in, i, t);
      continue;
    }
    ncur = 0;
    for (; i < in->n && in->v[i].task == t; i++) {
      long long k = gtrt_addr_find(tab, in->v[i].addr);
      if (k < 0 || (ncur == capcur && !gtrt_grow_ll(&cur, &capcur))) {
        ok = 0;
        break;
      }
      gtrt_addr_state *s = &tab->v[k];
      if (s->phase != w->cur) { /* first use in this phase */
        s->phase = w->cur;
        s->writer = -1;
        s->nreaders = 0;
      }
      if (s->seen != (long long)t) {
        s->seen = t;
        s->writes = 0;
        cur[ncur++] = k;
      }
      s->writes |= in->v[i].kind != 0;
    }
    for (size_t j = 0; ok && j < ncur; j++)
      ok = gtrt_insp_apply(e, &tab->v[cur[j]], t);
  }
  free(cur);
  return ok;
}

/* CSR by predecessor; edges were added in increasing successor order, so
 * each successor list comes out sorted. */
static int gtrt_insp_csr(const gtrt_edges *e, gtrt_task_graph *g) {
  unsigned n = g->ntasks;
  g->npred = calloc(n, sizeof *g->npred);
  g->off = calloc((size_t)n + 1, sizeof *g->off);
  g->succ = malloc((e->n ? e->n : 1) * sizeof *g->succ);
  if (!g->npred || !g->off || !g->succ)
    return 0;
  for (size_t i = 0; i < e->n; i++) {
    g->npred[e->to[i]]++;
    g->off[e->from[i] + 1]++;
  }
  for (unsigned t = 0; t < n; t++) {
    g->off[t + 1] += g->off[t];
    g->nroots += g->npred[t] == 0;
  }
  unsigned *fill = malloc(((size_t)n + 1) * sizeof *fill);
  if (!fill)
    return 0;
  memcpy(fill, g->off, ((size_t)n + 1) * sizeof *fill);
  for (size_t i = 0; i < e->n; i++)
    g->succ[fill[e->from[i]]++] = e->to[i];
  free(fill);
  return 1;
}

int gtrt_graph_build(const gtrt_insp *in, const unsigned *end, const unsigned char *no_graph, unsigned nphases,
                     gtrt_task_graph *g) {
  memset(g, 0, sizeof *g);
  g->ntasks = in->ntasks;
  gtrt_phase_walk w = {end, no_graph, nphases, 0};
  gtrt_addr_table tab = {0};
  gtrt_edges e = {0};
  e.mark = calloc(in->ntasks ? in->ntasks : 1, sizeof *e.mark);
  int ok = e.mark && gtrt_insp_edges(in, &w, &tab, &e) && gtrt_insp_csr(&e, g);
  gtrt_addr_free(&tab);
  free(e.from);
  free(e.to);
  free(e.mark);
  if (!ok)
    gtrt_task_graph_free(g);
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
  if (in->n > 0x7fffffffu)
    return gtrt_record(site, GTRT_ERR_ARG, "%s of the '%s' region: %zu depend items (at most 2^31-1)", noun,
                       gtrt_site_what(site), in->n);
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
