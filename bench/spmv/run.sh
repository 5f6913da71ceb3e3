#!/usr/bin/env bash
# SpMV benchmark: gtcc's CollectiveDP variants (--cdp=host|tail|cta|warp|off)
# against cuSPARSE (CSR ALG1, ALG2), thread/warp per row and a child launch
# per long row, on the five matrices of BRIEF §5, on one GPU.
#
# usage: run_spmv.sh [BENCH_BUILD_DIR [OUT_DIR [FILE.mtx...]]]
#   BENCH_BUILD_DIR  build/bench (or the build folder above it); default: this script's folder
#   OUT_DIR          where spmv.csv, copy_bw.csv, spmv_log.txt (and spmv.png) go; default .
#   FILE.mtx         extra Matrix Market files, measured after the built-in matrices
# environment:
#   SPMV_MATRICES    built-in matrices (default: poisson uniform powerlaw giant smallpl)
#   SPMV_ARGS        extra bench_spmv options, e.g. "--min-ms 50 --variants gtcc,cusparse"
#   SPMV_TIMEOUT     seconds per bench_spmv process (default 1200)
# Each matrix runs in its own bench_spmv process, so one crash or hang loses
# one matrix. Needs bash, coreutils, awk and the CUDA libraries bench_spmv
# links (libcusparse.so.12); python3 + matplotlib only for the plot.
# Exit status: 0 all ran and verified, 1 a failure, 77 no GPU.
set -uo pipefail
dir=${1:-$(dirname "$0")}
out=${2:-.}
shift $(($# < 2 ? $# : 2))
[ -x "$dir/bench_spmv" ] || { [ -x "$dir/bench/bench_spmv" ] && dir=$dir/bench; }
bin=$dir/bench_spmv
if [ ! -x "$bin" ]; then
  echo "run_spmv.sh: no bench_spmv in $dir (pass build/bench or the build folder)" >&2
  exit 2
fi
if command -v ldd >/dev/null && ldd "$bin" 2>/dev/null | grep -q 'not found'; then
  echo "run_spmv.sh: $bin cannot start, missing libraries:" >&2
  ldd "$bin" 2>/dev/null | grep "not found" >&2
  echo "(add the CUDA toolkit's lib folder to LD_LIBRARY_PATH)" >&2
  exit 1
fi
mkdir -p "$out"
csv=$out/spmv.csv
log=$out/spmv_log.txt
[ -e "$csv" ] && mv -f "$csv" "$csv.prev"
: >"$log"
matrices=${SPMV_MATRICES:-poisson uniform powerlaw giant smallpl}
tmo=${SPMV_TIMEOUT:-1200}
runner=()
command -v timeout >/dev/null && runner=(timeout "$tmo")

copy=
if [ -x "$dir/copy_bw" ]; then
  "$dir/copy_bw" >"$out/copy_bw.csv" 2>>"$log"
  case $? in
  0) copy=$(awk -F, '/^d2d_copy/ {print $5}' "$out/copy_bw.csv") ;;
  77) echo "run_spmv.sh: no GPU here" >&2; exit 77 ;;
  esac
fi

