# -c writes one .o per input and nothing else; -o names it for one input.
. "$(dirname "$0")/lib.sh"
cat >a.c <<'C'
int twice(int x) { return 2 * x; }
C
cat >b.c <<'C'
int thrice(int x) { return 3 * x; }
C
run_gtcc -c a.c b.c
expect_rc 0 "-c a.c b.c"
[ "$(ls -A | grep -v -e '^tmp$' -e '\.txt$' | sort | tr '\n' ' ')" = "a.c a.o b.c b.o " ] ||
  fail "-c left: $(ls -A)"
nm a.o | grep -q ' T twice' || fail "a.o does not define twice"
rm a.o b.o
run_gtcc -c a.c -o x.o
expect_rc 0 "-c a.c -o x.o"
expect_file x.o
expect_no_file a.o
run_gtcc -c a.c b.c -o y.o
expect_rc 1 "-c a.c b.c -o y.o"
expect_stderr "gtcc: error: cannot specify -o with -c and multiple files"
expect_no_file y.o
expect_clean_tmp
