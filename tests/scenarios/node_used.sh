#!/bin/sh
# timeseries.csv has a nodeN_used_pages column for every node (node_used_run.lua:
# four nodes), and at the last row node 3 holds 8 pageblocks (8 x 512 pages)
# and node 2 four (4 x 512) more than at the first row, nodes 0 and 1 none.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$MMSIM" --out "$dir/r" "$MMSIM_SRCDIR/tests/scenarios/node_used_run.lua" > "$dir/out" 2> "$dir/err" ||
	{ cat "$dir/err"; exit 1; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
		for (n = 0; n < 4; n++) if (!(("node" n "_used_pages") in col)) {
			print "no node" n "_used_pages column"; exit 1 }
		if ("node4_used_pages" in col) { print "a fifth node"; exit 1 }
		next }
	NR == 2 { for (n = 0; n < 4; n++) first[n] = $col["node" n "_used_pages"] }
	{ for (n = 0; n < 4; n++) last[n] = $col["node" n "_used_pages"] }
	END { want[0] = 0; want[1] = 0; want[2] = 4 * 512; want[3] = 8 * 512
		for (n = 0; n < 4; n++) if (last[n] - first[n] != want[n]) {
			print "node " n ": " last[n] - first[n] " pages more in use, not " want[n]; exit 1 } }' \
	"$dir/r/timeseries.csv"
echo "ok: every node's pages in use"
