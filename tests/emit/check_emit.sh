#!/usr/bin/env bash
# Structural test of gtcc --emit-cu on one annotated C file:
#
#   check_emit.sh GTCC NVCC CC RUNTIME_DIR SOURCE.c SCRATCH_DIR
#
# 1. gtcc --emit-cu SOURCE.c -o SCRATCH writes X.gt.cu and X.gt.c;
# 2. X.gt.cu compiles with nvcc -arch=sm_90 -rdc=true -c, X.gt.c with
#    cc -std=gnu11 -Wall -Werror=implicit-function-declaration -c
#    (the source's folder is on the include path, as gtcc itself does);
# 3. X.gt.cu has __global__ kernels for each compute construct of the source
#    (acc parallel/kernels loop, omp target teams/parallel, each acc loop of
#    a bare acc parallel region: found by a line scan; matched by the line
#    in the kernel name), one extern "C" launch stub per construct, and
#    #line directives naming the
#    source; X.gt.c calls every stub, has #line directives naming the source
#    and no #pragma line of a lowered construct (acc parallel/kernels/data/
#    enter/exit/update, omp target ...);
# 4. each `// expect-in-cu: TEXT` comment of the source (on its own line or
#    after code) names text the .gt.cu holds (e.g. how a construct was
#    lowered: "nested parallel loop (CollectiveDP"); each `// expect-not-in-cu:
#    TEXT` names text it must not hold; a line `// nvcc-quiet`
#    asks that nvcc print no warning for the .gt.cu;
#    `// expect-serial: LINE...` lists the kernels of serial code (below).
set -u
[ $# -eq 6 ] || { echo "usage: check_emit.sh GTCC NVCC CC RUNTIME_DIR SOURCE.c SCRATCH" >&2; exit 2; }
GTCC=$1 NVCC=$2 CC=$3 RT=$4 SRC=$5 SCRATCH=$6
case $GTCC in /*) ;; */*) GTCC=$PWD/$GTCC ;; esac
case $SRC in /*) ;; *) SRC=$PWD/$SRC ;; esac
case $RT in /*) ;; *) RT=$PWD/$RT ;; esac
base=$(basename "$SRC" .c)
srcdir=$(cd "$(dirname "$SRC")" && pwd)
fail() {
  echo "FAIL ($base): $*" >&2
  exit 1
}

rm -rf "$SCRATCH"
mkdir -p "$SCRATCH/tmp" || exit 1
cd "$SCRATCH" || exit 1
export TMPDIR=$SCRATCH/tmp

"$GTCC" --emit-cu "$SRC" -o . >gtcc.out 2>&1
rc=$?
[ $rc -eq 0 ] || { cat gtcc.out; fail "gtcc --emit-cu exited $rc"; }
cu=$base.gt.cu hc=$base.gt.c
[ -s "$cu" ] || fail "no $cu"
[ -s "$hc" ] || fail "no $hc"

"$NVCC" -arch=sm_90 -rdc=true -c -I"$RT" -I"$srcdir" "$cu" -o "$base.dev.o" >nvcc.out 2>&1 ||
  { cat nvcc.out; fail "nvcc -c $cu failed"; }
"$CC" -std=gnu11 -Wall -Werror=implicit-function-declaration -c -I"$RT" -iquote "$srcdir" "$hc" -o "$base.host.o" \
  >cc.out 2>&1 || { cat cc.out; fail "cc -c $hc failed"; }

# Lines that get a kernel: each acc parallel loop / kernels loop and combined
# omp target ... loop construct; for a bare `acc parallel`, `omp target
# [teams|parallel]` or
# `acc kernels` region, each `acc loop` in it (one kernel per loop). Simple
# line scan: an `acc loop` belongs to a bare region when the last compute
# directive before it was one. A task region (omp parallel + single/master/masked
# within three lines, or omp parallel master|masked) gets one megakernel, named
# for the parallel's line.
# Blocks the preprocessor skips (`#if 0`, `#ifdef _OPENACC`: gtcc does not
# define _OPENACC) and the `#else` of `#if 1` hold no directive of the
# program; this filter blanks them, keeping line numbers.
active_lines() {
  awk '
    /^[ \t]*#[ \t]*if(def|ndef)?[ \t]/ {
      depth++
      if (!skip && ($0 ~ /^[ \t]*#[ \t]*if[ \t]+0([ \t]|$)/ || $0 ~ /^[ \t]*#[ \t]*ifdef[ \t]+_OPENACC([ \t]|$)/)) skip = depth
      else if (!skip && $0 ~ /^[ \t]*#[ \t]*if[ \t]+1([ \t]|$)/) one = depth
      print ""; next
    }
    /^[ \t]*#[ \t]*else([ \t]|$)/ {
      if (skip == depth) skip = 0
      else if (!skip && one == depth) skip = depth
      print ""; next
    }
    /^[ \t]*#[ \t]*endif([ \t]|$)/ {
      if (skip == depth) skip = 0
      if (one == depth) one = 0
      depth--; print ""; next
    }
    { print skip ? "" : $0 }
  ' "$1"
}
want_lines=$(active_lines "$SRC" | awk '
  /^[ \t]*#[ \t]*pragma[ \t]+acc[ \t]+(parallel|kernels)[ \t]+loop([ \t(]|$)/ { print NR; bare = 0; next }
  /^[ \t]*#[ \t]*pragma[ \t]+acc[ \t]+serial([ \t(]|$)/ { print NR; bare = 0; next }
  /^[ \t]*#[ \t]*pragma[ \t]+acc[ \t]+(parallel|kernels)([ \t(]|$)/ { bare = 1; next }
  /^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+target[ \t]+(teams[ \t]+)?(parallel[ \t]+)?(distribute|loop|for)([ \t(]|$)/ { print NR; bare = 0; next }
  /^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+target([ \t]+(teams|parallel))?([ \t(]|$)/ && !/target[ \t]+(data|update|enter|exit)/ {
    obare = 1; odepth = depth; oopen = 0; tline = NR; next
  }
  /^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+(teams[ \t]+)?(distribute|loop|parallel[ \t]+(for|loop)|for)([ \t(]|$)/ {
    if (obare) { print NR; if (!oopen) obare = 0 }
    next
  }
  { # a bare omp target region ends with its statement: a block, or the one loop after its directive
    n = split($0, ch, "")
    for (c = 1; c <= n; c++) {
      if (ch[c] == "{") { depth++; if (obare && depth > odepth) oopen = 1 }
      else if (ch[c] == "}") { depth--; if (obare && oopen && depth <= odepth) obare = 0 }
    }
  }
  /(^|[^A-Za-z0-9_])_Pragma[ \t]*\([ \t]*"(acc[ \t]+(parallel|kernels)[ \t]+loop|omp[ \t]+target[ \t]+(teams|parallel))([ \t(\\"]|$)/ { print NR; bare = 0; next }
  /^[ \t]*#[ \t]*pragma[ \t]+acc[ \t]+loop([ \t(]|$)/ { if (bare) print NR; next }
  /^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+parallel[ \t]+(master|masked)([ \t(]|$)/ { print NR; par = 0; next }
  /^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+parallel([ \t]*$|[ \t]+(default|shared|private|firstprivate|num_threads|if|proc_bind)[ \t]*\()/ { par = NR; next }
  /^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+(single|master|masked)([ \t(]|$)/ {
    if (par && NR - par <= 3) print par
    else if (obare && NR - tline <= 3) { print tline; obare = 0 } # omp target [parallel] + single: tasks
    par = 0; next
  }
' | tr '\n' ' ')
# Serial code of a region (a statement between its loops, an omp target body
# without loops) gets a kernel named for the construct's line: the source
# lists those lines in `// expect-serial: LINE...` (the scan cannot tell).
want_lines="$want_lines $(sed -nE 's|^// expect-serial: (.*)$|\1|p' "$SRC")"
want=$(echo $want_lines | wc -w)
[ "$want" -gt 0 ] || fail "the source has no compute construct (test input error)"
# Kernels are named gt_<file>_<line>_k<i>_<hash>_<role> (role: kernel, nlk, ...;
# hash: 6 hex digits naming the translation):
# a construct may need more than one kernel (CollectiveDP adds a next-level
# kernel), so count the distinct gt_<file>_<line>_k<i>_<hash> groups, and check
# that their lines are the lines of the constructs.
mapfile -t kernels < <(grep -E '__global__' "$cu" | sed -E 's/.*__global__ .*\b(gt_[A-Za-z0-9_]*)\(.*/\1/')
[ "${#kernels[@]}" -ge "$want" ] || fail "$cu has ${#kernels[@]} __global__ kernels, the source has $want compute constructs"
groups=$(printf '%s\n' "${kernels[@]}" | sed -nE "s/^(gt_.*_([0-9]+)_k[0-9]+_[0-9a-f]{6})_[A-Za-z0-9]+$/\2 \1/p" | sort -u)
ngroups=$(printf '%s\n' "$groups" | grep -c .)
[ "$ngroups" -eq "$want" ] ||
  fail "$cu has kernels for $ngroups constructs (${kernels[*]}), the source has $want compute constructs"
