// expect: 9:21: error: 'hbump' (defined in
// An atomic construct in a function of the program's own headers would not
// be rewritten (gtcc reads directives in the .c file only), so the update
// would race: an error at the call, not a silent plain update.
#include "atomic_in_header.h"
void f(int n, int *c) {
#pragma acc parallel loop copy(c[0:1])
  for (int i = 0; i < n; i++)
    if (i % 2 == 0) hbump(c);
}
