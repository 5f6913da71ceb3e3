#!/usr/bin/env bash
# compute-sanitizer (memcheck, racecheck, synccheck) over the GPU test programs at
# small sizes: run_sanitizer.sh [BUILD/tests/gpu]. racecheck and synccheck do not
# support dynamic parallelism, so they fail (rc 99, "not supported by the selected
# tool") on the tail/cta/warp CollectiveDP modes, which launch kernels from the
# device; memcheck covers those.
dir=${1:-$(dirname "$0")}
cd "$dir" || exit 2
cases=(
  "saxpy 1000" "saxpy 0" "stencil2d 130 67 3" "stencil2d 2 7 2" "dot 1000" "data_reuse 1000" "spmv 2000" "spmv data/bcsstk13.mtx"
  "spmv_omp 2000" "bfs 2000 2"
  "nested_spmv_host powerlaw 20000" "nested_spmv_tail powerlaw 20000" "nested_spmv_cta powerlaw 20000" "nested_spmv_warp powerlaw 20000"
  "nested_spmv_host giant1 40000" "nested_spmv_host allabove 40"
  "acc_enter_exit" "collapse3" "construct_forms" "gangs_vector" "global_2d" "helper_call" "if_clause" "omp_target_data" "private_clauses" "reductions"
  "wavefront 60 70" "wavefront_tile_off 40 50" "wavefront_worker_thread 40 50" "wavefront_queue_block 40 50"
  "task_sw 40 50" "task_gauss_seidel 30 40 2" "task_prefix_chain 1000" "task_tile_tasks 3 4 16" "task_flat_index 30 20"
  "task_random_dag 2 500" "task_wave3d 9 10 11" "task_skewed 20 30"
  "nested_stages 20000" "nested_stages GTRT_CDP_CAPACITY=3 20000" "nested_stages GTRT_CDP_CAPACITY=0 20000" "nested_scoped 20000"
  "nested_guarded 20000" "nested_outer_reduction 20000" "nested_before_storage 20000" "nested_collapse 4 30000"
  "nested_fn_pointer 20000" "nested_edge_forms" "nested_before_forms 4000" "nested_c89_index 20000"
  "nested_name_forms 20000" "nested_pointee_address 20000" "nested_qualified_pointer 30000")
# The phased task programs, when they were built (-DGTCC_PHASE_PROGRAMS=ON).
if [ -e heat.gpu ]; then
  cases+=("heat taskwait 3000 100 3" "heat depend 3000 100 3" "jacobi_tasks stages 2000 64 3"
    "jacobi_tasks checkpoints 2000 64 5 2" "phase_swap 1000 64 3" "phase_swap_depend 1000 64 3"
    "phase_empty_phase 1000 64 3" "phase_multi_type 1000 64 3" "phase_taskgroup 1000 64 3" "phase_nest2 3 4 8 3 2"
    "phase_runtime_trip 1000 64 8")
fi
# A case is PROGRAM [VAR=VALUE...] [ARGS...]: the VAR=VALUE words are the run's environment.
# SANITIZER_ONLY="prog ..." limits the run to the cases of those programs.
if [ -n "${SANITIZER_ONLY:-}" ]; then
  kept=()
  for c in "${cases[@]}"; do
    case " $SANITIZER_ONLY " in *" ${c%% *} "*) kept+=("$c") ;; esac
  done
  cases=("${kept[@]}")
fi
pass=0; fail=0
for tool in memcheck racecheck synccheck; do
  for c in "${cases[@]}"; do
    set -- $c; prog=$1; shift
    envs=()
    while [ $# -gt 0 ] && [[ $1 == *=* ]]; do envs+=("$1"); shift; done
    out=$(env "${envs[@]}" GTRT_REQUIRE_DEVICE=1 timeout 300 compute-sanitizer --tool $tool --error-exitcode 99 ./$prog.gpu "$@" 2>&1 | grep "^========="; exit ${PIPESTATUS[0]})
    rc=$?
    summary=$(echo "$out" | grep -E "ERROR SUMMARY|RACECHECK SUMMARY" | tail -1)
    if [ $rc -eq 0 ]; then pass=$((pass+1)); echo "ok   $tool $c: $summary"; else fail=$((fail+1)); echo "FAIL $tool $c (rc $rc): $summary"; echo "$out" | head -20; fi
  done
done
echo "$pass passed, $fail failed"
