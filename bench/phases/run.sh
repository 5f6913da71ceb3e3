#!/usr/bin/env bash
# Phases benchmark: iterative task programs as one gtcc megakernel (ph_gtcc*)
# against one CUDA kernel launch per phase (ph_baselines: cuda_launch, and the
# same launches as a CUDA graph, cuda_graph), for many small phases and for
# few large ones, on one GPU; optionally the sequential CPU build (ph_cpu).
#
# usage: run.sh [BUILD_DIR [OUT_DIR]]
#   BUILD_DIR  build, build/bench or build/bench/phases (default: this script's folder)
#   OUT_DIR    where phases.csv, phases_log.txt and phases.png go (default .)
# environment (cases are N:BS:STEPS, space separated):
#   PH_HEAT_CASES    default "16384:256:1000 32768:256:1000 65536:256:1000 67108864:32768:20"
#                    (many small phases: 64/128/256 blocks of 256 cells, 1000 steps;
#                     few large: 2^26 cells in 2048 blocks, 20 steps)
#   PH_JACOBI_CASES  default "16384:64:1000 4194304:1024:20" (256 blocks x 1000 iterations;
#                     4096 blocks x 20 iterations)
#   PH_REPS     timed repetitions per measurement, median reported (default 7)
#   PH_TIMEOUT  seconds per program run (default 600)
#   PH_CPU      1 (default): also run ph_cpu (sequential, 1 rep) on cases with N*STEPS <= 2^26
# Programs: heat (baselines) = heat_taskwait and heat_depend (gtcc: the same
# computation with and without taskwait); jacobi_stages; jacobi_checkpoints.
# Every run is under `timeout`; a run that fails, times out or fails its
# check gives a row with ms = FAIL and the reason in the status column, and
# the script goes on. Needs bash, coreutils, awk, nvidia-smi; python3 +
# matplotlib only for the plot. Exit status: 0 all ran and passed, 1 some row
# is FAIL, 2 usage, 77 no GPU.
set -uo pipefail
dir=${1:-$(dirname "$0")}
out=${2:-.}
for d in "$dir" "$dir/phases" "$dir/bench/phases"; do
  if [ -x "$d/ph_baselines" ] || compgen -G "$d/ph_gtcc*" >/dev/null; then dir=$d; break; fi
done
if [ ! -x "$dir/ph_baselines" ] && ! compgen -G "$dir/ph_gtcc*" >/dev/null; then
  echo "run.sh: no ph_baselines or ph_gtcc* in $dir (pass build/bench/phases or the build folder)" >&2
  exit 2
fi
mkdir -p "$out"
csv=$out/phases.csv
raw=$out/phases_raw.csv
log=$out/phases_log.txt
[ -e "$csv" ] && mv -f "$csv" "$csv.prev"
: >"$log"
: >"$raw"
heat_cases=${PH_HEAT_CASES:-16384:256:1000 32768:256:1000 65536:256:1000 67108864:32768:20}
jacobi_cases=${PH_JACOBI_CASES:-16384:64:1000 4194304:1024:20}
reps=${PH_REPS:-7}
tmo=${PH_TIMEOUT:-600}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
[ -n "$gpu" ] || gpu=unknown
date=$(date -u +%Y-%m-%dT%H:%MZ)
runner=()
command -v timeout >/dev/null && runner=(timeout -k 10 "$tmo")
echo "# phases benchmark, $date, $gpu, heat: $heat_cases, jacobi: $jacobi_cases, reps: $reps" | tee -a "$log"

why() { # exit status -> reason for the status column
  case $1 in
  0) echo "no result line" ;;
  1) echo "exit 1" ;;
  124 | 137) echo "TIMEOUT ${tmo}s" ;;
  *) echo "exit $1" ;;
  esac
}

