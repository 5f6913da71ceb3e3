/* Capture analysis: how each variable a kernel body uses gets there.
 * Scalars go by value (firstprivate, as OpenMP and OpenACC define for
 * scalars), arrays and pointers through the present table, reduction and
 * private variables as per-thread copies. A pointer whose extent gtcc
 * cannot know is an error that says which clause to add. */
#include <stdlib.h>
#include <string.h>

#include "lir.h"
#include "strbuf.h"

/* OpenMP's is_device_ptr says what OpenACC's deviceptr says. */
static bool is_deviceptr_clause(ClauseKind c) { return c == CL_DEVICEPTR || c == CL_IS_DEVICE_PTR; }

static bool is_sharing_clause(ClauseKind c) {
  return c == CL_REDUCTION || c == CL_PRIVATE || c == CL_FIRSTPRIVATE || is_deviceptr_clause(c);
}

/* The clause on d (or outer) that lists v, if any: a data-sharing clause
 * first, since v may also be in a data clause (`map(tofrom: s)
 * reduction(+:s)`, which OpenMP allows on a combined construct). */
static const Clause *listing_clause(const Kernel *k, const CVar *v, const VarItem **item) {
  const Directive *ds[2] = {k->dir, k->outer};
  for (int sharing = 1; sharing >= 0; sharing--)
    for (int i = 0; i < 2; i++) {
      if (!ds[i]) continue;
      for (int c = 0; c < ds[i]->nclauses; c++) {
        const Clause *cl = &ds[i]->clauses[c];
        if (is_sharing_clause(cl->kind) != (sharing == 1)) continue;
        for (int j = 0; j < cl->nitems; j++)
          if (!strcmp(cl->items[j].name, v->name)) {
            *item = &cl->items[j];
            return cl;
          }
      }
    }
  return NULL;
}

bool xf_is_local(const Stmt *body, const CVar *v) {
  return v->decl_offset >= body->begin && v->decl_offset < body->end && !v->is_global;
}

bool xf_has_mapping(const Program *p, const Kernel *k, const CVar *v) {
  for (int i = 0; i < k->maps.n; i++)
    if (xf_maps_var(&k->maps.m[i], v)) return true;
  for (int r = 0; r < p->ndatas; r++) {
    const DataRegion *dr = p->datas[r];
    if (!xf_region_holds(dr, k)) continue;
    for (int i = 0; i < dr->maps.n; i++)
      if (xf_maps_var(&dr->maps.m[i], v)) return true;
  }
  for (int s = 0; s < p->nstandalones; s++) {
    const Standalone *sa = p->standalones[s];
    if (sa->kind != SA_ENTER) continue;
    for (int i = 0; i < sa->maps.n; i++)
      if (xf_maps_var(&sa->maps.m[i], v)) return true;
  }
  return xf_declared_at(p, v, k->stmt->begin);
}

bool xf_is_atomic(const Directive *d) { return d->kind == DIR_ACC_ATOMIC || d->kind == DIR_OMP_ATOMIC; }

/* Is v (a scalar or struct) what an atomic construct in the body updates,
 * in its own storage? Then the threads must share it: passed by value, each
 * would update its own copy. */
static bool atomic_target(const Program *p, const Kernel *k, const CVar *v) {
  for (int i = 0; i < p->tu->natomics; i++) {
    const AtomicSite *a = &p->tu->atomics[i];
    if (a->target == v && a->in_storage && a->stmt->begin >= k->body->begin && a->stmt->end <= k->body->end)
      return true;
  }
  return false;
}

/* A scalar or struct the threads must share: one an atomic construct
 * updates, or one a data clause puts on the device (copy, map(tofrom:),
 * here or around) that the body writes or passes by address. OpenACC and
 * OpenMP then name the device copy; by value, each thread would change its
 * own copy and the host would get nothing back. */
