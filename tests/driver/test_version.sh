# --version prints "gtcc 0.1.0" and exits 0.
. "$(dirname "$0")/lib.sh"
run_gtcc --version
expect_rc 0 --version
[ "$(cat out.txt)" = "gtcc 0.1.0" ] || fail "version output: $(cat out.txt)"
