# An annotated file with a C syntax error: gtcc's frontend reports it as
# file:line:col: error:, exits 1 and leaves no output and no .gt.* files.
. "$(dirname "$0")/lib.sh"
cat >bad.c <<'C'
void scale(int n, float *y) {
#pragma acc parallel loop copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = 2 * y[i] +;
}
int main(void) { return 0; }
C
run_gtcc bad.c -o bad
expect_rc 1 "bad.c -o bad"
grep -qE '^bad\.c:4:[0-9]+: error:' err.txt || { cat err.txt >&2; fail "no bad.c:4:col: error:"; }
expect_no_file bad
expect_no_file a.out
[ -z "$(ls -A | grep '\.gt\.')" ] || fail "left .gt.* files: $(ls -A)"
run_gtcc --emit-cu bad.c
expect_rc 1 "--emit-cu bad.c"
[ -z "$(ls -A | grep '\.gt\.')" ] || fail "--emit-cu left .gt.* files: $(ls -A)"
expect_clean_tmp
