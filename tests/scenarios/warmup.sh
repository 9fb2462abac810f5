#!/bin/sh
# Measurement windows: jemalloc churn (16 threads, no kernel noise) with
# its default 10 ms warm-up, run for 40 ms and for 80 ms.
# - The headline, zone->lock's wait share over phase "measure", moves by
#   less than 20% between the two (or both are under 0.01% of CPU time:
#   steady state takes zone->lock rarely), while the whole run's share,
#   which the warm-up's contention dilutes, moves by more: the window is
#   what makes the figure independent of the run's length.
# - The fault rate (throughput.faults_per_s, and pcp->lock acquisitions per
#   second of the window) moves by less than 20% too.
# - The headline keys are the "measure" phase's, the warm-up and measure
#   phases add up to the whole run, and the warm-up is as long as asked.
# - Throughput: the whole run's faults are vmstat's pgfault, its objects
#   the scenario's count; the windows' faults, objects and timed
#   allocations add up to the whole run's; percentiles are ordered.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

summary() {
	csv_value "$dir/$1/summary.csv" "$2"
}

for d in 40ms 80ms; do
	"$MMSIM" --out "$dir/$d" "$MMSIM_SRCDIR/scenarios/jemalloc-churn.lua" -D cpus=16 \
		-D noise=false -D duration=$d > "$dir/$d.out" 2> "$dir/$d.err" ||
		{ cat "$dir/$d.err"; exit 1; }
	[ "$(summary $d window)" = measure ]
	[ "$(summary $d phases.warmup.start_s)" = 0 ]
	[ "$(summary $d phases.warmup.end_s)" = 0.01 ]
	for f in zone_lock.acquisitions zone_lock.contentions zone_lock.wait_ns_total \
		zone_lock.hold_ns_total throughput.faults throughput.objects alloc_latency.count; do
		[ "$(summary $d $f)" -eq "$(summary $d phases.measure.$f)" ]
		[ "$(summary $d whole_run.$f)" -eq $(($(summary $d phases.warmup.$f) + \
			$(summary $d $f))) ]
	done
	[ "$(summary $d whole_run.throughput.faults)" -eq "$(summary $d vmstat.pgfault)" ]
	[ "$(summary $d whole_run.throughput.objects)" -eq \
		"$(sed -n 's/.*: \([0-9]*\) objects,.*/\1/p' "$dir/$d.out")" ]
	[ "$(summary $d throughput.objects)" -gt 0 ] && [ "$(summary $d alloc_latency.count)" -gt 0 ]
	[ "$(summary $d alloc_latency.p50_ns)" -le "$(summary $d alloc_latency.p99_ns)" ]
	[ "$(summary $d alloc_latency.p99_ns)" -le "$(summary $d alloc_latency.p999_ns)" ]
	echo "$d: zone->lock wait share $(summary $d zone_lock.wait_share) over the window," \
		"$(summary $d whole_run.zone_lock.wait_share) over the whole run"
done

# close A B FLOOR: A and B within 20% of the larger, or both under FLOOR.
close() {
	awk -v a="$1" -v b="$2" -v floor="$3" 'BEGIN {
		m = a > b ? a : b; d = a > b ? a - b : b - a
		exit !(m < floor || d < 0.2 * m) }'
}
rate() {
	awk -v n="$(summary $1 pcp_lock.acquisitions)" -v s="$(summary $1 phases.measure.length_s)" \
		'BEGIN { print n / s }'
}
close "$(summary 40ms zone_lock.wait_share)" "$(summary 80ms zone_lock.wait_share)" 0.0001
! close "$(summary 40ms whole_run.zone_lock.wait_share)" \
	"$(summary 80ms whole_run.zone_lock.wait_share)" 0.0001
close "$(rate 40ms)" "$(rate 80ms)" 0
close "$(summary 40ms throughput.faults_per_s)" "$(summary 80ms throughput.faults_per_s)" 0
echo "ok: warm-up"
