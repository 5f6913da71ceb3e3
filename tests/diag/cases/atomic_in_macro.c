// expect: 6:26: error: 'omp atomic' in the definition of macro 'ATOMIC_ADD': gtcc reads the directives written in the file
// A _Pragma("omp atomic") inside a macro takes effect where the macro
// expands, which gtcc does not follow: leaving the atomic out would make
// the update race, so it is an error (a loop directive there is only a
// warning: its loop runs sequentially).
#define ATOMIC_ADD(x, v) _Pragma("omp atomic") x += v
int f(int n) {
  int c = 0;
#pragma omp target teams distribute parallel for map(tofrom: c)
  for (int i = 0; i < n; i++) {
    ATOMIC_ADD(c, 1);
  }
  return c;
}