static bool shared_scalar(const Program *p, const Kernel *k, const CVar *v) {
  /* in `acc kernels`, a scalar is copy, not firstprivate (OpenACC 2.5.2): serial code's writes come back */
  bool copied = xf_has_mapping(p, k, v) || (k->serial && k->dir->kind == DIR_ACC_KERNELS);
  /* a declared scalar is present for the program (or its block): regions read the device copy, which a
   * kernel or `acc update device` may have changed */
  return atomic_target(p, k, v) || (copied && xf_subtree_uses(k->body, v, true, NULL)) ||
         xf_declared_at(p, v, k->stmt->begin);
}

static bool is_inner_iv(const Stmt *s, const CVar *v) {
  if (s->kind == ST_FOR && s->loop && s->loop->canonical && s->loop->iv == v) return true;
  for (int i = 0; i < s->nkids; i++)
    if (is_inner_iv(s->kids[i], v)) return true;
  return false;
}

/* Is v in a private clause of a directive on s? */
static bool private_on(Program *p, const Stmt *s, const CVar *v) {
  for (int d = 0; d < s->ndirs; d++)
    for (int c = 0; c < s->dirs[d]->nclauses; c++) {
      const Clause *cl = &s->dirs[d]->clauses[c];
      if (cl->kind != CL_PRIVATE) continue;
      for (int j = 0; j < cl->nitems; j++)
        if (xf_lookup_var(p, cl->items[j].name, s->dirs[d]->loc.offset) == v) return true;
    }
  return false;
}

/* Counts the statements under s that make v private (*privates) and tells
 * whether code outside them uses v. */
static bool used_outside_private(Program *p, const Stmt *s, const CVar *v, int *privates) {
  if (private_on(p, s, v)) {
    ++*privates;
    return false;
  }
  for (int i = 0; i < s->nuses; i++)
    if (s->uses[i].var == v) return true;
  for (int i = 0; i < s->nkids; i++)
    if (used_outside_private(p, s->kids[i], v, privates)) return true;
  return false;
}

/* `long t;` before the region and `acc loop private(t)` on an inner loop,
 * the only place the region uses t: each iteration has its own t, like an
 * inner loop's index declared outside. */
static bool is_inner_private(Program *p, const Stmt *body, const CVar *v) {
  int privates = 0;
  return !used_outside_private(p, body, v, &privates) && privates > 0;
}

/* Does an inner loop of the region make v its own (its index, or its private clause)? */
static bool inner_loop_owns(Program *p, const Stmt *body, const CVar *v) {
  return is_inner_iv(body, v) || is_inner_private(p, body, v);
}

Capture *xf_find_capture(const Kernel *k, const CVar *v) {
  for (int i = 0; i < k->ncaps; i++)
    if (k->caps[i].var == v) return &k->caps[i];
  return NULL;
}

/* Does the host code of k's phased region declare v, or assign it (a
 * pointer declared before the region and swapped in it)? Its value is then
 * captured where each task is created. */
static bool set_by_host_code(const Kernel *k, const CVar *v) {
  return k->phase_body && (xf_is_local(k->phase_body, v) || xf_subtree_uses(k->phase_body, v, true, NULL));
}

/* Variables already reported for this kernel: one error per variable. */
static bool already_reported(Kernel *k, CVar *v) {
  for (int i = 0; i < k->nreported; i++)
    if (k->reported[i] == v) return true;
  VEC_PUSH(k->reported, k->nreported, k->reported_cap, v);
  return false;
}

/* Tasks run on the GPU, so their data must be there: OpenMP's way to say
 * how much of a pointer that is, is a map clause. */
