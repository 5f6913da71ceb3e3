# A global that a user header declares (`extern int *g_a;`) and that the file
# names only in data clauses (its regions use a local copy of the pointer):
# gtcc finds the declaration (it used to say the name was not declared), and
# the program gives the CPU build's result.
. "$(dirname "$0")/lib.sh"
cat >g.h <<'C'
extern int *g_a, *g_b;
void setup(int n);
int *array_a(void), *array_b(void);
C
cat >data.c <<'C'
#include <stdlib.h>
#include "g.h"
int *g_a, *g_b;
void setup(int n) {
  g_a = malloc(n * sizeof(int)), g_b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) g_a[i] = i % 7, g_b[i] = 0;
}
int *array_a(void) { return g_a; }
int *array_b(void) { return g_b; }
C
cat >main.c <<'C'
#include <stdio.h>
#include "g.h"
int main(void) {
  int n = 1000;
  setup(n);
#pragma acc enter data copyin(g_a[0:n]) create(g_b[0:n])
  const int *a = array_a(); /* g_a and g_b appear in the clauses only */
  int *b = array_b();
#pragma acc parallel loop present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) b[i] = 2 * a[i] + 1;
#pragma acc exit data copyout(g_b[0:n]) delete(g_a[0:n])
  long s = 0;
  for (int i = 0; i < n; i++) s += b[i];
  printf("%ld\n", s);
  return 0;
}
C
same_as_cpu_build main.c data.c
