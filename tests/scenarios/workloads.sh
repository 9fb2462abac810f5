#!/bin/sh
# The workload library end to end, through the results folder:
# - jemalloc churn with remote frees on 16 CPUs: less zone->lock contention
#   under pcp_buddy than upstream over the whole run;
# - mass exit: every page of every process comes back (to the buddy or the
#   per-CPU lists), and the invariants hold;
# - the same run twice gives byte-identical time series and kernel-format
#   files, and summaries that differ only in wall_time_s and command (the
#   first ran with --check-invariants).
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# summary VALUE: a column of a run's summary.csv
summary() {
	csv_value "$1/summary.csv" "$2"
}

for policy in upstream pcp_buddy; do
	"$MMSIM" --seed 3 --check-invariants --out "$dir/jc-$policy" \
		"$MMSIM_SRCDIR/scenarios/jemalloc-churn.lua" -D cpus=16 -D policy=$policy \
		> /dev/null 2> "$dir/err"
	grep -q '^invariants hold' "$dir/err"
done
# The whole run's: the measurement window of 16 CPUs has 0 to 2 contentions.
up=$(summary "$dir/jc-upstream" whole_run.zone_lock.contentions)
pb=$(summary "$dir/jc-pcp_buddy" whole_run.zone_lock.contentions)
up_share=$(summary "$dir/jc-upstream" whole_run.zone_lock.wait_share)
pb_share=$(summary "$dir/jc-pcp_buddy" whole_run.zone_lock.wait_share)
echo "jemalloc churn, 16 CPUs: zone->lock contentions upstream $up, pcp_buddy $pb;" \
	"wait share $up_share vs $pb_share"
awk -v a="$up" -v b="$pb" -v c="$up_share" -v d="$pb_share" \
	'BEGIN { exit !(a > 0 && b < a && d < c) }'
for f in timeseries.csv summary.json summary.csv vmstat lock_stat buddyinfo pagetypeinfo \
	zoneinfo cpu_wait.csv schedstat lock_timeseries.png cpu_wait.png; do
	test -s "$dir/jc-upstream/$f"
done

"$MMSIM" --check-invariants --out "$dir/exit" "$MMSIM_SRCDIR/tests/scenarios/mass_exit.lua" \
	> "$dir/exit.out" 2> "$dir/err"
grep -q '^invariants hold' "$dir/err"
cat "$dir/exit.out"

"$MMSIM" --seed 3 --out "$dir/again" "$MMSIM_SRCDIR/scenarios/jemalloc-churn.lua" \
	-D cpus=16 -D policy=pcp_buddy > /dev/null 2>&1
for f in timeseries.csv vmstat lock_stat buddyinfo pagetypeinfo zoneinfo cpu_wait.csv schedstat; do
	cmp "$dir/jc-pcp_buddy/$f" "$dir/again/$f"
done
grep -v '"wall_time_s"\|"command"' "$dir/jc-pcp_buddy/summary.json" > "$dir/a.json"
grep -v '"wall_time_s"\|"command"' "$dir/again/summary.json" > "$dir/b.json"
cmp "$dir/a.json" "$dir/b.json"
echo "ok: workloads"
