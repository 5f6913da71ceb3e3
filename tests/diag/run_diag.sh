#!/bin/sh
# Runs one diagnostics case: run_diag.sh GTCC CASE.c SCRATCH
#
# CASE.c starts with comment lines that say what gtcc must report:
#   // expect: LINE:COL: error: TEXT   (one or more, or warning:; TEXT is a distinctive
#                                       prefix of the message)
#   // mode: emit-cu                   (optional: run --emit-cu -o SCRATCH
#                                       instead of -c CASE.c -o SCRATCH/out.o)
#   // flags: ARGS                     (optional: extra gtcc arguments)
#   // only-expected                   (optional: no other error may appear)
# and the test checks that gtcc
#   - exits with status exactly 1 (not 0, not >1, not killed by a signal),
#   - prints each `CASE.c:LINE:COL: error: TEXT` (CASE.c as given) on stderr,
#   - follows each with the source line and a caret under the column,
#   - leaves no output behind: no out.o, *.gt.c or *.gt.cu in SCRATCH, and
#     no NAME.gt.c / NAME.gt.cu next to CASE.c.
set -u
if [ $# -ne 3 ]; then
  echo "usage: $0 GTCC CASE.c SCRATCH" >&2
  exit 2
fi
gtcc=$1 case=$2 scratch=$3
fail=0
bad() { echo "FAIL: $*"; fail=1; }

[ -f "$case" ] || { echo "no such case: $case" >&2; exit 2; }
rm -rf "$scratch" && mkdir -p "$scratch" || exit 2

mode=$(sed -n 's|^// mode: *||p' "$case" | head -n 1)
flags=$(sed -n 's|^// flags: *||p' "$case" | head -n 1)
expects=$(sed -n 's|^// expect: *||p' "$case")
if [ -z "$expects" ]; then
  echo "case $case has no '// expect:' line" >&2
  exit 2
fi

# gtcc runs inside SCRATCH (with TMPDIR there too) so that anything it
# writes to the current directory is caught; paths are made absolute first.
case "$gtcc" in /*) ;; */*) gtcc=$(pwd)/$gtcc ;; esac
case "$case" in /*) ;; *) case=$(pwd)/$case ;; esac
case "$scratch" in /*) ;; *) scratch=$(pwd)/$scratch ;; esac
dir=$(dirname "$case")
base=$(basename "$case" .c)
rm -f "$dir/$base.gt.c" "$dir/$base.gt.cu"
if [ "$mode" = emit-cu ]; then
  set -- --emit-cu "$case" -o "$scratch"
else
  set -- -c "$case" -o "$scratch/out.o"
fi
# shellcheck disable=SC2086  # flags are split on purpose
(cd "$scratch" && TMPDIR=$scratch exec "$gtcc" $flags "$@") >"$scratch.stdout" 2>"$scratch.stderr"
status=$?

echo "--- gtcc $flags $* (exit status $status)"
cat "$scratch.stderr"

if [ $status -gt 128 ]; then
  bad "gtcc was killed by signal $((status - 128))"
elif [ $status -ne 1 ]; then
  bad "exit status $status, expected 1"
fi

# Each expected diagnostic must start a line of stderr and be followed by
# the source line and a caret line whose '^' sits under the reported column
# (checked where the character there is plain ASCII: the source line may be
# shown as a window of a long line, so the characters are compared, not the
# indentation).
echo "$expects" >"$scratch.expects"
CASE=$case LC_ALL=C awk '
  FNR == NR { if ($0 != "") want[++nw] = $0; next }
  { err[++ne] = $0 }
  END {
    bad = 0
    for (w = 1; w <= nw; w++) {
      key = ENVIRON["CASE"] ":" want[w]
      at = 0
      for (i = 1; i <= ne; i++) if (index(err[i], key) == 1) { at = i; break }
      if (!at) { print "FAIL: missing on stderr: " key; bad = 1; continue }
      if (at + 2 > ne || err[at + 2] !~ /^ *\^/) {
        print "FAIL: no source line and caret after: " err[at]; bad = 1; continue
      }
      split(want[w], lc, ":"); line = lc[1] + 0; col = lc[2] + 0
      src = ""
      for (n = 1; (getline l < ENVIRON["CASE"]) > 0; n++) if (n == line) { src = l; break }
      close(ENVIRON["CASE"])
      c = substr(src, col, 1)
      p = index(err[at + 2], "^")
      if (c ~ /^[!-~]$/ && substr(err[at + 1], p, 1) != c) {
        print "FAIL: caret of " want[w] " is under \"" substr(err[at + 1], p, 1) "\", not \"" c "\""; bad = 1
      }
    }
    exit bad
  }' "$scratch.expects" "$scratch.stderr" || fail=1

# With `// only-expected`, no other error may be reported.
if grep -q '^// only-expected' "$case"; then
  nexp=$(grep -c ": error: " "$scratch.expects")
  nerr=$(grep -c ': error: ' "$scratch.stderr")
  [ "$nerr" -eq "$nexp" ] || bad "$nerr errors reported, expected only the $nexp listed"
fi

for f in "$scratch/out.o" "$dir/$base.gt.c" "$dir/$base.gt.cu"; do
  [ -e "$f" ] && bad "output file left behind: $f"
done
# Anything else in SCRATCH (gtcc's temporary work directory included).
left=$(find "$scratch" -mindepth 1 ! -name out.o | head -n 5)
[ -n "$left" ] && bad "files left behind in $scratch: $(echo $left)"

[ $fail -eq 0 ] && echo "PASS"
exit $fail
