// expect: 13:38: error: 'hd_f' (defined in "
// only-expected
/* A function of the program's own header, called from a region, that
 * reads a table of that header: device code cannot read it. gtcc says so
 * at the call (nvcc said "identifier is undefined in device code", and
 * gtcc's note blamed C that C++ rejects: probe phases8). hd_g reads only a
 * const scalar and is fine. */
#include "header_function_global.h"
void f(int n, double *v) {
#pragma acc parallel loop copy(v[0:n])
  for (int i = 0; i < n; i++) v[i] = hd_g(v[i]);
#pragma acc parallel loop copy(v[0:n])
  for (int i = 0; i < n; i++) v[i] = hd_f(v[i], i);
}
