// expect: 14:5: error: atomic access to 'sh' of type 'short' is not supported by gtcc
// expect: 16:5: error: atomic access to 'c[i]' of type 'char' is not supported by gtcc
// expect: 18:9: error: atomic access to 'p' of type 'int *' is not supported by gtcc
// only-expected
// Device atomics work on 4- and 8-byte words: narrower integers, pointers
// and structs are errors, not a plain update that could lose a write.
void f(int n, char *c) {
  short sh = 0;
  int *p = 0;
#pragma acc parallel loop copy(c[0:n], sh, p)
  for (int i = 0; i < n; i++) {
    int *q;
#pragma acc atomic
    sh++;
#pragma acc atomic update
    c[i] += 2;
#pragma acc atomic capture
    q = p++;
    (void)q;
  }
}
