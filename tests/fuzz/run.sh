#!/bin/sh
# Build the libFuzzer targets (clang, AddressSanitizer + UBSan) out of tree
# in _build-fuzz and run each for SECONDS (default 30):
#   sh tests/fuzz/run.sh [SECONDS]
# fuzz_parse: mmsim.size, mmsim.time and -D parsing; fuzz_scenario: the
# scenario loader with the mmsim API; fuzz_trace: the trace readers of
# mmsim.replay.  The corpus kept in the repo, tests/fuzz/corpus/TARGET
# (seeds and every input a crash or a hang was once found with), runs
# first, each input once; then each target fuzzs from it, the scenario
# target also from tests/scenarios/*.lua and scenarios/*.lua.  New inputs
# go to _build-fuzz/corpus-TARGET (copy the telling ones into the repo's
# corpus).  A crash, a sanitizer report or a timeout leaves its input as
# _build-fuzz/crash-*, timeout-* and fails the run: a script's endless Lua
# loop is stopped by the harness's SIGINT (as a user would), so an input
# that still times out is a C loop that ignores the signal, a finding.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-30}
build=$top/_build-fuzz
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
mkdir -p "$build"
cd "$build"
if [ ! -f Makefile ]; then
	"$top/configure" -q CC=clang CFLAGS="-g -O1 -fsanitize=fuzzer-no-link $san"
fi
make -s -j2 libmodels.a libsim.a libmmsim.a >&2
libs="libmmsim.a libsim.a libmodels.a $(pkg-config --libs simgrid json-glib-1.0 glib-2.0 lua5.4 zlib) -lm"
cflags="-I$top $(pkg-config --cflags glib-2.0 lua5.4 zlib)"
for t in fuzz_parse fuzz_scenario fuzz_trace; do
	# shellcheck disable=SC2086
	clang -g -O1 -fsanitize=fuzzer $san $cflags -o $t "$top/tests/fuzz/$t.c" $libs
done
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
corpus=$top/tests/fuzz/corpus
rm -f crash-* leak-* timeout-* oom-*
# The repo's corpus first, each input once: what once failed stays fixed.
./fuzz_parse -runs=0 "$corpus/parse" >&2
./fuzz_trace -runs=0 "$corpus/trace" >&2
./fuzz_scenario -timeout=60 -rss_limit_mb=4096 -runs=0 "$corpus/scenario" >&2
mkdir -p corpus-parse corpus-scenario corpus-trace seeds-scenario
cp "$top"/tests/scenarios/*.lua "$top"/scenarios/*.lua seeds-scenario/
./fuzz_parse -max_total_time="$secs" -max_len=64 corpus-parse "$corpus/parse" >&2
./fuzz_trace -max_total_time="$secs" -max_len=4096 corpus-trace "$corpus/trace" >&2
# Fork mode: a big allocation an input asks for is not a bug; crashes,
# sanitizer reports and timeouts are.
status=0
./fuzz_scenario -fork=1 -ignore_ooms=1 -timeout=30 -rss_limit_mb=4096 \
	-max_total_time="$secs" corpus-scenario "$corpus/scenario" seeds-scenario >&2 || status=$?
if ls crash-* leak-* timeout-* >/dev/null 2>&1 || [ $status -ne 0 ]; then
	echo "fuzzing: fuzz_scenario failed (status $status; inputs in $build:" \
		"$(ls crash-* leak-* timeout-* 2>/dev/null | tr '\n' ' '))" >&2
	exit 1
fi
echo "fuzzing: no crash and no timeout in ${secs} s per target"
