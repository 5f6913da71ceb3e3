#!/usr/bin/env bash
# GPU regression tests: run each example built by gtcc (X.gpu) on the GPU and
# its plain-C build (X.cpu) on the host, and compare their outputs with
# numdiff (relative tolerance; reductions on the GPU sum in another order).
#
#   run_gpu_tests.sh BUILD_DIR [NAME...]
#
# BUILD_DIR is a gtcc build folder (binaries in BUILD_DIR/tests/gpu) or that
# tests/gpu folder itself, possibly copied to another machine: nothing else
# is needed there (no CMake, CTest, gtcc, libclang; just bash and coreutils).
# NAMEs pick examples or test programs (default: all). Every program runs at
# least at a large size (its defaults) and at edge sizes; spmv, spmv_omp and
# bfs also on every data/*.mtx; the phased task programs (heat, jacobi_tasks,
# phase_*; built with -DGTCC_PHASE_PROGRAMS=ON) also with 0, 1, 2 and 1000 steps. nested_spmv_MODE (the CollectiveDP test
# program built with gtcc --cdp=MODE) runs on every matrix it generates,
# every data/*.mtx and, with a tiny context buffer (GTRT_CDP_CAPACITY), on
# the matrices whose contexts overflow it. Prints PASS/FAIL/SKIP per case
# and a summary line.
#
# Exit status: 0 all run cases passed, 1 a case failed, 77 every case was
# skipped (no GPU: the .gpu binary exits 77 under GTRT_REQUIRE_DEVICE=1),
# 2 usage error.
#
# Environment: GPU_TEST_TIMEOUT (seconds per run, default 600), GPU_TEST_KEEP=1
# keeps the outputs (the folder is printed), GTRT_* are passed through.
set -u