static void task_extent_error(const VarUse *u, const Kernel *k) {
  const char *n = u->var->name;
  bool target = (k->tasks && k->tasks->target) || (k->phased && k->phased->target);
  if (target)
    diag_error(u->loc,
               "pointer '%s' is used by the tasks of the region at line %d but its extent is unknown: name its section "
               "in the 'omp target' directive's map clause (map(tofrom: %s[0:n]), or map(to:) for data the tasks only "
               "read; data already mapped is only counted), or assign '%s' in the region's single block, where each "
               "task takes the pointer's value and finds the mapped data it points into",
               n, k->loc.line, n, n);
  else
    diag_error(u->loc,
               "pointer '%s' is used by the tasks of the region at line %d but its extent is unknown: put the region "
               "inside '#pragma omp target data map(tofrom: %s[0:n])' (or map(to:) for data the tasks only read), or "
               "use '#pragma omp target map(tofrom: %s[0:n])' instead of 'omp parallel'",
               n, k->loc.line, n, n);
}

/* Inside `acc host_data use_device(p)` (or omp use_device_ptr) p is a device
 * address, which a construct can only take as deviceptr / is_device_ptr: its
 * present-table lookup would not find it. */
static bool use_device_error(const Program *p, const Kernel *k, const CVar *v, const VarUse *u) {
  if (v->tkind != VT_POINTER && v->tkind != VT_ARRAY && v->tkind != VT_VLA_POINTER) return false;
  for (int r = 0; r < p->ndatas; r++) {
    const DataRegion *dr = p->datas[r];
    if (!xf_region_holds(dr, k)) continue;
    for (int i = 0; i < dr->nuse_device; i++)
      if (dr->use_device[i] == v) {
        bool omp = dir_family(k->dir->kind) == FAM_OMP;
        diag_error(u->loc, "'%s' is a device address inside the '%s' region at line %d: name it in '%s(%s)' on the "
                           "'%s' directive",
                   v->name, dir_name(dr->dir->kind), dr->dir->loc.line, omp ? "is_device_ptr" : "deviceptr", v->name,
                   k->what);
        return true;
      }
  }
  return false;
}

/* OpenACC's default(present) on the construct (or its loop directive):
 * arrays and pointers that no clause names must be present, as if named in
 * present(...) (a pointer without a section: the section holding p[0]). */
static bool default_present(const Kernel *k) {
  const Directive *ds[2] = {k->dir, k->outer};
  for (int i = 0; i < 2; i++) {
    const Clause *c = ds[i] ? dir_find_clause(ds[i], CL_DEFAULT) : NULL;
    if (c && c->u.def_kind == DEFAULT_PRESENT) return true;
  }
  return false;
}

/* The whole array v, copied in and out around the kernel (in only when const). */
static void add_whole_array_map(Kernel *k, CVar *v, SrcLoc loc) {
  DataMap m = {v, NULL, loc, xf_object_is_const(v) ? XM_TO : XM_TOFROM, xasprintf("(void *)(%s)", v->name),
               xasprintf("sizeof(%s)", v->name), false, false};
  VEC_PUSH(k->maps.m, k->maps.n, k->maps.cap, m);
}

static void add_present_map(Kernel *k, CVar *v, SrcLoc loc) {
  bool whole = v->tkind == VT_ARRAY;
  DataMap m = {v, NULL, loc, XM_PRESENT, xasprintf("(void *)(%s)", v->name),
               whole ? xasprintf("sizeof(%s)", v->name) : xstrdup("0"), false, false};
  VEC_PUSH(k->maps.m, k->maps.n, k->maps.cap, m);
}

/* How v reaches the kernel; via: a function the region calls, whose use u is
 * (a global: the function reaches the region's one copy of it). */
