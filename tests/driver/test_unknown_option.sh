# An unknown option is an error (exit 1) that names it; so is a bad value.
. "$(dirname "$0")/lib.sh"
write_hello
run_gtcc -x hello.c
expect_rc 1 "-x"
expect_stderr "gtcc: error: unknown option '-x'"
run_gtcc --frobnicate hello.c
expect_rc 1 "--frobnicate"
expect_stderr "gtcc: error: unknown option '--frobnicate'"
run_gtcc --dump-after=nothing hello.c
expect_rc 1 "--dump-after=nothing"
expect_stderr "gtcc: error:"
run_gtcc --cuda-arch=90 hello.c
expect_rc 1 "--cuda-arch=90"
expect_stderr "gtcc: error:"
run_gtcc hello.c -o
expect_rc 1 "-o without a value"
expect_stderr "missing argument to '-o'"
expect_no_file a.out
expect_clean_tmp
