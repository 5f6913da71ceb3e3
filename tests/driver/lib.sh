# Shared helpers for the driver tests. Each test_*.sh is run as
#   bash test_X.sh /path/to/gtcc /path/to/scratch-dir
# starts in a fresh, empty scratch directory, and fails with a message.
set -u
GTCC=${1:?usage: test.sh GTCC SCRATCH}
SCRATCH=${2:?usage: test.sh GTCC SCRATCH}
case $GTCC in /*) ;; *) GTCC=$PWD/$GTCC ;; esac
rm -rf "$SCRATCH"
mkdir -p "$SCRATCH/tmp"
cd "$SCRATCH" || exit 1
# gtcc's work directories go here, so leftovers can be checked.
export TMPDIR=$SCRATCH/tmp

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# run_gtcc ARGS...: runs gtcc, leaving its status in $rc, stdout in out.txt,
# stderr in err.txt.
run_gtcc() {
  set +e
  "$GTCC" "$@" >out.txt 2>err.txt
  rc=$?
  set -e
}

expect_rc() {
  [ "$rc" -eq "$1" ] || { cat err.txt >&2; fail "exit status $rc, expected $1 (gtcc $2)"; }
}

expect_stderr() {
  grep -qF -- "$1" err.txt || { cat err.txt >&2; fail "stderr lacks: $1"; }
}

expect_file() {
  [ -s "$1" ] || fail "missing or empty: $1"
}

expect_no_file() {
  [ ! -e "$1" ] || fail "should not exist: $1"
}

# No temporary work directory or pending output may survive a run.
expect_clean_tmp() {
  local left
  left=$(ls -A "$TMPDIR")
  [ -z "$left" ] || fail "left in TMPDIR: $left"
  left=$(find . -name '.*.gtcc*.tmp')
  [ -z "$left" ] || fail "pending outputs left: $left"
}

write_hello() {
  cat >hello.c <<'C'
#include <stdio.h>
int main(void) {
  printf("hello %d\n", 6 * 7);
  return 0;
}
C
}

# A tiny annotated file (OpenACC saxpy) whose output is known.
write_saxpy() {
  cat >"${1:-saxpy.c}" <<'C'
#include <stdio.h>

static void saxpy(int n, float a, const float *x, float *y) {
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int main(void) {
  enum { N = 1000 };
  static float x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  saxpy(N, 2.0f, x, y);
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += y[i];
  printf("saxpy sum %.1f\n", sum);
  return 0;
}
C
}
# same_as_cpu_build SRC...: gtcc and cc build SRC... into app and app_cpu;
# ./app (the host fallback where there is no GPU) must print what ./app_cpu prints.
same_as_cpu_build() {
  run_gtcc "$@" -o app
  expect_rc 0 "$* -o app"
  cc "$@" -o app_cpu
  want=$(./app_cpu)
  got=$(./app 2>/dev/null)
  [ "$got" = "$want" ] || fail "./app printed '$got', the CPU build '$want'"
}
set -e
