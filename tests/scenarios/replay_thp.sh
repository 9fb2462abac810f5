#!/bin/sh
# THP advice in a replayed trace (replay_thp_run.lua on the hand-written
# tests/replay/thp-madvise.strace), worked out by hand:
# - under "madvise": the MADV_HUGEPAGE mapping's four 2 MiB blocks fault
#   THPs as they are written; the partial MADV_DONTNEED splits the first
#   one's PMD (its folio waits on the deferred split queue, 256 pages
#   mapped), the partial MADV_FREE splits the last folio (thp_split_page,
#   and its PMD); MADV_COLLAPSE makes a THP of the unadvised mapping:
#   THPs left mapped: blocks 2 and 3 and the collapsed one (6144 kB);
# - under "never": no THP faults, only the collapse, which ignores the
#   setting;
# - under "always": the unadvised mapping faults its own THP (collapse
#   then has nothing to do), the MADV_NOHUGEPAGE one none;
# - mmsim.machine{settings = F} takes the THP setting of a capture: a
#   hand-made one saying "always" gives the "always" figures, and
#   `./run capture --settings` of this host gives the host's setting.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
t=$MMSIM_SRCDIR/tests/scenarios/replay_thp_run.lua
run() { "$MMSIM" --out "$dir/out" "$t" "$@" 2> "$dir/err" || { cat "$dir/err" >&2; exit 1; }; }
expect() {     # expect SETTING LINE
	got=$(run -D thp="$1")
	echo "$1: $got"
	[ "$got" = "$2" ] || { echo "expected: $2" >&2; exit 1; }
}
madvise="thp_fault_alloc 4 thp_collapse_alloc 1 thp_split_pmd 2 thp_split_page 1 thp_deferred_split_page 1 thp_pmd 3 AnonHugePages 6144 lazyfree 64 rss 3327"
always="thp_fault_alloc 5 thp_collapse_alloc 0 thp_split_pmd 2 thp_split_page 1 thp_deferred_split_page 1 thp_pmd 3 AnonHugePages 6144 lazyfree 64 rss 3327"
expect madvise "$madvise"
expect never "thp_fault_alloc 0 thp_collapse_alloc 1 thp_split_pmd 0 thp_split_page 0 thp_deferred_split_page 0 thp_pmd 1 AnonHugePages 2048 lazyfree 64 rss 3327"
expect always "$always"

# A settings capture made by hand: the host said "always".
mkdir -p "$dir/cap/sys/kernel/mm/transparent_hugepage"
printf 'format mmsim-capture 1\nkernel test\npage_size 4096\nsettings_only yes\n' > "$dir/cap/manifest"
echo "[always] madvise never" > "$dir/cap/sys/kernel/mm/transparent_hugepage/enabled"
tar -czf "$dir/always.tar.gz" -C "$dir/cap" .
got=$(run -D settings="$dir/always.tar.gz")
echo "settings always: $got"
[ "$got" = "$always" ]

# This host's own settings, captured without root.
sh "$MMSIM_SRCDIR/sim/capture.sh" --settings "$dir/host.tar.gz" 2> /dev/null
host=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2> /dev/null || echo madvise)
printf '%s\n' "local m = mmsim.machine{ preset = \"test\", settings = \"$dir/host.tar.gz\" }" \
	'print(m:transparent_hugepage():match("hugepages%-2048kB/enabled (%a+)"))' > "$dir/host.lua"
got=$("$MMSIM" --out "$dir/out" "$dir/host.lua" 2> "$dir/err")
echo "this host: $got (sysfs $host)"
[ "$got" = "$host" ]

# Misuse: a clear message naming the script's line.
fails "'settings' must be the path of a capture" 'mmsim.machine{ preset = "test", settings = 5 }'
fails "no such capture file" 'mmsim.machine{ preset = "test", settings = "/nonexistent.tar.gz" }'
fails "'settings' cannot be given with 'snapshot'" \
	"mmsim.machine{ snapshot = \"$dir/always.tar.gz\", settings = \"$dir/always.tar.gz\" }"
fails "holds no memory to import: give it as 'settings'" \
	"mmsim.machine{ snapshot = \"$dir/always.tar.gz\" }"
echo "misuse refused"
