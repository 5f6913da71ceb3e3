/* Data clauses -> DataMaps: host address and byte size of each section,
 * as C expressions evaluated by the host code at region entry/exit. */
#include <stdlib.h>
#include <string.h>

#include "lir.h"
#include "strbuf.h"

CVar *xf_lookup_var(const Program *p, const char *name, unsigned offset) {
  CVar *best = NULL;
  for (int i = 0; i < p->tu->nvars; i++) {
    CVar *v = p->tu->vars[i];
    if (strcmp(v->name, name) != 0 || v->decl_offset > offset || (v->scope_end && offset >= v->scope_end)) continue;
    if (!best || v->decl_offset > best->decl_offset) best = v;
  }
  return best;
}

const char *xf_macro_hint(const Program *p, const char *name) {
  for (int i = 0; i < p->tu->nmacros; i++)
    if (!strcmp(p->tu->macros[i], name))
      return " (it is a macro: gtcc reads the names in a clause as written, without expanding macros; write the "
             "variable it stands for)";
  return "";
}

void xf_unknown_clause_item(const Program *p, const Clause *c, const VarItem *it) {
  diag_error(it->loc, "'%s' in '%s' clause is not a variable declared before the directive%s", it->name,
             clause_spelling(c->kind), xf_macro_hint(p, it->name));
}

static void push_map(DataMapList *l, DataMap m) { VEC_PUSH(l->m, l->n, l->cap, m); }

bool xf_object_is_const(const CVar *v) {
  /* clang calls an array of const elements const itself */
  return (v->tkind == VT_SCALAR || v->tkind == VT_RECORD || v->tkind == VT_ARRAY) && v->is_const;
}

static void section_map(const VarItem *it, const char *base, long long dim0, DataMap m, DataMapList *out);

/* One item: `x`, `x[lo:len]`, `a[lo:len][0:m]`, a member's section `A.rp[lo:len]`. */
static void item_map(Program *p, const Directive *d, const Clause *c, const VarItem *it, XMapKind kind,
                     bool force_delete, DataMapList *out) {
  CVar *v = xf_lookup_var(p, it->name, d->loc.offset);
  if (!v) {
    xf_unknown_clause_item(p, c, it);
    return;
  }
  if ((kind == XM_FROM || kind == XM_TOFROM) && xf_object_is_const(v)) {
    diag_error(it->loc, "'%s' is const: '%s' would copy data back into it; copy it to the device only (%s)", it->name,
               clause_spelling(c->kind), dir_family(d->kind) == FAM_OMP ? "map(to: ...)" : "copyin");
    return;
  }
  DataMap m = {v, it->member, it->loc, kind, NULL, NULL, force_delete, c->kind == CL_MAP && c->map_always};
  if (it->member) { /* the data a member points to (or holds); the struct itself stays where it is */
    if (it->nsubs == 0) {
      diag_error(it->loc, "'%s%s': gtcc maps sections of struct members, %s%s[lo:len]; map the whole struct as '%s'",
                 it->name, it->member, it->name, it->member, it->name);
      return;
    }
    char *base = xasprintf("%s%s", it->name, it->member);
    section_map(it, base, -1, m, out);
    free(base);
    return;
  }
  if (it->nsubs == 0) {
    if (v->tkind == VT_POINTER || v->tkind == VT_VLA_POINTER) {
      if (kind != XM_PRESENT) {
        diag_error(it->loc, "'%s' is a pointer: give the section to map, e.g. %s(%s[0:n])", it->name,
                   clause_spelling(c->kind), it->name);
        return;
      }
      m.addr_text = xasprintf("(void *)(%s)", it->name);
      m.bytes_text = xstrdup("0");
    } else if (v->tkind == VT_OTHER) {
      diag_error(it->loc, "'%s' has a type gtcc cannot map to the device (%s)", it->name, v->type);
      return;
    } else {
      m.addr_text = xasprintf("(void *)&(%s)", it->name);
      m.bytes_text = xasprintf("sizeof(%s)", it->name);
    }
    push_map(out, m);
    return;
  }
  if (v->tkind == VT_SCALAR || v->tkind == VT_RECORD || v->tkind == VT_OTHER) {
    diag_error(it->loc, "'%s' is not an array or pointer; it cannot have a section", it->name);
    return;
  }
  /* a pointer's pointees are not followed (no deep copy): one dimension */
  int dims = v->tkind == VT_ARRAY ? v->ndims : v->tkind == VT_VLA_POINTER ? 1 + v->ndims : 1;
  if (it->nsubs > dims) {
    diag_error(it->subs[dims].lo.loc.file ? it->subs[dims].lo.loc : it->loc,
               "'%s' (%s) has %d dimension%s that a section can name; this one names %d%s", it->name, v->type, dims,
               dims == 1 ? "" : "s", it->nsubs,
               v->tkind == VT_POINTER && v->elem_type && strchr(v->elem_type, '*')
                   ? " (gtcc maps contiguous data: it does not follow the pointers it holds)"
                   : "");
    return;
  }
  section_map(it, it->name, v->tkind == VT_ARRAY ? v->dims[0] : -1, m, out);
}

