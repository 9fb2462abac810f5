#!/bin/sh
# Shares are bounded by construction: jemalloc churn at 128 CPUs under spb,
# where nearly every thread waits for zone->lock for milliseconds at a
# time.  Waits in progress when the warm-up ends, or at a sample, count
# only their part inside the window or the interval: every wait share of
# the summary (window, whole run, phases, nodes) and of each
# timeseries.csv row is at most 1, the scenario's printed share at most
# 100%.  (Counting each wait whole when it ended gave 110.83% for the
# window and up to 798% for an interval.)  The nodes' shares add up to
# the machine's, for the window as for each interval.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$MMSIM" --out "$dir/run" "$MMSIM_SRCDIR/scenarios/jemalloc-churn.lua" -D cpus=128 \
	-D policy=spb > "$dir/out" 2> "$dir/err" || { cat "$dir/err"; exit 1; }
cat "$dir/out"

# Every column of FILE whose name ends in wait_share, in every row, is in
# [0, 1]; prints how many values and the largest.
bounded() {
	awk "$csv_fields"'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /wait_share$/) c[i] = $i; next }
		{ for (i in c) { n++; if ($i > max) max = $i
			if ($i < 0 || $i > 1) { print c[i] " = " $i " in row " NR - 1; bad = 1 } } }
		END { print n " shares, at most " max; exit bad }' "$1"
}
bounded "$dir/run/summary.csv"
bounded "$dir/run/timeseries.csv"

summary() {
	csv_value "$dir/run/summary.csv" "$1"
}
# The case is the one that overflowed: most of the threads' time waiting.
[ "$(summary window)" = measure ]
awk -v s="$(summary zone_lock.wait_share)" 'BEGIN { exit !(s > 0.5) }'
# The scenario's line (m:lock_stats{since = "measure"}) is the summary's window.
printed=$(sed -n 's/.* \([0-9.]*\)% of CPU time waiting/\1/p' "$dir/out")
[ "$printed" = "$(awk -v s="$(summary zone_lock.wait_share)" 'BEGIN { printf "%.2f", 100 * s }')" ]

# near A B: equal to 1e-9.
near() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-9 && d > -1e-9) }'
}
near "$(summary zone_lock.wait_share)" \
	"$(awk -v a="$(summary zone_lock.node0.wait_share)" \
		-v b="$(summary zone_lock.node1.wait_share)" 'BEGIN { printf "%.17g", a + b }')"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ d = $c["zone_lock_wait_share"] - $c["zone_lock_node0_wait_share"] - \
		$c["zone_lock_node1_wait_share"]
	  if (d > 1e-9 || d < -1e-9) { print "row " NR - 1 ": nodes do not add up"; exit 1 } }' \
	"$dir/run/timeseries.csv"
echo "ok: shares"
