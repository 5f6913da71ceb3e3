# An annotated file compiles (cc + nvcc) and links; the program prints the
# same result as the plain C build (on the GPU, or on the host without one).
. "$(dirname "$0")/lib.sh"
write_saxpy saxpy.c
cc -O2 saxpy.c -o saxpy_cpu
want=$(./saxpy_cpu)
run_gtcc -O2 -v saxpy.c -o saxpy
expect_rc 0 "-O2 -v saxpy.c -o saxpy"
expect_stderr "gtcc: parse "
grep -q -- '-rdc=true' err.txt || fail "-v shows no nvcc -rdc=true command"
expect_file saxpy
got=$(./saxpy 2>/dev/null) || fail "./saxpy failed"
[ "$got" = "$want" ] || fail "./saxpy printed '$got', CPU build '$want'"
# -c gives one relocatable object that links later.
run_gtcc -c saxpy.c
expect_rc 0 "-c saxpy.c"
expect_file saxpy.o
run_gtcc saxpy.o -o saxpy2
expect_rc 0 "saxpy.o -o saxpy2"
got=$(./saxpy2 2>/dev/null) || fail "./saxpy2 failed"
[ "$got" = "$want" ] || fail "./saxpy2 printed '$got', CPU build '$want'"
[ -z "$(ls -A | grep '\.gt\.')" ] || fail "left .gt.* files without --keep: $(ls -A)"
expect_clean_tmp
