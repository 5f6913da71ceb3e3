# No input files: error, exit 1.
. "$(dirname "$0")/lib.sh"
run_gtcc
expect_rc 1 "(no arguments)"
expect_stderr "gtcc: error: no input files"
run_gtcc -O2 -o out
expect_rc 1 "-O2 -o out"
expect_stderr "gtcc: error: no input files"
expect_no_file out
