#!/bin/sh
# 64 processes exiting on 2 CPUs take 32 times as long as on 64 (one
# simulation per case: tests/scenarios/sched_exit.lua).  Each frees its 256
# pages to its CPU's lists, so the work per exit is the same in both cases:
# the ratio is 32 within 3% (measured 32.0; the slowest of the 64 exits is
# the last of its CPU's round robin).
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in 64 2; do
	"$MMSIM" --out "$dir/r$n" "$MMSIM_SRCDIR/tests/scenarios/sched_exit.lua" -D on_cpus=$n \
		-D out=slowest >/dev/null
done
wide=$(cat "$dir/r64/slowest")
narrow=$(cat "$dir/r2/slowest")
echo "slowest exit: $wide ns on 64 CPUs, $narrow ns on 2"
awk -v w="$wide" -v n="$narrow" 'BEGIN { r = n / w; exit !(r > 31.04 && r < 32.96) }'
