// expect: 10:12: error: type 'struct rgb' is defined in the declaration of a variable; gtcc needs types used in offload regions declared on their own at file scope
// only-expected
/* `static struct rgb {...} white = ...;` defines the struct in a
 * variable's declaration: gtcc does not copy variables into the .gt.cu,
 * so the struct is not there either. */
static struct rgb { float r, g, b; } white = {1.0f, 1.0f, 1.0f};
void f(int n, float *y) {
#pragma acc parallel loop copy(y[0:n])
  for (int i = 0; i < n; i++) {
    struct rgb c = {y[i], 0.5f, 0.0f};
    y[i] = c.r + c.g;
  }
}
