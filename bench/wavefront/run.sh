#!/usr/bin/env bash
# Wavefront benchmark (Needleman-Wunsch, N x N cells, one task per cell):
# hand-written CUDA (one launch per anti-diagonal; the same launches in a CUDA
# graph), the sequential CPU build of wf_gtcc.c, and every gtcc build of
# wf_gtcc.c that exists (wf_gtcc, wf_gtcc_queue_*, wf_gtcc_worker_*,
# wf_gtcc_tile_*), for each N and both bodies (nw, noop), on one GPU.
#
# usage: run.sh [BUILD_DIR [OUT_DIR]]
#   BUILD_DIR  build, build/bench or build/bench/wavefront (default: this script's folder)
#   OUT_DIR    where wavefront.csv, wavefront_log.txt and wavefront.png go (default .)
# environment:
#   WF_SIZES    matrix sizes N (default "2000 10000")
#   WF_BODIES   bodies (default "nw noop")
#   WF_REPS     timed repetitions per measurement, median reported (default 7)
#   WF_TIMEOUT  seconds per program run (default 300)
#   WF_CPU      1 (default): also run wf_cpu (sequential CPU, body nw only)
# Each program run is under `timeout`; a run that fails, times out or fails
# its check gives a row with ms = FAIL and the reason in the status column,
# and the script goes on. Needs bash, coreutils, awk, nvidia-smi; python3 +
# matplotlib only for the plot. Exit status: 0 all ran and passed, 1 some
# row is FAIL, 2 usage, 77 no GPU.
set -uo pipefail
dir=${1:-$(dirname "$0")}
out=${2:-.}
for d in "$dir" "$dir/wavefront" "$dir/bench/wavefront"; do
  if [ -x "$d/wavefront_baselines" ] || compgen -G "$d/wf_gtcc*" >/dev/null; then dir=$d; break; fi
done
if [ ! -x "$dir/wavefront_baselines" ] && ! compgen -G "$dir/wf_gtcc*" >/dev/null; then
  echo "run.sh: no wavefront_baselines or wf_gtcc* in $dir (pass build/bench/wavefront or the build folder)" >&2
  exit 2
fi
mkdir -p "$out"
csv=$out/wavefront.csv
raw=$out/wavefront_raw.csv
log=$out/wavefront_log.txt
[ -e "$csv" ] && mv -f "$csv" "$csv.prev"
: >"$log"
: >"$raw"
sizes=${WF_SIZES:-2000 10000}
bodies=${WF_BODIES:-nw noop}
reps=${WF_REPS:-7}
tmo=${WF_TIMEOUT:-300}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
[ -n "$gpu" ] || gpu=unknown
date=$(date -u +%Y-%m-%dT%H:%MZ)
runner=()
command -v timeout >/dev/null && runner=(timeout -k 10 "$tmo")
echo "# wavefront benchmark, $date, $gpu, sizes: $sizes, bodies: $bodies, reps: $reps" | tee -a "$log"

why() { # exit status -> reason for the status column
  case $1 in
  0) echo "no result line" ;;
  1) echo "exit 1" ;;
  124 | 137) echo "TIMEOUT ${tmo}s" ;;
  *) echo "exit $1" ;;
  esac
}

# run_prog IMPLS BODY N -- command...: runs the command, takes its CSV lines
# for each impl in IMPLS (space separated); any impl without one is FAIL.
run_prog() {
  local impls=$1 body=$2 n=$3
  shift 4
  echo "+ $*" >>"$log"
  local txt rc
  txt=$("${runner[@]}" "$@" 2>&1)
  rc=$?
  printf '%s\n' "$txt" >>"$log"
  [ "$rc" = 77 ] && { echo "run.sh: no GPU here ($1 exit 77)" | tee -a "$log" >&2; exit 77; }
  local chk=""
  grep -q '^CHECK FAIL' <<<"$txt" && chk="CHECK FAIL"
  local impl line
  for impl in $impls; do
    line=$(grep -E "^$impl,$body,$n,[0-9.]+,[0-9.e+]+\$" <<<"$txt" | tail -1)
    if [ -n "$line" ] && [ "$rc" = 0 ]; then
      echo "$line,ok" >>"$raw"
    elif [ -n "$line" ]; then
      echo "$line,ok (but $(why "$rc"))" >>"$raw"
    else
      local reason=${chk:-$(why "$rc")}
      echo "$impl,$body,$n,FAIL,,$reason" >>"$raw"
      echo "run.sh: $impl $body N=$n: FAIL ($reason)" | tee -a "$log" >&2
    fi
  done
}