static void capture_var(Program *p, Kernel *k, const VarUse *u, const Function *via) {
  CVar *v = u->var;
  for (int l = 0; l < k->collapse; l++)
    if (k->loops[l]->iv == v) return;
  if (xf_is_local(k->body, v) || xf_find_capture(k, v)) return;
  if (already_reported(k, v)) return;
  Capture c = {v, CAP_VALUE, RED_ADD, u->loc, via, false};
  const VarItem *item = NULL;
  const Clause *cl = listing_clause(k, v, &item);
  ClauseKind ck = cl ? cl->kind : CL__COUNT;
  /* a scalar an inner loop makes its own is neither shared nor a firstprivate the region assigns */
  const bool inner_owned = (v->tkind == VT_SCALAR || v->tkind == VT_RECORD) && !via && ck != CL_FIRSTPRIVATE &&
                           inner_loop_owns(p, k->body, v);
  if (ck == CL_IS_DEVICE_PTR) ck = CL_DEVICEPTR;
  if (via && (ck == CL_REDUCTION || ck == CL_PRIVATE || ck == CL_FIRSTPRIVATE || ck == CL_DEVICEPTR)) {
    diag_error(item->loc, "'%s' is in a '%s' clause, but '%s', which the region calls, uses the global '%s' itself; "
                          "pass the value to '%s' as a parameter",
               v->name, clause_spelling(ck), via->name, v->name, via->name);
    return;
  }
  if (ck == CL_REDUCTION) {
    if (v->tkind != VT_SCALAR) {
      diag_error(item->loc, "reduction on '%s' is not supported: gtcc reduces scalars only", v->name);
      return;
    }
    c.kind = CAP_REDUCTION;
    c.red_op = cl->u.red_op;
  } else if (ck == CL_PRIVATE) {
    if (v->tkind != VT_SCALAR && v->tkind != VT_ARRAY && v->tkind != VT_RECORD) {
      diag_error(item->loc, "private '%s' must be a scalar, a struct or a fixed-size array", v->name);
      return;
    }
    c.kind = CAP_PRIVATE;
  } else if (ck == CL_DEVICEPTR) {
    if (v->tkind == VT_VLA_POINTER) { /* the kernel takes such a pointer as a view built from a mapped section */
      diag_error(item->loc, "'%s' in '%s' points to rows of run-time length (%s), which gtcc does not take as a "
                            "device pointer: pass a flat pointer (%s *) and index it",
                 v->name, clause_spelling(cl->kind), v->type, v->elem_type);
      return;
    }
    c.kind = CAP_DEVICEPTR;
  } else if (use_device_error(p, k, v, u)) {
    return;
  } else if ((v->tkind == VT_SCALAR || v->tkind == VT_RECORD) &&
             (via || (ck != CL_FIRSTPRIVATE && !inner_owned &&
                      !(k->phase_body && xf_is_local(k->phase_body, v)) && shared_scalar(p, k, v)))) {
    /* (a variable of the task region's own host code is firstprivate in each task, as OpenMP says) */
    c.kind = CAP_SHARED;
    if (!xf_has_mapping(p, k, v)) { /* copied in and out around the kernel, as an array would be */
      DataMap m = {v, NULL, u->loc, xf_object_is_const(v) ? XM_TO : XM_TOFROM, xasprintf("(void *)&(%s)", v->name),
                   xasprintf("sizeof(%s)", v->name), false, false};
      VEC_PUSH(k->maps.m, k->maps.n, k->maps.cap, m);
    }
  } else if (v->tkind == VT_SCALAR || v->tkind == VT_RECORD) {
    c.kind = CAP_VALUE;
    if (ck != CL_FIRSTPRIVATE && u->write && !inner_owned && k->shape != KS_TASKS)
      diag_warning(u->loc,
                   "'%s' is assigned in the '%s' region but is firstprivate there: the host's '%s' does not change "
                   "(add reduction(op:%s) or private(%s) to the '%s' directive)",
                   v->name, k->what, v->name, v->name, v->name, k->what);
  } else if (v->tkind == VT_ARRAY || v->tkind == VT_POINTER) {
    c.kind = CAP_MAPPED;
    if (ck == CL_FIRSTPRIVATE && v->tkind == VT_ARRAY) { /* a pointer's value is copied anyway */
      diag_error(item->loc, "firstprivate array '%s' is not supported", v->name);
      return;
    }
    /* a pointer the region's host code sets: translated where each task is created (phases.c) */
    bool host_local = v->tkind == VT_POINTER && set_by_host_code(k, v);
    if (!host_local && !xf_has_mapping(p, k, v)) {
      if (default_present(k) && !via) {
        add_present_map(k, v, u->loc);
      } else if (v->tkind == VT_ARRAY || v->is_vla) {
        /* Known extent: implicit map(tofrom:), as OpenMP does for arrays (a local of run-time
         * size too: sizeof gives it); map(to:) for const ones (copying back would write
         * read-only memory). */
        add_whole_array_map(k, v, u->loc);
      } else if (k->shape == KS_TASKS) {
        task_extent_error(u, k);
        return;
      } else {
        char *where = via ? xasprintf("by '%s', which the '%s' region calls,", via->name, k->what)
                          : xasprintf("in the '%s' region", k->what);
        diag_error(u->loc,
                   "pointer '%s' is used %s but its extent is unknown: add a data clause such as "
                   "copyin(%s[0:n]), copy(%s[0:n]) or copyout(%s[0:n]) (map(to: %s[0:n]) in OpenMP), or "
                   "present(%s) if it is already on the device",
                   v->name, where, v->name, v->name, v->name, v->name, v->name);
        free(where);
        return;
      }
    }
  } else if (v->tkind == VT_VLA_POINTER) {
    /* passed as a view (gtrt_vla1/2): the pointer and its inner sizes */
    bool sizes_known = v->ndims >= 1 && v->ndims <= 2;
    for (int d = 0; d < v->ndims && sizes_known; d++) sizes_known = v->dim_text[d] != NULL;
    if (!sizes_known) {
      diag_error(u->loc, "'%s' points to an array with %d variable dimensions; gtcc passes at most two (or index a "
                         "flat pointer)",
                 v->name, v->ndims);
      return;
    }
    c.kind = CAP_MAPPED;
    /* a pointer the host code sets is translated per task creation, as a pointer */
    bool known = set_by_host_code(k, v) || xf_has_mapping(p, k, v);
    if (!known && v->is_vla && !(default_present(k) && !via)) { /* a local `double m[n][k]`: as an array */
      add_whole_array_map(k, v, u->loc);
      known = true;
    }
    if (!known && k->shape == KS_TASKS) {
      task_extent_error(u, k);
      return;
    }
    if (!known && default_present(k) && !via) {
      add_present_map(k, v, u->loc);
    } else if (!known) {
      diag_error(u->loc,
                 "pointer '%s' is used in the '%s' region but its extent is unknown: add a data clause such as "
                 "copy(%s[0:n]) (map(tofrom: %s[0:n]) in OpenMP), or present(%s)",
                 v->name, k->what, v->name, v->name, v->name);
      return;
    }
  } else {
    diag_error(u->loc, "'%s' has a type gtcc cannot pass to the device (%s)", v->name, v->type);
    return;
  }
  VEC_PUSH(k->caps, k->ncaps, k->caps_cap, c);
}

