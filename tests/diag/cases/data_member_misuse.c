// expect: 12:23: error: 'A.v': gtcc maps sections of struct members, A.v[lo:len]; map the whole struct as 'A'
// expect: 12:39: error: 'A.p[...]' names one element; data clauses take array sections: A.p[lo:len]
// expect: 12:50: error: array section on pointer 'P->p' needs a length: P->p[lo:len]
// expect: 14:33: error: 'A.p' is already in another data clause of this directive
// expect: 10:28: error: 'G.p' is a struct member: a file-scope 'acc declare' maps variables
// only-expected
/* Sections of struct members in data clauses: what gtcc cannot map. */
struct S { int n; double *p; double v; };
struct S G;
#pragma acc declare create(G.p[0:8])
void f(struct S A, struct S *P, int n) {
#pragma acc data copy(A.v) copyin(A.p[3]) copyin(P->p[0:])
  { }
#pragma acc data copy(A.p[0:n], A.p[0:n])
  { }
}
