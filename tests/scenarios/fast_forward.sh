#!/bin/sh
# Fast-forward (m:run{timing = false}) then a timed window: scenarios/aging.lua
# with its defaults (2 nodes of 16 GiB, 16 CPUs), aged 200 ms, then 5 ms
# timed.
# - The invariant checker passes at the switch (aging.lua runs it there)
#   and at the end (--check-invariants).
# - The 1 GiB yield at the switch (free and movable-only regions) is
#   within 10% of a fully timed run of the same seed (or one
#   region, for counts under 10).
# - So is a fast-forward with a 1 ms horizon (-D age_horizon=1ms).
# - The fast-forward waits for no lock: its phase has no contention, while
#   the timed window that follows has lock acquisitions of its own.
# - The same seed twice in fast-forward (aged 50 ms, to save time) gives
#   byte-identical outputs.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# run NAME AGE [-D ...]
run() {
	name=$1
	age=$2
	shift 2
	"$MMSIM" --check-invariants --out "$dir/$name" "$MMSIM_SRCDIR/scenarios/aging.lua" \
		-D age=$age -D duration=5ms "$@" > "$dir/$name.out" 2> "$dir/$name.err" ||
		{ cat "$dir/$name.err"; exit 1; }
	grep -q '^invariants hold' "$dir/$name.err"
}
summary() {
	csv_value "$dir/$1/summary.csv" "$2"
}

run ff 200ms
run ff1ms 200ms -D age_horizon=1ms
run timed 200ms -D age_timing=true
run short 50ms
run short2 50ms
cat "$dir/ff.out" "$dir/timed.out"

# The yield line at the switch: "aged 200ms (MODE): of N possible 1 GiB regions, F free, M movable-only"
yield() {
	sed -n 's/^aged 200ms ([a-z-]*): of [0-9]* possible 1 GiB regions, \([0-9]*\) free, \([0-9]*\) movable-only$/\1 \2/p' "$dir/$1.out"
}
set -- $(yield ff) $(yield timed)
[ $# -eq 4 ]
close() {
	awk -v a="$1" -v b="$2" 'BEGIN { m = a > b ? a : b; d = a > b ? a - b : b - a
		exit !(d <= 0.1 * m || (m < 10 && d <= 1)) }'
}
close "$1" "$3"
close "$2" "$4"
[ "$2" -gt 0 ]
# The same with a 1 ms horizon (m:run{horizon = }).
set -- $(yield ff1ms) $(yield timed)
[ $# -eq 4 ]
close "$1" "$3"
close "$2" "$4"

[ "$(summary ff phases.fast_forward.start_s)" = 0 ]
# It ends where its threads reached safepoints, at or a little after 200 ms.
awk -v e="$(summary ff phases.fast_forward.end_s)" 'BEGIN { exit !(e >= 0.2 && e < 0.21) }'
[ "$(summary ff phases.fast_forward.zone_lock.contentions)" -eq 0 ]
[ "$(summary ff phases.fast_forward.pcp_lock.contentions)" -eq 0 ]
[ "$(summary ff phases.fast_forward.zone_lock.acquisitions)" -gt 0 ]
[ "$(summary ff zone_lock.acquisitions)" -gt \
	"$(summary ff phases.fast_forward.zone_lock.acquisitions)" ]
[ "$(summary timed zone_lock.contentions)" -gt 0 ]

cmp "$dir/short.out" "$dir/short2.out"
for f in timeseries.csv vmstat lock_stat buddyinfo pagetypeinfo zoneinfo cpu_wait.csv \
	memmap.dat; do
	cmp "$dir/short/$f" "$dir/short2/$f"
done
grep -v '"wall_time_s"' "$dir/short/summary.json" > "$dir/a.json"
grep -v '"wall_time_s"' "$dir/short2/summary.json" > "$dir/b.json"
cmp "$dir/a.json" "$dir/b.json"
echo "ok: fast_forward"
