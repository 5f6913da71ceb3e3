# --emit-cu on an annotated file writes X.gt.cu and X.gt.c next to it (or
# into the directory -o names) and runs no toolchain.
. "$(dirname "$0")/lib.sh"
mkdir src out
write_saxpy src/saxpy.c
run_gtcc --emit-cu src/saxpy.c
expect_rc 0 "--emit-cu src/saxpy.c"
expect_file src/saxpy.gt.cu
expect_file src/saxpy.gt.c
grep -q '__global__' src/saxpy.gt.cu || fail "saxpy.gt.cu has no __global__ kernel"
grep -q 'extern "C"' src/saxpy.gt.cu || fail "saxpy.gt.cu has no extern \"C\" launch stub"
grep -q '#pragma acc' src/saxpy.gt.c && fail "saxpy.gt.c still has the acc pragma"
grep -q 'gtrt' src/saxpy.gt.c || fail "saxpy.gt.c does not call the runtime"
expect_no_file saxpy.gt.cu
expect_no_file a.out
run_gtcc --emit-cu src/saxpy.c -o out
expect_rc 0 "--emit-cu src/saxpy.c -o out"
expect_file out/saxpy.gt.cu
expect_file out/saxpy.gt.c
expect_clean_tmp