/* The device gets a captured struct's bytes (or the mapped copy of the data
 * a pointer names); a pointer stored in them is still a host address, and
 * following it on the device faults. Locals of the region are the device's own. */
/* Whether v's pointers come from the host: not the region's own (a local,
 * private or deviceptr) and not reported yet. */
static bool host_pointers_unreported(Kernel *k, CVar *v) {
  if (xf_is_local(k->body, v)) return false;
  const VarItem *item = NULL;
  const Clause *cl = listing_clause(k, v, &item);
  if (cl && (cl->kind == CL_PRIVATE || is_deviceptr_clause(cl->kind))) return false; /* the device's own pointers */
  return !already_reported(k, v);
}

static void host_pointer_member(Kernel *k, const VarUse *u) {
  CVar *v = u->var;
  if (!u->ptr_member || !host_pointers_unreported(k, v)) return;
  diag_error(u->loc,
             "the '%s' region reads a pointer stored in '%s' (a pointer member): on the device that pointer is still "
             "a host address. Copy it into a pointer variable before the region (T *q = %s%smember;), give q's "
             "section in a data clause, and use q in the region",
             k->what, v->name, v->name, v->tkind == VT_RECORD ? "." : "->");
}

/* The same for an array of pointers (`double *f[2]`, a mapped `double **f`):
 * the device gets a copy of the array, whose pointers are host addresses. */
