# A C file without pragmas compiles and links like with cc; the program runs.
. "$(dirname "$0")/lib.sh"
write_hello
run_gtcc -O2 -Wall hello.c -o hello
expect_rc 0 "hello.c -o hello"
expect_file hello
[ "$(./hello)" = "hello 42" ] || fail "./hello printed: $(./hello)"
# Default output name, like cc.
run_gtcc hello.c
expect_rc 0 "hello.c"
[ "$(./a.out)" = "hello 42" ] || fail "./a.out printed: $(./a.out)"
# -D reaches the host compiler.
cat >def.c <<'C'
#include <stdio.h>
int main(void) { printf("%d\n", VALUE); return 0; }
C
run_gtcc -D VALUE=7 def.c -o def
expect_rc 0 "-D VALUE=7 def.c"
[ "$(./def)" = "7" ] || fail "-D VALUE=7 gave: $(./def)"
ls -A | grep -q '\.gt\.' && fail "plain file produced .gt.* files"
expect_clean_tmp