export GTRT_REQUIRE_DEVICE=1 # a gtcc program with no GPU exits 77 instead of running on the host
gtcc_bins=()
for f in "$dir"/wf_gtcc*; do [ -x "$f" ] && [ -f "$f" ] && gtcc_bins+=("$f"); done
echo "# gtcc variants found: ${#gtcc_bins[@]}${gtcc_bins:+ ($(for f in "${gtcc_bins[@]}"; do printf '%s ' "${f##*/}"; done))}" | tee -a "$log"

for n in $sizes; do
  for body in $bodies; do
    echo "== N=$n body=$body" | tee -a "$log"
    if [ -x "$dir/wavefront_baselines" ]; then
      run_prog "cuda_diag cuda_graph" "$body" "$n" -- "$dir/wavefront_baselines" "$body" "$n" "$reps"
    fi
    if [ "${WF_CPU:-1}" = 1 ] && [ "$body" = nw ] && [ -x "$dir/wf_cpu" ]; then
      run_prog cpu "$body" "$n" -- "$dir/wf_cpu" "$body" "$n" 3 cpu
    fi
    for f in "${gtcc_bins[@]}"; do
      label=${f##*/}
      label=${label#wf_}
      run_prog "$label" "$body" "$n" -- "$f" "$body" "$n" "$reps" "$label"
    done
  done
done

# Final CSV: ratio_to_graph = cuda_graph ms / this ms for the same body and N
# (tasks/s relative to the CUDA graph: > 1 is faster than the graph).
echo "date,gpu,impl,body,N,ms,tasks_per_s,ratio_to_graph,status" >"$csv"
awk -F, -v date="$date" -v gpu="${gpu//,/;}" '
NR == FNR { if ($1 == "cuda_graph" && $4 != "FAIL") g[$2, $3] = $4; next }
{
  r = ""
  if ($4 != "FAIL" && (($2, $3) in g) && $4 > 0) r = sprintf("%.4f", g[$2, $3] / $4)
  printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", date, gpu, $1, $2, $3, $4, $5, r, $6
}' "$raw" "$raw" >>"$csv"
rm -f "$raw"

echo
echo "================ summary ($csv) ================"
echo "GPU: $gpu"
awk -F, '
NR == 1 { next }
{
  k = $4 " N=" $5
  if (!(k in cs)) { cs[k] = 1; cols[++nc] = k }
  if (!($3 in is)) { is[$3] = 1; impls[++ni] = $3 }
  ms[$3, k] = $6; ra[$3, k] = $8
  if ($6 == "FAIL") fails = fails sprintf("  %s %s: %s\n", $3, k, $9)
}
END {
  printf "ms (median; ratio to cuda_graph of the same body and N in brackets, > 1 = faster)\n"
  printf "%-22s", "impl"
  for (c = 1; c <= nc; c++) printf " %22s", cols[c]
  printf "\n"
  for (i = 1; i <= ni; i++) {
    printf "%-22s", impls[i]
    for (c = 1; c <= nc; c++) {
      v = ms[impls[i], cols[c]]
      if (v == "") s = "-"
      else if (v == "FAIL") s = "FAIL"
      else s = sprintf("%.3f (%s)", v, ra[impls[i], cols[c]] == "" ? "-" : sprintf("%.2f", ra[impls[i], cols[c]]))
      printf " %22s", s
    }
    printf "\n"
  }
  if (fails != "") { printf "\nFAILED:\n%s", fails; exit 1 }
}' "$csv"
status=$?

here=$(cd "$(dirname "$0")" && pwd)
plot=$here/plot_wavefront.py
[ -f "$plot" ] || plot=$dir/plot_wavefront.py
if [ -f "$plot" ] && command -v python3 >/dev/null && python3 -c 'import matplotlib' 2>/dev/null; then
  python3 "$plot" "$csv" -o "$out/wavefront.png" && echo "plot: $out/wavefront.png"
else
  echo "plot: python3 plot_wavefront.py $csv -o wavefront.png   (needs matplotlib; run it elsewhere)"
fi
exit $status
