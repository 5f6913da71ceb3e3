# --help lists every option and exits 0.
. "$(dirname "$0")/lib.sh"
run_gtcc --help
expect_rc 0 --help
grep -q '^usage: gtcc' out.txt || fail "no usage line on stdout"
for flag in -o -c -I -D -U -O0 -O3 -g -std= -l -L -Wl, -W --cuda-arch=sm_XX sm_90 \
            --emit-cu --keep --dump-after=PASS parse lower emit --cdp=MODE \
            --cdp-threshold=N -v --help --version GTCC_RUNTIME_DIR; do
  grep -qF -- "$flag" out.txt || fail "--help does not mention $flag"
done
[ ! -s err.txt ] || fail "--help wrote to stderr"
