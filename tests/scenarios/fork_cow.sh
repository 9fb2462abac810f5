#!/bin/sh
# scenarios/fork-cow.lua, small: 2 workers of a 16 MiB server writing every
# tenth page (410 pages each), 4 KiB pages and 2 MiB THPs; with THPs each
# worker's writes split the 8 THP mappings it shares.  Invariants checked.
set -eu
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for thp in never always; do
	"$MMSIM" --check-invariants --out "$out/$thp" "$MMSIM_SRCDIR/scenarios/fork-cow.lua" \
		-D mib=16 -D workers=2 -D preset=test -D thp=$thp > "$out/$thp.txt" 2>&1
	grep -q 'invariants hold' "$out/$thp.txt"
	grep -q '"copies" : 820' "$out/$thp/summary.json"
done
grep -q '"thp_split_pmd" : 0' "$out/never/summary.json"
grep -q '"thp_split_pmd" : 16' "$out/always/summary.json"