static void host_pointer_array(Kernel *k, const VarUse *u) {
  CVar *v = u->var;
  if ((v->tkind != VT_ARRAY && v->tkind != VT_POINTER) || !v->elem_type) return;
  size_t n = strlen(v->elem_type);
  if (!n || v->elem_type[n - 1] != '*' || !host_pointers_unreported(k, v)) return;
  diag_error(u->loc,
             "the '%s' region reads the pointers stored in '%s' (%s): on the device they are still host addresses, "
             "as gtcc copies the array, not what its pointers point to. Copy each pointer into a pointer variable "
             "before the region, give its section in a data clause, and use that variable in the region",
             k->what, v->name, v->tkind == VT_ARRAY ? "an array of pointers" : "a pointer to pointers");
}

/* Before any capture: capture_var marks each variable it sees. */
static void walk_pointer_members(Kernel *k, const Stmt *s) {
  for (int i = 0; i < s->nuses; i++) host_pointer_member(k, &s->uses[i]), host_pointer_array(k, &s->uses[i]);
  for (int i = 0; i < s->nkids; i++) walk_pointer_members(k, s->kids[i]);
}

static void walk_uses(Program *p, Kernel *k, const Stmt *s) {
  for (int i = 0; i < s->nuses; i++) capture_var(p, k, &s->uses[i], NULL);
  for (int i = 0; i < s->nkids; i++) walk_uses(p, k, s->kids[i]);
}

/* ---- Globals of the functions the region calls --------------------------- */

/* Appends the functions defined here that s calls, and those they call, to
 * *fns (a set). */
static void called_functions(const Stmt *s, const Function ***fns, int *n, int *cap) {
  for (int i = 0; i < s->ncalls; i++) {
    const Function *f = s->calls[i].def;
    if (!f || !f->body) continue;
    bool seen = false;
    for (int j = 0; j < *n && !seen; j++) seen = (*fns)[j] == f;
    if (seen) continue;
    VEC_PUSH(*fns, *n, *cap, f);
    called_functions(f->body, fns, n, cap);
  }
  for (int i = 0; i < s->nkids; i++) called_functions(s->kids[i], fns, n, cap);
}

static void capture_fn_globals(Program *p, Kernel *k, const Function *f, const Stmt *s) {
  for (int i = 0; i < s->nuses; i++) {
    const VarUse *u = &s->uses[i];
    if (!xf_global_via_copy(u->var)) continue;
    capture_var(p, k, u, f);
    Capture *c = xf_find_capture(k, u->var);
    if (c && c->via_fn && (u->write || u->elem_write || u->addr_taken)) c->fn_writes = true;
  }
  for (int i = 0; i < s->nkids; i++) capture_fn_globals(p, k, f, s->kids[i]);
}

/* The globals those functions use: before the body's own uses, so that the
 * body and the functions name one device copy (a scalar is then shared, not
 * passed by value). */
static void walk_called_globals(Program *p, Kernel *k) {
  const Function **fns = NULL;
  int n = 0, cap = 0;
  called_functions(k->body, &fns, &n, &cap);
  for (int i = 0; i < n; i++) capture_fn_globals(p, k, fns[i], fns[i]->body);
  free(fns);
}