status=0
run_one() { # label, bench_spmv args...
  local label=$1
  shift
  # shellcheck disable=SC2086
  "${runner[@]}" "$bin" -o "$out" ${SPMV_ARGS:-} "$@" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  case $rc in
  0) ;;
  77) echo "run_spmv.sh: no GPU here (bench_spmv exit 77)" >&2; exit 77 ;;
  124) echo "run_spmv.sh: $label: TIMEOUT after ${tmo}s" | tee -a "$log"; status=1 ;;
  *) echo "run_spmv.sh: $label: bench_spmv exit $rc" | tee -a "$log"; status=1 ;;
  esac
}
for m in $matrices; do run_one "$m" -m "$m"; done
[ $# -gt 0 ] && run_one "mtx files" -m none "$@"

[ -s "$csv" ] || { echo "run_spmv.sh: no results in $csv" >&2; exit 1; }
echo
echo "================ summary ($csv) ================"
[ -n "$copy" ] && echo "device-to-device copy: $copy GB/s"
awk -F, -v copy="$copy" '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
  m = $c["matrix"]; v = $c["variant"]
  if (!(m in seen)) { seen[m] = 1; order[++nm] = m }
  if (!(v in vseen)) { vseen[v] = 1; vorder[++nv] = v }
  gb[m, v] = $c["GBps"]; ratio[m, v] = $c["ratio_to_best_cusparse"]; ok[m, v] = $c["ok"]
  if ($c["ok"] != 1) fails = fails sprintf("  %s on %s (max rel err %s)\n", v, m, $c["max_rel_err"])
}
END {
  printf "%-12s", "GB/s"
  for (j = 1; j <= nv; j++) printf " %13s", vorder[j]
  printf "\n"
  for (i = 1; i <= nm; i++) {
    printf "%-12s", order[i]
    for (j = 1; j <= nv; j++) printf " %12s%s", ((order[i], vorder[j]) in gb) ? sprintf("%.1f", gb[order[i], vorder[j]]) : "-", ok[order[i], vorder[j]] == 1 || !((order[i], vorder[j]) in gb) ? " " : "!"
    printf "\n"
  }
  printf "\nratio to the better cuSPARSE algorithm (GB/s / max(ALG1, ALG2)):\n%-12s", "matrix"
  for (j = 1; j <= nv; j++) if (vorder[j] !~ /^cusparse/) printf " %13s", vorder[j]
  printf "\n"
  for (i = 1; i <= nm; i++) {
    printf "%-12s", order[i]
    for (j = 1; j <= nv; j++) if (vorder[j] !~ /^cusparse/) {
      r = ratio[order[i], vorder[j]]
      printf " %13s", r == "" || r == "nan" || r == "-nan" ? "-" : sprintf("%.3f", r)
    }
    printf "\n"
  }
  printf "\ngeometric mean of the ratio to cuSPARSE over %d matrices:\n", nm
  for (j = 1; j <= nv; j++) {
    v = vorder[j]; s = 0; k = 0
    for (i = 1; i <= nm; i++) { r = ratio[order[i], v] + 0; if (r > 0) { s += log(r); k++ } }
    if (k) printf "  %-14s %.3f%s%s\n", v, exp(s / k), (k < nm ? sprintf("  (%d matrices)", k) : ""), (v == "gtcc_host" ? "   <- gtcc default (--cdp=host)" : "")
  }
  printf "\n10x check: gtcc default (gtcc_host) vs child launch per long row:\n"
  for (t = 1; t <= 2; t++) {
    m = t == 1 ? "powerlaw" : "giant"
    if (!((m, "gtcc_host") in gb) || !((m, "child_launch") in gb)) { printf "  %-9s not measured\n", m; continue }
    x = gb[m, "gtcc_host"] / gb[m, "child_launch"]
    printf "  %-9s %.1f / %.1f GB/s = %.1fx  %s\n", m, gb[m, "gtcc_host"], gb[m, "child_launch"], x, (x >= 10 ? "ok (>= 10x)" : "MISSED (< 10x)")
  }
  if (copy != "") {
    printf "\nbest gtcc variant per matrix, as a share of copy bandwidth (%s GB/s):\n", copy
    for (i = 1; i <= nm; i++) {
      best = 0; bv = "-"
      for (j = 1; j <= nv; j++) if (vorder[j] ~ /^gtcc_/ && ok[order[i], vorder[j]] == 1 && gb[order[i], vorder[j]] > best) { best = gb[order[i], vorder[j]]; bv = vorder[j] }
      printf "  %-12s %-10s %8.1f GB/s  %5.1f%%\n", order[i], bv, best, 100 * best / copy
    }
  }
  if (fails != "") { printf "\nFAILED verification:\n%s", fails; exit 1 }
}' "$csv" || status=1

here=$(cd "$(dirname "$0")" && pwd)
plot=$here/plot_spmv.py
[ -f "$plot" ] || plot=$dir/plot_spmv.py
if [ -f "$plot" ] && command -v python3 >/dev/null && python3 -c 'import matplotlib' 2>/dev/null; then
  python3 "$plot" "$csv" ${copy:+--copy "$copy"} -o "$out/spmv.png" && echo "plot: $out/spmv.png"
else
  echo "plot: python3 plot_spmv.py $csv ${copy:+--copy $copy} -o spmv.png   (needs matplotlib; run it elsewhere)"
fi
exit $status
