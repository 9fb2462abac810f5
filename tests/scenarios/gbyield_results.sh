#!/bin/sh
# Run gbyield.lua (1GB yield figures and the memory map API) and check its
# results folder: the yield columns and summary keys, and non-empty memory
# map and yield plots, the snapshot's included.
set -eu
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$MMSIM" --out "$out" "$MMSIM_SRCDIR/tests/scenarios/gbyield.lua" 2> "$out/stderr"
if grep -q 'warning' "$out/stderr"; then
	cat "$out/stderr" >&2
	exit 1
fi
yield=gb_free_now,gb_movable_only,gb_total_regions,gb_possible,spb_empty,spb_clean,spb_tainted,gigantic_pages
node0=zone_lock_node0_acquisitions,zone_lock_node0_contentions,zone_lock_node0_wait_ns,zone_lock_node0_wait_share
head -1 "$out/timeseries.csv" | grep -q ",$yield,$node0\$"

grep -q '"total_regions" : 7' "$out/summary.json"
for f in memory_map.png memory_map-before.png gb_yield.png memmap.dat memmap-before.dat; do
	test -s "$out/$f"
done
# One row per GiB of the 8 GiB machine, 512 pageblocks each.
test "$(grep -vc '^#' "$out/memmap.dat")" -eq 8
test "$(grep -v '^#' "$out/memmap.dat" | awk '{ print NF }' | sort -u)" = 512
