#!/bin/sh
# `make bench`: page_fault1 through the full simulated path (one task,
# 128 MiB, tests/bench/page_fault1.lua) against the host kernel doing the
# same loop natively on one core (tests/bench/page_fault1_native), in the
# same run: faults per CPU second of each and their ratio.  The issue's
# goal: the simulator at 5 times the native rate or more.
#
# The host's load moves single runs by tens of percent: each side runs
# ROUNDS times (3 unless PF1_ROUNDS says), interleaved (native, processes,
# threads, native, ...), for about a second of CPU each (64 loops of the
# simulated side, 1 s of the native), and the ratio quoted is the median
# of each round's simulated rate over that round's native rate.
set -eu
mmsim=${MMSIM:-./mmsim}
src=${MMSIM_SRCDIR:-.}
native=${PF1_NATIVE:-./tests/bench/page_fault1_native}
rounds=${PF1_ROUNDS:-3}
loops=${PF1_LOOPS:-64}
. "$src/tests/bench/need.sh"
need "$mmsim" "$native"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "page_fault1 benchmark (128 MiB: map, write each page, unmap; one task;" \
	"$rounds rounds, $loops loops)"
# The rate is the third field from the end of each line: "... N M faults/s".
rate() { awk '{ print $(NF - 2) }' "$1"; }
for r in $(seq "$rounds"); do
	"$native" 1 | tee "$dir/native"
	for mode in processes threads; do
		"$mmsim" --out "$dir/$mode" "$src/tests/bench/page_fault1.lua" -D mode=$mode \
			-D loops="$loops" 2> /dev/null | grep '^simulated' | tee "$dir/$mode.out"
		awk -v s="$(rate "$dir/$mode.out")" -v n="$(rate "$dir/native")" \
			'BEGIN { printf "%.3f\n", s / n }' >> "$dir/$mode.ratios"
	done
done
for mode in processes threads; do
	sort -n "$dir/$mode.ratios" | awk -v mode=$mode '{ r[NR] = $1 }
		END { printf "%s: %.2f times the native rate (median of %d rounds; %.2f-%.2f)\n",
			mode, r[int((NR + 1) / 2)], NR, r[1], r[NR] }'
done
