# -v prints each toolchain command (here cc) before running it.
. "$(dirname "$0")/lib.sh"
write_hello
run_gtcc -v hello.c -o hello
expect_rc 0 "-v hello.c"
grep -qE '^cc .*-c hello.c' err.txt || { cat err.txt >&2; fail "-v did not show the cc command"; }
[ "$(./hello)" = "hello 42" ] || fail "./hello printed: $(./hello)"
expect_clean_tmp
