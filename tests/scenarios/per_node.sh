#!/bin/sh
# Per-node figures add up to the machine's (per_node_run.lua's run on
# test-numa): the zone->lock figures of each node's zones (summary.json's
# zone_lock.nodeN.*, timeseries.csv's zone_lock_nodeN_* columns, the wait
# shares to rounding), the NUMA
# events of each node (numa.nodeN.*, the numastat file, nodeN_vmstat)
# against vmstat.numa_*, with hits, misses, foreign and other all non-zero.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$MMSIM" --out "$dir/r" "$MMSIM_SRCDIR/tests/scenarios/per_node_run.lua" > "$dir/out" 2> "$dir/err" ||
	{ cat "$dir/err"; exit 1; }
summary() {
	csv_value "$dir/r/summary.csv" "$1"
}
[ "$(summary window)" = whole_run ]
for f in acquisitions contentions wait_ns_total hold_ns_total; do
	[ "$(summary zone_lock.$f)" -gt 0 ]
	[ "$(summary zone_lock.node0.$f)" -gt 0 ] && [ "$(summary zone_lock.node1.$f)" -gt 0 ]
	[ "$(summary zone_lock.$f)" -eq $(($(summary zone_lock.node0.$f) + \
		$(summary zone_lock.node1.$f))) ]
done
awk -v a="$(summary zone_lock.wait_share)" -v b="$(summary zone_lock.node0.wait_share)" \
	-v c="$(summary zone_lock.node1.wait_share)" 'BEGIN { d = a - b - c; exit !(d < 1e-12 && d > -1e-12) }'
# The last row of timeseries.csv: the nodes' columns add up to the machine's
# (the counts exactly, the interval's wait share to rounding).
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ last = $0 }
	END { split(last, v, ",")
		for (f in col) if (f ~ /^zone_lock_node0_/) {
			base = f; sub(/node0_/, "", base); other = f; sub(/node0/, "node1", other)
			d = v[col[f]] + v[col[other]] - v[col[base]]
			if (f ~ /share$/ ? d > 1e-12 || d < -1e-12 : d != 0) {
				print f " does not add up"; exit 1 }
			n++ }
		exit n != 4 }' "$dir/r/timeseries.csv"
for e in numa_hit numa_miss numa_foreign numa_local numa_other; do
	total=$(summary vmstat.$e)
	[ "$total" -gt 0 ] || { echo "no $e"; exit 1; }
	n0=$(summary numa.node0.$e)
	n1=$(summary numa.node1.$e)
	[ "$total" -eq $((n0 + n1)) ]
	[ "$(awk -v e=$e '$1 == e { print $2 }' "$dir/r/node0_vmstat")" -eq "$n0" ]
	[ "$(awk -v e=$e '$1 == e { print $2 }' "$dir/r/node1_vmstat")" -eq "$n1" ]
done
# Every miss was node 1's page to give: node 1 is foreign, node 0 missed.
[ "$(summary numa.node1.numa_foreign)" -eq "$(summary vmstat.numa_miss)" ]
[ "$(summary numa.node0.numa_miss)" -eq "$(summary vmstat.numa_miss)" ]
awk -v hit="$(summary numa.node1.numa_hit)" -v other="$(summary numa.node1.numa_other)" '
	NR == 1 { ok = $1 == "node0" && $2 == "node1" }
	$1 == "numa_hit" { ok = ok && $3 == hit }
	$1 == "other_node" { ok = ok && $3 == other }
	END { exit !(ok && NR == 7) }' "$dir/r/numastat"
echo "ok: per-node figures add up"
