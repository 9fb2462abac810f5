# Helpers for the snapshot tests: . "$MMSIM_SRCDIR/tests/snapshot/compare.sh"

# section N FILE: the Nth part (from 1) of snapshot_run.lua's output.
section() {
	awk -v n="$1" '/^----$/ { part++; next } part == n - 1' "$2"
}

# block_counts: "node zone type count" per line from a pagetypeinfo on
# stdin, for the types its own header names, sorted.
block_counts() {
	awk '/^Number of blocks type/ { for (i = 5; i <= NF; i++) name[i - 4] = $i; n = NF - 4; on = 1; next }
		on && /^Node/ { sub(",", "", $2); for (i = 1; i <= n; i++) print $2, $4, name[i], $(4 + i) }
		on && !/^Node/ { on = 0 }' | sort
}

# pages_free: the sum of a zoneinfo's "pages free" lines on stdin.
pages_free() {
	awk '$1 == "pages" && $2 == "free" { s += $3 } END { print s + 0 }'
}

# compare_import CAPTURE OUT: the import of CAPTURE (snapshot_run.lua's
# output in OUT) has the capture's buddyinfo, its pagetypeinfo block counts
# for the types the capture names, and its free pages.
compare_import() {
	tar -xzOf "$1" ./proc/buddyinfo > "$2.buddyinfo"
	section 1 "$2" | diff "$2.buddyinfo" - >&2 || { echo "buddyinfo differs" >&2; return 1; }
	tar -xzOf "$1" ./proc/pagetypeinfo | block_counts > "$2.blocks"
	section 2 "$2" | block_counts > "$2.model-blocks"
	# Each captured (node, zone, type) count against the model's.
	awk 'NR == FNR { got[$1 " " $2 " " $3] = $4; next }
		{ k = $1 " " $2 " " $3; if (got[k] != $4) { print k ": model " got[k] ", captured " $4; bad = 1 } }
		END { exit bad }' "$2.model-blocks" "$2.blocks" >&2 ||
		{ echo "pagetypeinfo block counts differ" >&2; return 1; }
	zone_free=$(tar -xzOf "$1" ./proc/zoneinfo | pages_free)
	want=$zone_free
	got=$(section 3 "$2" | pages_free)
	buddy=$(awk '{ for (i = 5; i <= NF; i++) s += $i * 2 ^ (i - 5) } END { printf "%d\n", s }' "$2.buddyinfo")
	# A capture whose zoneinfo never agreed with its buddyinfo (a busy
	# host: the vmstat deltas not yet folded) is held to buddyinfo's.
	if tar -xzOf "$1" ./manifest | grep -q "^zoneinfo_consistent no"; then
		want=$buddy
	fi
	thp_want=$(tar -xzOf "$1" ./proc/meminfo | awk '/^AnonHugePages:/ { print $2 }')
	thp_got=$(sed -n 's/^thp_kb //p' "$2")
	slab_want=$(tar -xzOf "$1" ./proc/meminfo | awk '/^Slab:/ { print $2 }')
	slab_got=$(sed -n 's/^slab_kb //p' "$2")
	echo "buddyinfo identical; block counts identical; free pages $got (zoneinfo $zone_free, buddyinfo $buddy); THPs $thp_got kB (AnonHugePages $thp_want kB); slabs $slab_got kB (Slab $slab_want kB)"
	test "$got" -eq "$want" && test "$got" -eq "$buddy" ||
		{ echo "free pages differ: model $got, zoneinfo $zone_free, buddyinfo $buddy" >&2; return 1; }
}
