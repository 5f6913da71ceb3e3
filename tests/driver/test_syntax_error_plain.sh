# A plain C file with a syntax error: cc reports it at file:line:col, exit 1,
# no output.
. "$(dirname "$0")/lib.sh"
cat >bad.c <<'C'
int main(void) {
  int x = ;
  return x;
}
C
run_gtcc bad.c -o bad
expect_rc 1 "bad.c -o bad"
grep -qE '^bad\.c:2:[0-9]+: error:' err.txt || { cat err.txt >&2; fail "no bad.c:2:col: error:"; }
expect_stderr "gtcc: error: cc failed (exit 1)"
expect_no_file bad
expect_no_file a.out
run_gtcc -c bad.c
expect_rc 1 "-c bad.c"
expect_no_file bad.o
expect_clean_tmp