usage() {
  echo "usage: run_gpu_tests.sh BUILD_DIR [NAME...]" >&2
  exit 2
}
[ $# -ge 1 ] || usage
if [ -x "$1/tests/gpu/numdiff" ]; then
  BIN=$1/tests/gpu
elif [ -x "$1/numdiff" ]; then
  BIN=$1
else
  echo "run_gpu_tests.sh: no numdiff in $1/tests/gpu or $1 (is it a built gtcc build folder?)" >&2
  exit 2
fi
shift
BIN=$(cd "$BIN" && pwd)
DATA=$BIN/data

# The examples and their argument lists, small/edge cases first (the first
# run also finds out whether there is a GPU). "-" means no arguments (the
# program's large defaults). A case may start with VAR=VALUE words: the
# environment of both runs. A case may end with "|NUMDIFF OPTIONS".
EXAMPLES=(saxpy stencil2d dot data_reuse spmv spmv_omp bfs wavefront)
# Examples built only with -DGTCC_PHASE_PROGRAMS=ON (tests/gpu/CMakeLists.txt):
# listed when their binaries are here.
for p in heat jacobi_tasks; do
  [ -e "$BIN/$p.gpu" ] && EXAMPLES+=("$p")
done
mtx_files() {
  local f
  for f in "$DATA"/*.mtx; do
    [ -e "$f" ] && printf '%s\n' "$f"
  done
}
cases_for() {
  case $1 in
  saxpy) printf '%s\n' "1" "0" "1000 2" "-" "100000000 1" ;;
  stencil2d) printf '%s\n' "1 1 3" "3 3 1" "2 7 2" "130 67 9" "-" "1024 8192 20" ;;
  dot) printf '%s\n' "1" "0" "1000" "-" ;;
  data_reuse) printf '%s\n' "1" "0" "1000" "-" ;;
  spmv | spmv_omp)
    printf '%s\n' "1" "0" "2" "1000"
    mtx_files
    printf '%s\n' "-" "200000 2" ;;
  bfs)
    printf '%s\n' "1" "0" "2" "1000 3"
    mtx_files
    printf '%s\n' "-" "300000 4" ;;
  nested_spmv_*)
    printf '%s\n' zero "empty 1" "giant1 1" allshort poisson "medium 200" medium empty allabove \
      giant1 arrow powerlaw
    mtx_files
    printf '%s\n' "GTRT_CDP_CAPACITY=3 powerlaw" "GTRT_CDP_CAPACITY=3 giant1" \
      "GTRT_CDP_CAPACITY=0 allabove 60" ;;
  nested_inner_data_*) printf '%s\n' "0" "1" "3000" "-" "GTRT_CDP_CAPACITY=2 20000" ;;
  nested_atomics_*) printf '%s\n' "0" "1" "3000" "-" "GTRT_CDP_CAPACITY=2 20000" ;;
  nested_after_*) printf '%s\n' "0" "1" "8" "6000" "-" "GTRT_CDP_CAPACITY=3 20000" "GTRT_CDP_CAPACITY=0 6000" ;;
  nested_shapes_*) printf '%s\n' "0" "1" "3" "200" "-" "GTRT_CDP_CAPACITY=2 2000" ;;
  wavefront | wavefront_*) printf '%s\n' "0 0" "1 1" "1 700" "700 1" "33 65" "517 1000" "-" "10000 10000" ;;
  task_sw) printf '%s\n' "1 1" "1 300" "300 1" "100 37" "-" ;;
  task_gauss_seidel) printf '%s\n' "1 1 1" "1 200 2" "200 1 2" "31 33 1" "-" "2000 3000 2" ;;
  task_prefix_chain) printf '%s\n' "0" "1" "2" "255" "257" "-" "3000000" ;;
  task_tile_tasks) printf '%s\n' "0 0 8" "1 1 5" "1 20 32" "20 1 32" "7 9 33" "-" ;;
  task_flat_index) printf '%s\n' "1 1" "1 100" "100 1" "-" ;;
  task_random_dag | task_random_dag_*) printf '%s\n' "2 1" "8 7" "-" "4 300000" ;;
  task_wave3d) printf '%s\n' "1 1 1" "1 40 1" "3 1 40" "33 9 65" "-" ;;
  task_skewed) printf '%s\n' "1 1" "1 100" "100 1" "-" "1000 1500" ;;
  # Phased task programs (GTCC_PHASE_PROGRAMS): FORM N BS STEPS; 1, 2 and 1000
  # steps, no cells, one cell, partial last blocks, the defaults and large sizes.
  heat)
    printf '%s\n' "taskwait 0 16 3" "depend 0 16 3" "taskwait 1 1 1" "depend 1 1 1000" "depend 7 3 1000" \
      "taskwait 1000 64 1" "taskwait 1000 64 2" "taskwait 1000 64 1000" "depend 1000 64 1" "depend 1000 64 2" \
      "depend 1000 64 1000" "GTRT_PLAN_LEVELS=0 depend 1000 64 1000" "GTRT_PLAN_LEVELS=0 depend 100003 1024 20" "GTRT_PLAN_LEVELS=40 depend 100003 1024 20" "GTRT_TASK_STATIC=0 taskwait 1000 64 1000" "GTRT_TASK_STATIC=0 depend 1000 64 1000" "taskwait 100003 1024 20" "depend 100003 1024 20" "taskwait 65536 256 1000" \
      "depend 65536 256 1000" "-" "depend" "taskwait 4194304 4096 100" "depend 4194304 4096 100" ;;
  # FORM N BS ITERS [K]
  jacobi_tasks)
    printf '%s\n' "stages 0" "checkpoints 0 5 3 2" "stages 1 1 1" "checkpoints 1 1 2 1" "stages 1000 64 0" \
      "stages 1000 64 1" "stages 1000 64 2" "stages 1000 64 1000" "checkpoints 1000 64 1" "checkpoints 1000 64 2 1" \
      "checkpoints 1000 64 1000 7" "GTRT_PLAN_LEVELS=0 checkpoints 1000 64 1000 7" "GTRT_PLAN_LEVELS=0 checkpoints 1048576 1024 100 10" "GTRT_TASK_STATIC=0 stages 1000 64 1000" "stages 3001 100 50" "checkpoints 3001 1 30 4" "stages 16384 64 1000" \
      "checkpoints 16384 64 1000 10" "-" "checkpoints" "stages 1048576 1024 100" "checkpoints 1048576 1024 100 10" ;;
  # tests/gpu/phases: N BS STEPS [...]
  phase_swap | phase_swap_depend)
    printf '%s\n' "0 5 3" "1 1 1" "1 1 2" "1 1 1000" "1000 64 1" "1000 64 2" "1000 64 1000" "1001 64 0" \
      "10007 100 33" "-" "1000000 4096 20" ;;
  phase_empty_phase) # N BS STEPS [POISON]: POISON 0 = the empty phase
    printf '%s\n' "0 5 3" "1 1 1" "1000 64 1" "1000 64 2" "1000 64 1000" "1000 64 0" "3001 100 7" "-" \
      "200000 2048 10" ;;
  phase_multi_type)
    printf '%s\n' "0 5 3" "1 1 1" "1 1 1000" "1000 64 1" "1000 64 2" "1000 64 1000" "1000 64 0" "3001 100 7" "-" \
      "200000 2048 10" ;;
  phase_atomics) printf '%s\n' "0 5 3" "1 1 1" "1000 64 0" "1000 64 2" "1000 64 1000" "3001 100 7" "-" ;; # N BS STEPS
  phase_taskgroup) printf '%s\n' "0 5 3" "1 1 1" "1000 64 1" "1000 64 2" "200 16 1000" "1000 64 0" "3001 100 7" "-" ;;
  phase_nest2) # NB MB T SWEEPS K
    printf '%s\n' "0 0 4 3 1" "0 5 4 3 1" "1 1 1 1 1" "1 1 8 2 1" "1 40 16 5 2" "40 1 16 5 2" "6 4 8 1 1" \
      "6 4 8 2 1" "3 5 7 1000 100" "16 16 32 0 1" "-" "24 20 16 1000 250" ;;
  phase_runtime_trip) # N BS STEPS [STRIDE]
    printf '%s\n' "0 5 3" "1 1 1" "1000 64 1" "1000 64 2" "1000 64 1000" "1000 64 0" "1000 64 1000 0" \
      "5000 5000 20" "-" "300000 3000 100" ;;
  phase_same_name) # N BS STEPS
    printf '%s\n' "0 5 3" "1 1 1" "1000 64 1" "1000 64 2" "1000 64 1000" "1000 64 0" "3001 100 7" "-" \
      "1000000 4096 20" ;;
  phase_iv_out) # NB BS STEPS: NB 6 has empty first loops, NB 0 empty nests
    printf '%s\n' "0 4 3" "1 4 1" "1 4 2" "6 4 9" "6 4 1000" "40 32 0" "-" "3000 64 50" ;;
  phase_host_members | phase_const_arg) # N BS STEPS
    printf '%s\n' "0 5 3" "1 1 1" "1000 64 1" "1000 64 2" "1000 64 1000" "1000 64 0" "-" "1000000 4096 20" ;;
  phase_split) # N BS STEPS [TOL]: odd N leaves the loop at step 7
    printf '%s\n' "0 5 3" "1 1 1" "2 1 2" "1000 64 1" "1000 64 2" "1000 64 1000" "1001 64 1000" "1000 64 0" \
      "1000 64 1000 1e-2" "-" "1000000 4096 50" ;;
  phase_split_headers) # N BS MAXIT [TOL]
    printf '%s\n' "0 5 3" "1 1 1" "2 1 2" "1000 64 1" "1000 64 2" "1000 64 0" "1000 64 1000" "3001 100 1000 1e-4" \
      "777 7 1000 1e-2" "-" "1000000 4096 40" ;;
  phase_split_indirect_dep) printf '%s\n' "8 100 1" "16 500 2" "32 200 1000" "-" ;; # NB BS ROUNDS
  phase_split_ptr_arith | phase_split_ptr_array) printf '%s\n' "3000 100 1" "3000 100 2" "3000 100 1000" "-" ;;
  phase_vla_swap) # NB MB B STEPS
    printf '%s\n' "0 0 4 3" "1 1 1 1" "1 1 1 2" "6 5 8 1000" "3 7 16 0" "-" "40 40 32 30" ;;
  phase_rerun) printf '%s\n' "GTRT_PLAN_MEMO=0 64 32 50 4" "GTRT_PLAN_LEVELS=0 64 32 50 4" "1 1 1 3" "7 16 0 3" "3 8 1000 3" "-" "2048 256 20 4" ;; # NB BS STEPS RUNS
  phase_outer_ptrs) printf '%s\n' "0 5 3" "1 1 1" "1000 64 1" "1000 64 2" "1000 64 1000" "1000 64 0" "3001 100 7" "-" ;; # N BS STEPS
  phase_alias_ptrs) printf '%s\n' "0 1" "1 1" "2 2" "1000 1" "1000 1000" "-" "200000 4" ;; # N STEPS
  phase_user_w_b) printf '%s\n' "1 1 1" "64 64 2" "7 33 1000" "64 64 0" "-" "4096 256 20" ;; # NB BS STEPS
  task_user_w_b) printf '%s\n' "0 0" "1 1" "1 300" "300 1" "-" "3000 2000" ;;
  task_private_restated) printf '%s\n' "0 1" "1 1" "500 4" "-" "3000 50" ;; # NB STEPS
  phase_pure_call_item) printf '%s\n' "1 1 1" "3 5 2" "100 64 4" "100 64 0" "-" "1000 64 50" ;; # NB BS STEPS
  phase_const_member) printf '%s\n' "0 3" "1 1" "4000 0" "4000 2" "-" "100000 20" ;; # NB STEPS
  task_loop_ne) printf '%s\n' "0" "1" "2" "-" "100000" ;; # N
  nested_outer_reduction | nested_fn_pointer | nested_before_storage | nested_guarded | gtcc_cdp_on_construct) printf '%s\n' "0" "1" "2" "-" "200000" ;; # N
  nested_stages | nested_scoped | nested_scoped_forms | nested_struct_local) printf '%s\n' "0" "1" "2" "GTRT_CDP_CAPACITY=3 20000" "GTRT_CDP_CAPACITY=0 20000" "-" "200000" ;; # N
  nested_inner_collapse) printf '%s\n' "0" "1" "2" "GTRT_CDP_CAPACITY=3 20000" "GTRT_CDP_CAPACITY=0 20000" "-" "50000" ;; # N
  nested_collapse) printf '%s\n' "0 0" "1 1" "2 5" "4 30000" "-" "GTRT_CDP_CAPACITY=3 300 20000" "200 200000" ;; # NB GIANT
  host_only_arrays) printf '%s\n' "0 5 3" "1 1 1" "1 1 2" "64 1024 0" "7 33 1000" "-" "256 4096 20" ;; # NB BS STEPS
  *) printf '%s\n' "-" ;; # other test programs (tests/emit/cases): no arguments
  esac
}

# All programs: the examples, then every other X.gpu that has an X.cpu.
PROGRAMS=("${EXAMPLES[@]}")
for g in "$BIN"/*.gpu; do
  [ -e "$g" ] || continue
  p=$(basename "$g" .gpu)
  case " ${EXAMPLES[*]} " in *" $p "*) continue ;; esac
  [ -e "$BIN/$p.cpu" ] && PROGRAMS+=("$p")
done
if [ $# -gt 0 ]; then
  for want in "$@"; do
    case " ${PROGRAMS[*]} " in
    *" $want "*) ;;
    *) echo "run_gpu_tests.sh: unknown program '$want' (known: ${PROGRAMS[*]})" >&2; exit 2 ;;
    esac
  done
  PROGRAMS=("$@")
fi

OUT=$(mktemp -d "${TMPDIR:-/tmp}/gtcc-gpu-tests.XXXXXX") || exit 2
[ "${GPU_TEST_KEEP:-0}" = 1 ] || trap 'rm -rf "$OUT"' EXIT
TIMEOUT=()
command -v timeout >/dev/null 2>&1 && TIMEOUT=(timeout "${GPU_TEST_TIMEOUT:-600}")

pass=0 fail=0 skip=0 no_gpu=0 k=0
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# run_case PROGRAM ARGS [NUMDIFF OPTIONS]; ARGS may start with VAR=VALUE words.
run_case() {
  local p=$1 args=$2 opts=$3 label rc t0 t1 t2
  local -a argv=() envs=()
  [ "$args" = - ] || read -r -a argv <<<"$args"
  while [ ${#argv[@]} -gt 0 ] && [[ ${argv[0]} =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
    envs+=("${argv[0]}")
    argv=("${argv[@]:1}")
  done
  [ ${#argv[@]} -eq 1 ] && [ "${argv[0]}" = - ] && argv=()
  label="$p ${args//$DATA\//data/}"
  [ "$args" = - ] && label="$p (defaults)"
  k=$((k + 1))
  if [ "$no_gpu" = 1 ]; then
    echo "SKIP $label (no GPU)"
    skip=$((skip + 1))
    return
  fi
  if [ ! -x "$BIN/$p.gpu" ] || [ ! -x "$BIN/$p.cpu" ]; then
    echo "FAIL $label: $BIN/$p.gpu or $p.cpu is missing"
    fail=$((fail + 1))
    return
  fi
  t0=$(now)
  env "${envs[@]}" GTRT_REQUIRE_DEVICE=1 "${TIMEOUT[@]}" "$BIN/$p.gpu" "${argv[@]}" >"$OUT/$k.gpu.out" 2>"$OUT/$k.gpu.err"
  rc=$?
  t1=$(now)
  if [ $rc -eq 77 ]; then
    echo "SKIP $label (no GPU: $(tail -n 1 "$OUT/$k.gpu.err"))"
    skip=$((skip + 1))
    no_gpu=1
    return
  fi
  env "${envs[@]}" "${TIMEOUT[@]}" "$BIN/$p.cpu" "${argv[@]}" >"$OUT/$k.cpu.out" 2>"$OUT/$k.cpu.err"
  local crc=$?
  t2=$(now)
  if [ $rc -ne 0 ] || [ $crc -ne 0 ]; then
    echo "FAIL $label: exit status gpu $rc, cpu $crc"
    sed 's/^/  gpu stderr: /' "$OUT/$k.gpu.err" | tail -n 5
    sed 's/^/  cpu stderr: /' "$OUT/$k.cpu.err" | tail -n 5
    fail=$((fail + 1))
    return
  fi
  local -a nd=()
  [ -n "$opts" ] && read -r -a nd <<<"$opts"
  if "$BIN/numdiff" "${nd[@]}" "$OUT/$k.cpu.out" "$OUT/$k.gpu.out" >"$OUT/$k.diff" 2>&1; then
    echo "PASS $label (gpu $(secs "$t0" "$t1") s, cpu $(secs "$t1" "$t2") s)"
    grep -h '^numdiff:' "$OUT/$k.diff" | sed 's/^/  /'
    grep -v 'warning' "$OUT/$k.gpu.err" | tail -n 2 | sed 's/^/  gpu: /'
    pass=$((pass + 1))
  else
    echo "FAIL $label: outputs differ"
    sed 's/^/  /' "$OUT/$k.diff"
    fail=$((fail + 1))
  fi
}

for p in "${PROGRAMS[@]}"; do
  while IFS= read -r c; do
    args=${c%%|*}
    opts=
    [ "$c" != "$args" ] && opts=${c#*|}
    run_case "$p" "$args" "$opts"
  done < <(cases_for "$p")
done

echo "$pass passed, $fail failed, $skip skipped"
[ "${GPU_TEST_KEEP:-0}" = 1 ] && echo "outputs kept in $OUT"
[ $fail -gt 0 ] && exit 1
[ $pass -eq 0 ] && [ $skip -gt 0 ] && exit 77
exit 0
