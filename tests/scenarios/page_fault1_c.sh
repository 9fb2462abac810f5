#!/bin/sh
# mmsim.page_fault1 (its tasks in C) against the same loop written in Lua
# (tests/scenarios/page_fault1_cases.lua), as processes and as threads:
# the same loops and faults, the same lock figures of every class (as
# acquisitions/contentions/wait ns), free pages and end time.  Threads
# share one mmap_lock, so their munmaps make faults wait there.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for mode in processes threads; do
	for impl in c lua; do
		"$MMSIM" --out "$dir/out" "$MMSIM_SRCDIR/tests/scenarios/page_fault1_cases.lua" \
			-D impl=$impl -D mode=$mode > "$dir/$impl" 2> "$dir/err" || { cat "$dir/err"; exit 1; }
	done
	cat "$dir/c"
	cmp "$dir/c" "$dir/lua"
	grep -q "loops=24 faults=12288 failed=0 tasks_done=4 " "$dir/c"
done
grep -q ' mmap=[0-9]*/[1-9]' "$dir/c"
echo "ok: page_fault1 in C gives its Lua loop's figures"
