#!/usr/bin/env bash
# Runtime fault tests: each fault_X.gpu must exit 1 with a located message.
#   run_fault_tests.sh DIR      (DIR holds fault_*.gpu: build/tests/gpu or a copy)
# Exit 77 when there is no GPU (the runtime's GTRT_REQUIRE_DEVICE=1 skip).
dir=${1:?usage: run_fault_tests.sh DIR}
pass=0 fail=0 skip=0
check() { # name pattern
  local name=$1 pattern=$2 out rc
  out=$(cd "$dir" && GTRT_REQUIRE_DEVICE=1 timeout 120 "./fault_$name.gpu" 2>&1)
  rc=$?
  if [ $rc -eq 77 ]; then skip=$((skip + 1)); echo "SKIP $name (no GPU)"; return; fi
  if [ $rc -eq 1 ] && echo "$out" | grep -Eq "$pattern"; then
    pass=$((pass + 1)); echo "PASS $name: $(echo "$out" | grep -E "$pattern" | head -1)"
  else
    fail=$((fail + 1)); echo "FAIL $name (exit $rc): expected /$pattern/"; echo "$out" | head -5
  fi
}
check oom '(^|/)oom\.c:[0-9]+: error: .*[0-9]+ bytes'
check not_present "(^|/)not_present\.c:[0-9]+: error: .*'y'.*not present"
check kernel_fault "(^|/)kernel_fault\.c:[0-9]+: error: CUDA error in 'acc parallel loop'"
check task_stuck "(^|/)task_stuck\.c:[0-9]+: error: the task megakernel .* made no progress for 2 s"
check deep_recursion "(^|/)deep_recursion\.c:[0-9]+: error: CUDA error in 'acc parallel loop'.*recursive function 'ack'.*--device-stack"
check host_data_absent "(^|/)host_data_absent\.c:[0-9]+: error: 'w' is not present.*'acc host_data'"
check default_present_absent "(^|/)default_present_absent\.c:[0-9]+: error: .*'y'.*not present"
check task_overflow "(^|/)task_overflow\.c:[0-9]+: error: task queue overflow .*GTRT_TASK_QUEUE_CAPACITY"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -gt 0 ] && exit 1
[ $pass -eq 0 ] && [ $skip -gt 0 ] && exit 77
exit 0