# run_prog "IMPL:PROGRAM ..." N BS STEPS -- command...: runs the command and
# takes its CSV line for each IMPL:PROGRAM; a pair without one is FAIL.
run_prog() {
  local pairs=$1 n=$2 bs=$3 steps=$4
  shift 5
  echo "+ $*" >>"$log"
  local txt rc
  txt=$("${runner[@]}" "$@" 2>&1)
  rc=$?
  printf '%s\n' "$txt" >>"$log"
  [ "$rc" = 77 ] && { echo "run.sh: no GPU here ($1 exit 77)" | tee -a "$log" >&2; exit 77; }
  local chk=""
  grep -q '^CHECK FAIL' <<<"$txt" && chk="CHECK FAIL"
  local pair impl prog line
  for pair in $pairs; do
    impl=${pair%%:*} prog=${pair#*:}
    line=$(grep -E "^$impl,$prog,$n,$steps,[0-9.]+\$" <<<"$txt" | tail -1)
    if [ -n "$line" ] && [ "$rc" = 0 ]; then
      echo "$line,$bs,ok" >>"$raw"
    elif [ -n "$line" ]; then
      echo "$line,$bs,ok (but $(why "$rc"))" >>"$raw"
    else
      local reason=${chk:-$(why "$rc")}
      echo "$impl,$prog,$n,$steps,FAIL,$bs,$reason" >>"$raw"
      echo "run.sh: $impl $prog N=$n BS=$bs steps=$steps: FAIL ($reason)" | tee -a "$log" >&2
    fi
  done
}

export GTRT_REQUIRE_DEVICE=1 # a gtcc program with no GPU exits 77 instead of running on the host
gtcc_bins=()
for f in "$dir"/ph_gtcc*; do [ -x "$f" ] && [ -f "$f" ] && gtcc_bins+=("$f"); done
echo "# gtcc builds found: ${#gtcc_bins[@]}${gtcc_bins:+ ($(for f in "${gtcc_bins[@]}"; do printf '%s ' "${f##*/}"; done))}" | tee -a "$log"

# one_case FAMILY N BS STEPS: baselines, gtcc builds, cpu
one_case() {
  local fam=$1 n=$2 bs=$3 steps=$4 progs f label p
  if [ "$fam" = heat ]; then progs="heat_taskwait heat_depend"; else progs=$fam; fi
  echo "== $fam N=$n BS=$bs steps=$steps" | tee -a "$log"
  if [ -x "$dir/ph_baselines" ]; then
    run_prog "cuda_launch:$fam cuda_graph:$fam" "$n" "$bs" "$steps" -- "$dir/ph_baselines" "$fam" "$n" "$bs" "$steps" "$reps"
  fi
  for f in "${gtcc_bins[@]}"; do
    label=${f##*/}
    label=${label#ph_}
    for p in $progs; do
      run_prog "$label:$p" "$n" "$bs" "$steps" -- "$f" "$p" "$n" "$bs" "$steps" "$reps" "$label"
    done
  done
  if [ "${PH_CPU:-1}" = 1 ] && [ -x "$dir/ph_cpu" ] && [ $((n * steps)) -le $((1 << 26)) ]; then
    for p in $progs; do
      run_prog "cpu:$p" "$n" "$bs" "$steps" -- "$dir/ph_cpu" "$p" "$n" "$bs" "$steps" 1 cpu
    done
  fi
}

for c in $heat_cases; do
  IFS=: read -r n bs steps <<<"$c"
  one_case heat "$n" "$bs" "$steps"
done
for c in $jacobi_cases; do
  IFS=: read -r n bs steps <<<"$c"
  one_case jacobi_stages "$n" "$bs" "$steps"
  one_case jacobi_checkpoints "$n" "$bs" "$steps"
done

# Final CSV. family: heat for heat_taskwait/heat_depend, else the program;
# ratio_to_launch = cuda_launch ms / this ms for the same family, N, BS and
# steps (> 1: faster than one kernel launch per phase).
echo "date,gpu,impl,program,family,N,BS,steps,ms,us_per_step,ratio_to_launch,status" >"$csv"
awk -F, -v date="$date" -v gpu="${gpu//,/;}" '
function fam(p) { return p ~ /^heat/ ? "heat" : p }
NR == FNR { if ($1 == "cuda_launch" && $5 != "FAIL") L[fam($2), $3, $6, $4] = $5; next }
{
  f = fam($2); r = ""; us = ""
  if ($5 != "FAIL" && ((f, $3, $6, $4) in L) && $5 > 0) r = sprintf("%.4f", L[f, $3, $6, $4] / $5)
  if ($5 != "FAIL" && $4 > 0) us = sprintf("%.3f", $5 * 1000 / $4)
  printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", date, gpu, $1, $2, f, $3, $6, $4, $5, us, r, $7
}' "$raw" "$raw" >>"$csv"
rm -f "$raw"

echo
echo "================ summary ($csv) ================"
echo "GPU: $gpu"
awk -F, '
NR == 1 { next }
{
  k = $5 " N=" $6 " BS=" $7 " x" $8
  if (!(k in cs)) { cs[k] = 1; cols[++nc] = k }
  row = $3 " " $4
  if (!(row in rs)) { rs[row] = 1; rows[++nr] = row }
  ms[row, k] = $9; ra[row, k] = $11
  if ($9 == "FAIL") fails = fails sprintf("  %s %s: %s\n", row, k, $12)
}
END {
  printf "ms per run (median; in brackets cuda_launch ms / this ms, > 1 = faster than a launch per phase)\n"
  for (c = 1; c <= nc; c++) {
    printf "\n%s\n", cols[c]
    for (i = 1; i <= nr; i++) {
      v = ms[rows[i], cols[c]]
      if (v == "") continue
      printf "  %-34s %s\n", rows[i], v == "FAIL" ? "FAIL" : sprintf("%10.3f  (%s)", v, ra[rows[i], cols[c]] == "" ? "-" : sprintf("%.2fx", ra[rows[i], cols[c]]))
    }
  }
  if (fails != "") { printf "\nFAILED:\n%s", fails; exit 1 }
}' "$csv"
status=$?

here=$(cd "$(dirname "$0")" && pwd)
plot=$here/plot_phases.py
[ -f "$plot" ] || plot=$dir/plot_phases.py
if [ -f "$plot" ] && command -v python3 >/dev/null && python3 -c 'import matplotlib' 2>/dev/null; then
  python3 "$plot" "$csv" -o "$out/phases.png" && echo "plot: $out/phases.png"
else
  echo "plot: python3 plot_phases.py $csv -o phases.png   (needs matplotlib; run it elsewhere)"
fi
exit $status
