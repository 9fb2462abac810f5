#!/bin/sh
# page_owner = true: page_owner_run.lua's hand-worked ages, then the results
# folder's page_owner_ages at the end of that run (4 ms): the 9 unmovable
# pages of 3 and 2 ms before, and 4 more 1 ms old (the page tables of the
# process that touched one page then: PGD, PUD, PMD and PTE table, order
# 0), the process's one movable page as old (move_pages kept its time).
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$MMSIM" --out "$dir/r" "$MMSIM_SRCDIR/tests/scenarios/page_owner_run.lua" > "$dir/out" \
	2> "$dir/err" || { cat "$dir/err"; exit 1; }
cat "$dir/out"
f=$dir/r/page_owner_ages
grep -q '^# type pages unrecorded mean p10 p50 p90 max$' "$f"
awk '$1 == "Unmovable" && $2 == 13 && $3 == 0 { u = 1 }
	$1 == "Movable" && $2 == 1 && $3 == 0 { mv = 1 }
	$1 == 512 && $2 == 1024 && $3 == 4 && $4 == 1 { young = 1 }
	$1 == 2048 && $2 == 4096 && $3 == 9 && $4 == 0 { old = 1 }
	END { exit !(u && mv && young && old) }' "$f" || { cat "$f"; exit 1; }
echo "ok: page_owner"
