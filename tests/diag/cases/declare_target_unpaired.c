// expect: 9:1: error: 'omp end declare target' without an 'omp declare target' before it
// expect: 10:1: error: 'omp begin declare target' is not closed: end the block with 'omp end declare target'
// expect: 12:13: error: OpenMP directive 'end ...' is not supported by gtcc (of the 'end' directives, gtcc knows 'end declare target')
// only-expected
/* declare target blocks must pair up; other `end` directives get a message naming what gtcc knows. */
#pragma omp declare target
static double twice(double x) { return 2 * x; }
#pragma omp end declare target
#pragma omp end declare target
#pragma omp begin declare target
double f(double x) { return twice(x); }
#pragma omp end declare variant
