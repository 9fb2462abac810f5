#!/bin/sh
# A benchmark run without a program it needs stops with a message naming
# it, not with figures of a run that did not happen (bench_page_fault1.sh
# once printed "inf times the native rate" without page_fault1_native).
set -u
src=${MMSIM_SRCDIR:-.}
out=$(MMSIM_SRCDIR="$src" MMSIM=${MMSIM:-./mmsim} PF1_NATIVE=/nonexistent/page_fault1_native \
	sh "$src/tests/bench/bench_page_fault1.sh" 2>&1)
rc=$?
[ $rc -ne 0 ] || { echo "FAIL: bench_page_fault1.sh exited 0 without its native program"; exit 1; }
case $out in
*"/nonexistent/page_fault1_native is not built"*) ;;
*) echo "FAIL: no message naming the missing program: $out"; exit 1 ;;
esac
case $out in
*"times the native rate"*) echo "FAIL: figures printed: $out"; exit 1 ;;
esac
for f in "$src"/tests/bench/bench_*.sh; do
	out=$(MMSIM_SRCDIR="$src" MMSIM=/nonexistent/mmsim sh "$f" 2>&1) &&
		{ echo "FAIL: $f ran without mmsim"; exit 1; }
	case $out in
	*"/nonexistent/mmsim is not built"*) ;;
	*) echo "FAIL: $f: $out"; exit 1 ;;
	esac
done
echo "ok: the benchmarks stop on a program not built"
