#!/usr/bin/env bash
# Runs a gtcc-built program (host fallback without a GPU) and its cc build
# with the same arguments and compares their stdout with numdiff.
#
#   compare.sh NUMDIFF PROG.gpu PROG.cpu SCRATCH [ARGS...]
#
# Both must exit 0. Without a GPU the gtcc build must say (once, on
# stderr) that it runs the regions on the host.
set -u
[ $# -ge 4 ] || { echo "usage: compare.sh NUMDIFF PROG.gpu PROG.cpu SCRATCH [ARGS...]" >&2; exit 2; }
numdiff=$1 gpu=$2 cpu=$3 scratch=$4
shift 4
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
unset GTRT_REQUIRE_DEVICE
"$gpu" "$@" >"$scratch/gpu.out" 2>"$scratch/gpu.err"
rc=$?
if [ $rc -ne 0 ]; then
  cat "$scratch/gpu.err" >&2
  echo "FAIL: $gpu $* exited $rc" >&2
  exit 1
fi
"$cpu" "$@" >"$scratch/cpu.out" 2>"$scratch/cpu.err"
rc=$?
if [ $rc -ne 0 ]; then
  cat "$scratch/cpu.err" >&2
  echo "FAIL: $cpu $* exited $rc" >&2
  exit 1
fi
if ! "$numdiff" "$scratch/cpu.out" "$scratch/gpu.out"; then
  echo "FAIL: outputs differ: $scratch/cpu.out (cc) vs $scratch/gpu.out (gtcc)" >&2
  exit 1
fi
warn=$(grep -c 'running offload regions on the host' "$scratch/gpu.err")
if [ "$warn" -gt 1 ]; then
  echo "FAIL: the host-fallback warning was printed $warn times" >&2
  exit 1
fi
mode=GPU
[ "$warn" -eq 1 ] && mode="host fallback"
echo "ok: $(basename "$gpu") $* ($mode) matches $(basename "$cpu")"
