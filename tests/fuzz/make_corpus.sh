#!/usr/bin/env bash
# Rebuilds the seed corpus of the fuzz targets from the repository's C
# sources (examples/, tests/emit/cases/, tests/diag/cases/, the GPU task and
# phase programs of tests/gpu/tasks/ and tests/gpu/phases/) and the
# hand-written pragma lines of seeds/pragmas.txt. Run from anywhere:
#   tests/fuzz/make_corpus.sh
# Inputs found by fuzzing that crashed go to regressions/, not here.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
dir_out=$here/corpus/directive
fe_out=$here/corpus/frontend
rm -rf "$dir_out" "$fe_out"
mkdir -p "$dir_out" "$fe_out"

# Whole files, for both targets (the GPU task and phase programs seed the
# task-region paths of the frontend). A local `#include "x.h"` is inlined so the
# file parses from the fuzzer's temporary folder (examples/mmio.h).
for src in "$root"/examples/*.c "$root"/tests/emit/cases/*.c "$root"/tests/diag/cases/*.c \
           "$root"/tests/gpu/tasks/*.c "$root"/tests/gpu/phases/*.c; do
  case $src in
    */emit/cases/*) name=emit-$(basename "$src") ;;
    */diag/cases/*) name=diag-$(basename "$src") ;;
    */gpu/tasks/*) name=tasks-$(basename "$src") ;;
    */gpu/phases/*) name=phases-$(basename "$src") ;;
    *) name=examples-$(basename "$src") ;;
  esac
  awk -v dir="$(dirname "$src")" '
    /^#include "[^"]*"/ {
      f = $2; gsub(/"/, "", f); p = dir "/" f
      if ((getline line < p) > 0) { print line; while ((getline line < p) > 0) print line; close(p); next }
    }
    { print }' "$src" >"$fe_out/$name"
  cp "$src" "$dir_out/$name"
done

# One seed per distinct pragma line of those files, and per hand-written line
# (in seeds/pragmas.txt, a literal \n stands for a newline).
n=0
seed() {
  n=$((n + 1))
  printf '%s\n' "$1" >"$dir_out/line-$(printf %03d "$n")"
}
while IFS= read -r line; do seed "$line"; done < <(
  grep -ah '^[[:space:]]*#[[:space:]]*pragma[[:space:]]\+\(acc\|omp\)' \
    "$root"/examples/*.c "$root"/tests/emit/cases/*.c "$root"/tests/diag/cases/*.c \
    "$root"/tests/gpu/tasks/*.c "$root"/tests/gpu/phases/*.c |
  awk 'length($0) <= 400 && !seen[$0]++')
while IFS= read -r line; do seed "$(printf '%s' "$line" | sed 's/\\n/\n/g')"; done < <(
  grep -v '^#!' "$here/seeds/pragmas.txt")
echo "corpus: $(ls "$dir_out" | wc -l) directive inputs ($(cat "$dir_out"/* | wc -c) bytes)," \
     "$(ls "$fe_out" | wc -l) frontend inputs ($(cat "$fe_out"/* | wc -c) bytes)"
