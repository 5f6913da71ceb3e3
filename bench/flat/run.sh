#!/usr/bin/env bash
# Flat-loop bandwidth benchmark: gtcc's saxpy and 2D stencil against the
# device-to-device copy, in one run on one GPU.
# usage: run_flat.sh [BENCH_BUILD_DIR] [OUT_DIR]   (defaults: this script's dir, .)
set -euo pipefail
dir=${1:-$(dirname "$0")}
out=${2:-.}
mkdir -p "$out"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || echo unknown)
date=$(date -u +%Y-%m-%d)
csv="$out/flat_bandwidth.csv"
{
  echo "# gtcc flat-loop bandwidth, $date, $gpu"
  "$dir/copy_bw" | head -1
  "$dir/copy_bw" | tail -1
  GTRT_REQUIRE_DEVICE=1 "$dir/saxpy_bench" | grep '^saxpy'
  GTRT_REQUIRE_DEVICE=1 "$dir/stencil_bench" | grep '^stencil'
} > "$csv"
cat "$csv"
copy=$(awk -F, '/^d2d_copy/ {print $5}' "$csv")
awk -F, -v c="$copy" '/^(saxpy|stencil2d)/ {printf "%s: %.1f GB/s = %.1f%% of copy bandwidth (%.1f GB/s)\n", $1, $5, 100*$5/c, c}' "$csv"
