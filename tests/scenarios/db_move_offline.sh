#!/bin/sh
# scenarios/db-move-offline.lua, the cookbook's per-node example: the 2 GiB
# database (two 1 GiB THPs, 524,288 pages) sits on node 0, moves whole to
# node 1 (gb_thp_migration = whole: both 1 GiB mappings kept), and the top
# GiB of node 0, in its ZONE_MOVABLE, goes offline.  Under "block" the
# THPs stay: every page busy, nothing moved.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {        # run NAME -D ...: the scenario into $out/NAME
	name=$1
	shift
	(cd "$MMSIM_SRCDIR" && "$MMSIM" --out "$out/$name" scenarios/db-move-offline.lua "$@") \
		> "$out/$name.stdout" 2> "$out/$name.stderr"
}
figure() { csv_value "$out/$1/summary.csv" "results.$2"; }
run whole
test "$(figure whole moved_pages)" -eq 524288
test "$(figure whole gb_mappings_after)" -eq 2
test "$(figure whole offlined_mib)" -eq 1024
test "$(figure whole touched.node0.anon_mib)" -eq 2048
test "$(figure whole touched.node1.anon_mib)" -eq 0
test "$(figure whole moved.node0.anon_mib)" -eq 0
test "$(figure whole moved.node1.anon_mib)" -eq 2048
# Offlining 1 GiB of free memory takes 1024 MiB off node 0's free memory.
test $(($(figure whole moved.node0.free_mib) - $(figure whole offlined.node0.free_mib))) -eq 1024
run block -D gb_thp_migration=block
test "$(figure block moved_pages)" -eq 0
test "$(figure block moved.node0.anon_mib)" -eq 2048
echo "ok: the database moves and node 0 loses a GiB"
