#!/bin/sh
# Superpageblocks end to end:
# - after the same aging run, spb keeps more 1 GiB regions free or
#   movable-only than upstream;
# - kvmalloc's contiguous attempts taint clean superpageblocks at the tip,
#   and never with kvmalloc_noretry;
# - memory hotplug grows a node under spb, and hot-remove shrinks it;
# - the invariant checker passes at the end of every run;
# - an spb run's results folder holds the debugfs superpageblocks file and
#   the spb_walk file of its superpageblock walks.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

summary() {
	csv_value "$1/summary.csv" "$2"
}

run() {
	out=$1
	shift
	"$MMSIM" --seed 5 --check-invariants --out "$dir/$out" "$@" > "$dir/$out.txt" 2> "$dir/err"
	grep -q '^invariants hold' "$dir/err" || { cat "$dir/err"; exit 1; }
}

for policy in upstream spb; do
	run aging-$policy "$MMSIM_SRCDIR/scenarios/aging.lua" -D policy=$policy -D duration=150ms
done
up=$(summary "$dir/aging-upstream" gb_yield.movable_only)
spb=$(summary "$dir/aging-spb" gb_yield.movable_only)
echo "aging: 1 GiB regions free or movable-only: upstream $up, spb $spb"
[ "$spb" -gt "$up" ]
test -s "$dir/aging-spb/gb_yield.png"
test -s "$dir/aging-spb/memory_map-third.png"
test -s "$dir/aging-spb/memory_map-end.png"
# The results folder of an spb run holds the debugfs superpageblocks file,
# whose empty/clean/tainted counts are the summary's; upstream's none.
test ! -e "$dir/aging-upstream/superpageblocks"
grep -q '^Node 0, zone *Normal: [0-9]* superpageblocks, base_pfn=0x' "$dir/aging-spb/superpageblocks"
[ "$(awk '$1 == "empty:" { n += $2 } END { print n + 0 }' "$dir/aging-spb/superpageblocks")" -eq \
	"$(summary "$dir/aging-spb" gb_yield.spb_empty)" ]

# Its spb_walk file and spb_walk.* figures count every zone->lock section
# (every zone has superpageblocks), whose walks read superpageblocks; the
# file's sites agree with the summary's; upstream has neither.
test ! -e "$dir/aging-upstream/spb_walk"
if head -n 1 "$dir/aging-upstream/summary.csv" | grep -q 'spb_walk\.'; then exit 1; fi
[ "$(summary "$dir/aging-spb" spb_walk.sections)" -eq \
	"$(summary "$dir/aging-spb" zone_lock.acquisitions)" ]
[ "$(summary "$dir/aging-spb" spb_walk.pass1.sections)" -gt 0 ]
[ "$(awk '$1 == "rmqueue_bulk" && NF == 6 { print $2 }' "$dir/aging-spb/spb_walk")" -eq \
	"$(summary "$dir/aging-spb" spb_walk.rmqueue_bulk.sections)" ]
grep -q '^@visits\[rmqueue_bulk, pass1\]:$' "$dir/aging-spb/spb_walk"

for noretry in false true; do
	run kv-$noretry "$MMSIM_SRCDIR/scenarios/kvmalloc-taint.lua" -D kvmalloc_noretry=$noretry
done
tip=$(summary "$dir/kv-false" results.kvmalloc.tainted_by_kmalloc)
noretry=$(summary "$dir/kv-true" results.kvmalloc.tainted_by_kmalloc)
echo "kvmalloc: clean superpageblocks tainted by the kmalloc attempt: tip $tip, noretry $noretry"
[ "$tip" -gt 0 ] && [ "$noretry" -eq 0 ]

run hotplug "$MMSIM_SRCDIR/scenarios/hotplug.lua" -D policy=spb -D offline_blocks=0
# What the machine says, not what the script added up: it booted with 2
# nodes of 6 GiB, 3145728 pages, less the boot reservations: the first MiB
# (256 pages), the kernel image (7640) and per node 48 sections of memmap
# (24576) and 4 CPUs' per-CPU areas (224), 57496 pages; 4 blocks of 2 GiB
# (524288 pages each) onlined make 5242880 - 57496 managed pages and
# 20480 MiB, and node 0's Normal zone, 4-6 GiB, now 4-14 GiB, spans 10
# superpageblocks, not 2.
[ "$(summary "$dir/hotplug" memory.managed_pages)" -eq $((5242880 - 57496)) ]
[ "$(summary "$dir/hotplug" machine.memory_mib)" -eq 20480 ]
grep -q '^Node 0, zone   Normal: 2 superpageblocks' "$dir/hotplug.txt"
grep -q '^Node 0, zone   Normal: 10 superpageblocks' "$dir/hotplug.txt"
# Then offlined under load (the scenario's default): each 2 GiB block that
# goes takes its pages and 2 superpageblocks with it, and the invariant
# checker (superpageblock counters and lists included) passes at the end.
run offline "$MMSIM_SRCDIR/scenarios/hotplug.lua" -D policy=spb
ok=$(summary "$dir/offline" results.hotplug.offline.ok)
[ "$ok" -ge 1 ]
[ "$(summary "$dir/offline" memory.managed_pages)" -eq $((5242880 - 57496 - ok * 524288)) ]
grep -q "^Node 0, zone   Normal: $((10 - 2 * ok)) superpageblocks" "$dir/offline.txt"
echo "ok: superpageblocks"
