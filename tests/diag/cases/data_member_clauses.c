// expect: 11:52: error: 'A.v' names a struct member: gtcc takes members in data clauses only, not in 'private'
// expect: 13:39: error: 'A.n' names a struct member: gtcc takes members in data clauses only, not in 'reduction'
// expect: 15:37: error: 'A.p' names a struct member: gtcc takes members in data clauses only, not in 'deviceptr'
// only-expected
/* Struct members outside data clauses: gtcc would act on the whole struct,
 * so a member there is an error (data clauses take members' sections:
 * data_member_misuse.c). */
struct S { int n; double *p; double v; };
void f(struct S A, int n, double *y) {
  int s = 0;
#pragma acc parallel loop copyin(A.p[0:n]) private(A.v) copyout(y[0:n])
  for (int i = 0; i < n; i++) y[i] = 0;
#pragma acc parallel loop reduction(+:A.n)
  for (int i = 0; i < n; i++) s += i;
#pragma acc parallel loop deviceptr(A.p)
  for (int i = 0; i < n; i++) y[i] = 0;
  (void)s;
}
