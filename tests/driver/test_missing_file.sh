# A missing input is reported by name; nothing is written.
. "$(dirname "$0")/lib.sh"
write_hello
run_gtcc hello.c x.c -o app
expect_rc 1 "hello.c x.c"
expect_stderr "gtcc: error: no such file: 'x.c'"
expect_no_file app
run_gtcc missing.o hello.c
expect_rc 1 "missing.o hello.c"
expect_stderr "gtcc: error: no such file: 'missing.o'"
expect_no_file a.out
expect_clean_tmp
