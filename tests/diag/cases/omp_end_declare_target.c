// expect: 5:13: error: OpenMP directive 'declare' is not supported by gtcc
// expect: 7:13: error: OpenMP directive 'end declare target' (or another 'end ...') is not supported by gtcc
// only-expected
/* declare target blocks: both ends get a message naming what they are (the end once read "unknown OpenMP directive 'end'"). */
#pragma omp declare target
static double twice(double x) { return 2 * x; }
#pragma omp end declare target
double f(double x) { return twice(x); }
