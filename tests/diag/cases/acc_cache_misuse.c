// expect: 9:13: error: 'acc cache' needs a list of variables or array sections
// expect: 11:19: error: modifier 'always' is not supported on 'acc cache'
// expect: 6:1: error: 'acc cache' must be inside a function
// only-expected
/* acc cache: a hint, but its form is still checked. */
#pragma acc cache(g)
int g[8];
int main(void) {
#pragma acc cache
  for (int i = 0; i < 8; i++) {
#pragma acc cache(always: g[i:1])
    g[i] = i;
  }
  return g[3] - 3;
}