/* A data clause that moves or finds data (copy, map, present, ...). */
static bool is_data_clause(ClauseKind c) {
  return c == CL_MAP || c == CL_COPY || c == CL_COPYIN || c == CL_COPYOUT || c == CL_CREATE || c == CL_PRESENT;
}

/* A variable may be in one data-sharing clause (reduction, private,
 * firstprivate, deviceptr) and then in no other clause of the construct
 * (a reduction of the loop directive may restate the compute construct's),
 * except a data clause beside reduction: OpenMP allows that on a combined
 * construct, and the usual way to get a reduction back from
 * `omp target map(tofrom: s)` + `omp teams ... reduction(+:s)` is the map
 * (the reduction's result also goes to a device copy, emit_cu.c). Beside
 * private or firstprivate, a data clause would leave open which copy the
 * region uses. */
static void check_duplicates(const Kernel *k) {
  const Directive *ds[2] = {k->dir, k->outer};
  /* a task's own clauses decide for it over those of the parallel or target around it (the region
   * works on the variable itself, tasks.c region_privates): only clauses of one directive clash */
  const bool task = k->shape == KS_TASKS || k->shape == KS_PHASED;
  for (int a = 0; a < 2; a++)
    for (int c = 0; ds[a] && c < ds[a]->nclauses; c++) {
      const Clause *cl = &ds[a]->clauses[c];
      if (!is_sharing_clause(cl->kind)) continue;
      for (int j = 0; j < cl->nitems; j++)
        for (int b = 0; b < 2; b++)
          for (int c2 = 0; ds[b] && c2 < ds[b]->nclauses; c2++) {
            const Clause *o = &ds[b]->clauses[c2];
            if (o == cl || (clause_arg(o->kind) != CA_VARS && clause_arg(o->kind) != CA_RED && clause_arg(o->kind) != CA_MAP))
              continue;
            if (b == a && c2 < c && is_sharing_clause(o->kind)) continue; /* reported from the earlier one */
            if (b != a && task) continue;
            /* `omp parallel shared(c)` around tasks with firstprivate(c) or private(c): the inner clause decides */
            if (b != a && o->kind == CL_SHARED) continue;
            /* a map of the enclosing construct with the loop's private copy is fine */
            if (!is_deviceptr_clause(cl->kind) && is_data_clause(o->kind) && (cl->kind == CL_REDUCTION || b != a))
              continue;
            /* `acc parallel reduction(+:s)` with `acc loop reduction(+:s)`: the loop restates it */
            if (b != a && cl->kind == CL_REDUCTION && o->kind == CL_REDUCTION && o->u.red_op == cl->u.red_op) continue;
            for (int j2 = 0; j2 < o->nitems; j2++)
              if (!strcmp(o->items[j2].name, cl->items[j].name))
                diag_error(o->items[j2].loc, "'%s' is already in a '%s' clause of this construct", cl->items[j].name,
                           clause_spelling(cl->kind));
          }
    }
}

void xf_capture(Program *p, Kernel *k) {
  check_duplicates(k);
  walk_pointer_members(k, k->body);
  walk_called_globals(p, k);
  walk_uses(p, k, k->body);
  /* Clause items that name variables the body never uses are still checked. */
  const Directive *ds[2] = {k->dir, k->outer};
  for (int i = 0; i < 2; i++)
    for (int c = 0; ds[i] && c < ds[i]->nclauses; c++) {
      const Clause *cl = &ds[i]->clauses[c];
      if (cl->kind != CL_REDUCTION && cl->kind != CL_PRIVATE && cl->kind != CL_FIRSTPRIVATE) continue;
      for (int j = 0; j < cl->nitems; j++)
        if (!xf_lookup_var(p, cl->items[j].name, ds[i]->loc.offset))
          diag_error(cl->items[j].loc, "'%s' is not a variable declared before the directive%s", cl->items[j].name,
                     xf_macro_hint(p, cl->items[j].name));
    }
}
