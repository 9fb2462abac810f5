#!/bin/sh
# `make bench`: page_fault1 through the full simulated path (one task,
# 128 MiB, tests/bench/page_fault1.lua) against the host kernel doing the
# same loop natively on one core (tests/bench/page_fault1_native), in the
# same run: faults per CPU second of each and their ratio.  The issue's
# goal: the simulator at 5 times the native rate or more.
set -eu
mmsim=${MMSIM:-./mmsim}
src=${MMSIM_SRCDIR:-.}
native=${PF1_NATIVE:-./tests/bench/page_fault1_native}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "page_fault1 benchmark (128 MiB: map, write each page, unmap; one task)"
# The rate is the third field from the end of each line: "... N M faults/s".
rate() { awk '{ print $(NF - 2) }' "$1"; }
"$native" 2 | tee "$dir/native"
for mode in processes threads; do
	"$mmsim" --out "$dir/$mode" "$src/tests/bench/page_fault1.lua" -D mode=$mode \
		2> /dev/null | tee "$dir/$mode.out"
	awk -v s="$(rate "$dir/$mode.out")" -v n="$(rate "$dir/native")" -v mode=$mode \
		'BEGIN { printf "%s: %.2f times the native rate\n", mode, s / n }'
done
