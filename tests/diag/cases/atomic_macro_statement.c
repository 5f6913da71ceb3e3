// expect: 13:5: error: the statement after 'acc atomic update' is written through macro 'BUMP'
// only-expected
// The statement is rewritten as written: an operator inside a macro's body
// cannot be; a macro for x or in expr can (probe atomics11).
#define BUMP(v) v++
#define H(k) h[(k) % 4]
void f(int n, int *h) {
#pragma acc parallel loop copy(h[0:4])
  for (int i = 0; i < n; i++) {
#pragma acc atomic update
    H(i) += 2;
#pragma acc atomic update
    BUMP(h[i % 4]);
  }
}
