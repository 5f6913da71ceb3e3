# .o inputs and -l flags pass through to the link, in order.
. "$(dirname "$0")/lib.sh"
cat >a.c <<'C'
int twice(int x) { return 2 * x; }
C
cat >b.c <<'C'
#include <math.h>
#include <stdio.h>
int twice(int x);
int main(void) { printf("%d %.0f\n", twice(21), sqrt(16.0)); return 0; }
C
cc -c a.c -o a.o
run_gtcc a.o b.c -lm -o app
expect_rc 0 "a.o b.c -lm -o app"
expect_file app
[ "$(./app)" = "42 4" ] || fail "./app printed: $(./app)"
expect_no_file b.o
expect_clean_tmp
