# --device-stack: the stubs of regions that reach a recursive function
# raise the device stack to the default (16384 bytes), to the value given,
# or leave CUDA's (0); regions without recursion do not touch it. A bad
# value is an error naming the flag.
. "$(dirname "$0")/lib.sh"
cat >rec.c <<'C'
static int down(int k);
static int up(int k) { return k <= 0 ? 0 : 1 + down(k - 1); }
static int down(int k) { return k <= 0 ? 0 : 1 + up(k - 1); }
static int twice(int k) { return 2 * k; }
void f(int n, int *a, int *b) {
#pragma acc parallel loop copyout(a[0:n])
  for (int i = 0; i < n; i++) a[i] = up(i % 50);
#pragma acc parallel loop copyout(b[0:n])
  for (int i = 0; i < n; i++) b[i] = twice(i);
}
C
run_gtcc --emit-cu rec.c
expect_rc 0 "--emit-cu rec.c"
[ "$(grep -c 'gtrt_device_stack(gt_site, 16384, "up")' rec.gt.cu)" -eq 1 ] || fail "expected one stub raising the stack for 'up'"
[ "$(grep -c 'gtrt_device_stack' rec.gt.cu)" -eq 1 ] || fail "the region without recursion raises the stack too"
grep -q '^__device__ static int down(int k);$' rec.gt.cu || fail "no prototype of 'down' before its callers"
run_gtcc --emit-cu --device-stack=65536 rec.c
expect_rc 0 "--device-stack=65536"
grep -q 'gtrt_device_stack(gt_site, 65536, "up")' rec.gt.cu || fail "--device-stack=65536 not used"
run_gtcc --emit-cu --device-stack=0 rec.c
expect_rc 0 "--device-stack=0"
! grep -q 'gtrt_device_stack' rec.gt.cu || fail "--device-stack=0 still raises the stack"
run_gtcc --emit-cu --device-stack=big rec.c
expect_rc 1 "--device-stack=big"
expect_stderr "gtcc: error: invalid --device-stack 'big'"
expect_clean_tmp
