#!/bin/sh
# Snapshot import (models/snapshot.c) of synthetic captures whose flags,
# buddyinfo, pagetypeinfo and zoneinfo agree (tests/snapshot/gen_capture.py):
# the imported machine has the capture's buddyinfo, block counts and free
# pages, THPs and slabs under each policy, passes the checker, and runs work; broken
# captures end in a message naming the file and what is wrong.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
. "$MMSIM_SRCDIR/tests/snapshot/compare.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
gen() { python3 "$MMSIM_SRCDIR/tests/snapshot/gen_capture.py" "$@"; }
run() {    # run CAPTURE POLICY: snapshot_run.lua's output in $dir/out.txt
	"$MMSIM" --out "$dir/out" "$MMSIM_SRCDIR/tests/scenarios/snapshot_run.lua" \
		-D capture="$1" -D policy="$2" > "$dir/out.txt" 2> "$dir/err.txt"
}
gen 2 2 "$dir/syn.tar.gz"
for policy in upstream spb pcp_buddy; do
	run "$dir/syn.tar.gz" $policy || { cat "$dir/err.txt" >&2; exit 1; }
	result=$(compare_import "$dir/syn.tar.gz" "$dir/out.txt")
	echo "$policy: $result, $(grep gb_obtained "$dir/out.txt")"
	# Whole THPs came in as THPs (the capture's AnonHugePages).
	echo "$result" | grep -q "THPs \([1-9][0-9]*\) kB (AnonHugePages \1 kB)"
	# Every captured slab in a slab cache (the capture's Slab).
	echo "$result" | grep -q "slabs \([1-9][0-9]*\) kB (Slab \1 kB)"
	# The generator's captures leave nothing to make up: no note.
	if grep -q "snapshot:" "$dir/err.txt"; then
		grep -v "page-table pages beyond" "$dir/err.txt" | grep "snapshot:" >&2 && exit 1
	fi
	grep -q "^ran [1-9]" "$dir/out.txt"
done

# A 1 GiB hugetlb page: a gigantic page of the model, given back whole.
gen 2 1 "$dir/huge.tar.gz" --hugetlb
printf '%s\n' "local m = mmsim.machine{ snapshot = \"$dir/huge.tar.gz\", policy = \"spb\" }" \
	'assert(m:check_invariants())' 'local before = m:info().free_pages' 'm:free_gigantic(262144)' \
	'assert(m:check_invariants())' 'print("gigantic freed " .. m:info().free_pages - before)' \
	> "$dir/huge.lua"
"$MMSIM" --out "$dir/out" "$dir/huge.lua" 2> "$dir/err.txt" | grep "gigantic freed 262144" ||
	{ cat "$dir/err.txt" >&2; exit 1; }

# A busy host's capture: zoneinfo's pages free never caught up with
# buddyinfo (vmstat deltas unfolded).  Said so in the manifest, the import
# is held to buddyinfo's count; not said, the difference is a failure.
mkdir "$dir/lag"
tar -xzf "$dir/syn.tar.gz" -C "$dir/lag"
awk '$1 == "pages" && $2 == "free" && !done { $3 += 100; done = 1 } { print }' \
	"$dir/lag/proc/zoneinfo" > "$dir/zoneinfo" && mv "$dir/zoneinfo" "$dir/lag/proc/zoneinfo"
tar -czf "$dir/lag-silent.tar.gz" -C "$dir/lag" .
echo "zoneinfo_consistent no" >> "$dir/lag/manifest"
tar -czf "$dir/lag.tar.gz" -C "$dir/lag" .
run "$dir/lag.tar.gz" upstream || { cat "$dir/err.txt" >&2; exit 1; }
echo "lagging zoneinfo: $(compare_import "$dir/lag.tar.gz" "$dir/out.txt")"
! compare_import "$dir/lag-silent.tar.gz" "$dir/out.txt" > /dev/null

# A flag the model does not know: imported by the flags it knows, with a
# note giving the count and the bit.
gen 1 2 "$dir/unknown.tar.gz" --break unknown
run "$dir/unknown.tar.gz" upstream || { cat "$dir/err.txt" >&2; exit 1; }
compare_import "$dir/unknown.tar.gz" "$dir/out.txt" > /dev/null
grep "frames with flags the model does not know (bits 0x4000000000000)" "$dir/err.txt"

# Broken captures: an error naming the script's line and what is wrong.
broken() {     # broken FILE PATTERN
	if run "$1" upstream; then
		echo "no error for $1" >&2
		exit 1
	fi
	grep -q "snapshot_run.lua:5: " "$dir/err.txt" && grep -q "$2" "$dir/err.txt" ||
		{ cat "$dir/err.txt" >&2; echo "expected: $2" >&2; exit 1; }
	echo "$(basename "$1"): $(grep -o "mmsim.machine: .*" "$dir/err.txt" | head -1)"
}
for kind in truncate length layout flags; do
	gen 1 2 "$dir/$kind.tar.gz" --break $kind
done
broken "$dir/truncate.tar.gz" "kpageflags.gz: .*offset"
broken "$dir/length.tar.gz" "kpageflags.gz: truncated"
broken "$dir/layout.tar.gz" "node 1 starts at pfn"
broken "$dir/flags.tar.gz" "buddyinfo line 1"
head -c 1000 "$dir/syn.tar.gz" > "$dir/cut.tar.gz"
broken "$dir/cut.tar.gz" "not a capture"
echo "not a tar" > "$dir/text.tar.gz"
broken "$dir/text.tar.gz" "not a capture"
broken "$dir/none.tar.gz" "no such capture file"
printf '%s\n' 'mmsim.machine{ snapshot = 5 }' > "$dir/type.lua"
! "$MMSIM" --out "$dir/out" "$dir/type.lua" 2> "$dir/err.txt" > /dev/null
grep -q "type.lua:1: mmsim.machine: 'snapshot' must be the path" "$dir/err.txt"
printf '%s\n' "mmsim.machine{ snapshot = \"$dir/syn.tar.gz\", preset = \"test\" }" > "$dir/preset.lua"
! "$MMSIM" --out "$dir/out" "$dir/preset.lua" 2> "$dir/err.txt" > /dev/null
grep -q "preset.lua:1: .*'preset' cannot be given with it" "$dir/err.txt"
echo "type and preset refused"

# scenarios/snapshot.lua on the synthetic capture: the imported machine's
# 1 GiB pages in results.imported.*, then it ages and runs to its end.
(cd "$MMSIM_SRCDIR" && "$MMSIM" --out "$dir/scenario" scenarios/snapshot.lua \
	-D capture="$dir/syn.tar.gz" -D age=2ms) > "$dir/scenario.txt" 2>&1 ||
	{ cat "$dir/scenario.txt" >&2; exit 1; }
grep "^imported\|^aged" "$dir/scenario.txt"
test "$(csv_value "$dir/scenario/summary.csv" results.imported.gb_possible)" -ge 1
test -s "$dir/scenario/memory_map-imported.png"