/* A section of `base` (the variable, or a member: "A.rp"): it->subs are
 * [lo:len] with whole later dimensions; dim0 > 0 is the first dimension's
 * size when known (len may be left out then). */
static void section_map(const VarItem *it, const char *base, long long dim0, DataMap m, DataMapList *out) {
  for (int s = 0; s < it->nsubs; s++)
    if (!it->subs[s].is_section) {
      diag_error(it->subs[s].lo.loc.file ? it->subs[s].lo.loc : it->loc,
                 "'%s[...]' names one element; data clauses take array sections: %s[lo:len]", base, base);
      return;
    }
  const Subscript *s0 = &it->subs[0];
  long long n;
  if (fe_expr_int(&s0->len, &n) && n < 0) {
    diag_error(s0->len.loc, "the section of '%s' has a negative length (%lld)", base, n);
    return;
  }
  const char *lo = s0->lo.text ? s0->lo.text : "0";
  char *len;
  if (s0->len.text) len = xstrdup(s0->len.text);
  else if (dim0 > 0) len = xasprintf("%lld - (%s)", dim0, lo);
  else {
    diag_error(it->loc, "array section on pointer '%s' needs a length: %s[lo:len]", base, base);
    return;
  }
  /* Later dimensions must be whole: the section is then contiguous. */
  for (int s = 1; s < it->nsubs; s++) {
    const Subscript *sb = &it->subs[s];
    if (sb->lo.text && strcmp(sb->lo.text, "0") != 0) {
      diag_error(sb->lo.loc, "only the first dimension of '%s' may be partial: write [0:...] for the others", base);
      free(len);
      return;
    }
  }
  m.addr_text = xasprintf("(void *)&(%s)[%s]", base, lo);
  m.bytes_text = xasprintf("(size_t)(%s) * sizeof((%s)[0])", len, base);
  free(len);
  push_map(out, m);
}

void xf_clause_maps(Program *p, const Directive *d, const Clause *c, XMapKind kind, bool force_delete,
                    DataMapList *out) {
  for (int i = 0; i < c->nitems; i++) item_map(p, d, c, &c->items[i], kind, force_delete, out);
}

/* The map kind of a data clause, or -1 if c is not a data clause. */
static int clause_map_kind(const Directive *d, const Clause *c, bool *force_delete) {
  *force_delete = false;
  bool exiting = d->kind == DIR_ACC_EXIT_DATA || d->kind == DIR_OMP_TARGET_EXIT_DATA;
  switch (c->kind) {
  case CL_COPY: return XM_TOFROM;
  case CL_COPYIN: return XM_TO;
  case CL_COPYOUT: *force_delete = exiting && dir_find_clause(d, CL_FINALIZE) != NULL; return XM_FROM;
  case CL_CREATE: case CL_DEVICE_RESIDENT: return XM_ALLOC;
  case CL_PRESENT: return XM_PRESENT;
  case CL_DELETE: *force_delete = exiting && dir_find_clause(d, CL_FINALIZE) != NULL; return XM_ALLOC;
  case CL_MAP:
    switch (c->u.map_kind) {
    case MAP_TO: return XM_TO;
    case MAP_FROM: return XM_FROM;
    case MAP_TOFROM: return XM_TOFROM;
    case MAP_ALLOC: case MAP_RELEASE: return XM_ALLOC;
    case MAP_DELETE: *force_delete = true; return XM_ALLOC;
    }
    return XM_TOFROM;
  /* update directives */
  case CL_DEVICE: case CL_TO: return XM_TO;
  case CL_SELF: case CL_HOST: case CL_FROM: return XM_FROM;
  default: return -1;
  }
}

/* OpenMP's copyin copies threadprivate variables into a parallel region:
 * it is not a data mapping, and reading it as OpenACC's would be wrong. */
bool xf_misused_copyin(const Directive *d, const Clause *c) {
  if (dir_family(d->kind) == FAM_OMP && c->kind == CL_COPYIN) {
    diag_error(c->loc, "OpenMP 'copyin' copies threadprivate data, which gtcc does not support; to copy data to the "
                       "device write map(to: ...)");
    return true;
  }
  return false;
}

/* One data clause per variable and construct (OpenACC and OpenMP both say so). */
static void check_one_clause_per_var(const DataMapList *out, int from) {
  for (int i = from; i < out->n; i++)
    for (int j = 0; j < i; j++)
      if (xf_same_map_item(&out->m[j], &out->m[i])) {
        diag_error(out->m[i].loc, "'%s%s' is already in another data clause of this directive", out->m[i].var->name,
                   xf_map_member(&out->m[i]));
        break;
      }
}

void xf_directive_maps(Program *p, const Directive *d, DataMapList *out) {
  int from = out->n;
  for (int i = 0; i < d->nclauses; i++) {
    if (xf_misused_copyin(d, &d->clauses[i])) continue;
    bool force_delete;
    int kind = clause_map_kind(d, &d->clauses[i], &force_delete);
    if (kind >= 0) xf_clause_maps(p, d, &d->clauses[i], (XMapKind)kind, force_delete, out);
  }
  check_one_clause_per_var(out, from);
}
