#!/bin/sh
# Build the libFuzzer targets (clang, AddressSanitizer + UBSan) out of tree
# in _build-fuzz and run each for SECONDS (default 30):
#   sh tests/fuzz/run.sh [SECONDS]
# fuzz_parse: mmsim.size, mmsim.time and -D parsing; fuzz_scenario: the
# scenario loader with the mmsim API, seeded with tests/scenarios/*.lua and
# scenarios/*.lua; fuzz_trace: the trace readers of mmsim.replay, seeded
# with pieces of the captures in data/real.  Corpora grow in _build-fuzz/corpus-*; a crash leaves
# its input as _build-fuzz/crash-* and fails the run.
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
mkdir -p corpus-parse corpus-scenario corpus-trace
printf '16K' > corpus-parse/size
printf '2.5ms' > corpus-parse/time
printf '1e400' > corpus-parse/big
cp "$top"/tests/scenarios/*.lua "$top"/scenarios/*.lua corpus-scenario/
./fuzz_parse -max_total_time="$secs" -max_len=64 corpus-parse >&2
head -40 "$top/data/real/redis-jemalloc-default.strace" > corpus-trace/strace
sed -n '300,340p' "$top/data/real/redis-jemalloc-default.strace" > corpus-trace/madvise
gzip -dc "$top/data/real/kmem-events-redis.csv.gz" | head -60 > corpus-trace/kmem
./fuzz_trace -max_total_time="$secs" -max_len=4096 corpus-trace >&2
# Fork mode: an endless loop or a big allocation an input asks for is not
# a bug; crashes and sanitizer reports still fail.  libFuzzer still ends a
# fork-mode run that met an ignored timeout with its timeout exit code
# (70), so the verdict is the crash artifacts, not that code.
rm -f crash-* leak-* timeout-* oom-*
status=0
./fuzz_scenario -fork=1 -ignore_timeouts=1 -ignore_ooms=1 -timeout=10 -rss_limit_mb=4096 \
	-max_total_time="$secs" corpus-scenario >&2 || status=$?
if ls crash-* leak-* >/dev/null 2>&1 || { [ $status -ne 0 ] && [ $status -ne 70 ]; }; then
	echo "fuzzing: fuzz_scenario failed (status $status; inputs in $build)" >&2
	exit 1
fi
echo "fuzzing: no crash in ${secs} s per target ($(ls timeout-* 2>/dev/null | wc -l) inputs timed out, ignored)"