got_lines=$(printf '%s\n' "$groups" | cut -d' ' -f1 | sort -n | tr '\n' ' ')
want_lines=$(echo $want_lines | tr ' ' '\n' | sort -n | tr '\n' ' ')
[ "$(echo $want_lines)" = "$(echo $got_lines)" ] || fail "kernels are for lines $got_lines, the constructs are on lines $want_lines"
mapfile -t stubs < <(grep -E '^extern "C" [^(]*\bgt_[A-Za-z0-9_]*\(' "$cu" | sed -E 's/^extern "C" [^(]*\b(gt_[A-Za-z0-9_]*)\(.*/\1/')
[ "${#stubs[@]}" -eq "$want" ] || fail "$cu has ${#stubs[@]} extern \"C\" launch stubs, expected $want"
for s in "${stubs[@]}"; do
  grep -qE "\b$s\(" "$hc" || fail "$hc never calls the launch stub $s"
done
grep -qE "^#line [0-9]+ \"([^\"]*/)?$base\.c\"" "$cu" || fail "$cu has no #line directive naming $base.c"
grep -qE "^#line [0-9]+ \"([^\"]*/)?$base\.c\"" "$hc" || fail "$hc has no #line directive naming $base.c"
# Every #line in the .gt.cu names the source, the generated file itself or
# a header of the source's own (written out without its functions).
bad=$(grep -E '^#line ' "$cu" | grep -vE "\"([^\"]*/)?($base\.c|$base\.gt\.cu|[^\"/]+\.h)\"" | head -n 1)
[ -z "$bad" ] || fail "$cu has a #line directive naming another file: $bad"
left=$(active_lines "$hc" | grep -nE '^[[:space:]]*#[[:space:]]*pragma[[:space:]]+(acc[[:space:]]+(parallel|kernels|data|enter|exit|update)|omp[[:space:]]+target)' | head -n 3)
[ -z "$left" ] || fail "$hc still has lowered directives: $left"
grep -q 'gtrt_' "$hc" || fail "$hc does not call the runtime"
while IFS= read -r text; do
  grep -qF -- "$text" "$cu" || fail "$cu does not hold '$text' (an expect-in-cu line of the source)"
done < <(sed -nE 's|^.*// expect-in-cu: (.*)$|\1|p' "$SRC")
while IFS= read -r text; do
  ! grep -qF -- "$text" "$cu" || fail "$cu holds '$text' (an expect-not-in-cu line of the source)"
done < <(sed -nE 's|^.*// expect-not-in-cu: (.*)$|\1|p' "$SRC")
if grep -q '^// nvcc-quiet' "$SRC" && grep -q 'warning' nvcc.out; then
  cat nvcc.out
  fail "nvcc warned on $cu (the source asks for nvcc-quiet)"
fi
echo "ok: $base: $want compute constructs, ${#kernels[@]} kernels, $want stubs; nvcc and cc compile; #line to $base.c"
