#!/bin/sh
# ./run validate's reading of the kernel's files (validate/lib.sh) on
# /proc and /sys files captured on a 2-CPU, 24 GiB machine around a mass
# exit of 16 processes with THPs (tests/validate/before, after): the
# deltas worked out by hand from the files, a table row's background and
# ratio, and a line it cannot read.
set -eu
src=${MMSIM_SRCDIR:-.}
. "$src/validate/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

for w in before after; do
	snapshot "$src/tests/validate/$w" "$dir/$w"
	flatten "$dir/$w" "$dir/$w.flat" || fail "flatten $w"
done
delta "$dir/before.flat" "$dir/after.flat" > "$dir/real.delta"
want() {
	got=$(awk -v k="$2" '$1 == k { print $2 }' "$1")
	[ "$got" = "$3" ] || fail "$2 in ${1##*/}: got '$got', want $3"
}
# vmstat: 356728993 - 356650235.
want "$dir/real.delta" pgfree 78758
# pgalloc_dma + dma32 + normal + movable + device: only normal moved,
# 338415292 - 338402416.
want "$dir/before.flat" pgalloc_all 350175475
want "$dir/real.delta" pgalloc_all 12876
# buddyinfo, the zones summed: order 0 (0 + 17 + 5091) - (0 + 17 + 3805);
# order 9 (1 + 18 + 777) - (1 + 18 + 650).
want "$dir/real.delta" buddyinfo.order_0 1286
want "$dir/real.delta" buddyinfo.order_9 127
want "$dir/after.flat" buddyinfo.order_10 4732
# pagetypeinfo's block counts: 7 + 1520 + 10602 Movable, unchanged.
want "$dir/after.flat" pageblocks.Movable 12129
want "$dir/real.delta" pageblocks.Movable 0
# zoneinfo: the pagesets' counts (40 + 15 + 28483 + 24740 after, 40 + 15 +
# 31351 + 25983 before) and the zones' free pages (3840 + 772759 +
# 5081682 after, 3840 + 772759 + 5011645 before).
want "$dir/after.flat" pcp.count 53278
want "$dir/real.delta" pcp.count -4111
want "$dir/real.delta" zoneinfo.free_pages 70037
want "$dir/real.delta" meminfo.AnonHugePages -262144
# /sys: the THP tree folded, 128 THPs mapped before and none after.
want "$dir/real.delta" thp.hugepages-2048kB/stats/nr_anon -128
want "$dir/after.flat" hugetlb.hugepages-2048kB/nr_hugepages 0
# slabinfo: num_slabs x pagesperslab; dentry 215 - 201, task_struct
# (33 - 28) x 8, all four caches (2258 x 4 + 215 + 264 + 33) - (2258 x 4 +
# 201 + 224 + 33).
want "$dir/real.delta" slab.dentry.pages 14
want "$dir/real.delta" slab.task_struct.pages 40
want "$dir/real.delta" slab.total_pages 54

# A row: the background is the idle delta (1000 pages in 0.5 s) over the
# window (0.25 s): 500; the ratio 65712 / (78758 - 500) = 0.8397.
c=$dir/case
for s in idle0 idle1 before after; do mkdir -p "$c/$s"; done
echo 100.0 > "$c/idle0/time"; echo 100.5 > "$c/idle1/time"
echo 101.0 > "$c/before/time"; echo 101.25 > "$c/after/time"
cp "$dir/real.delta" "$dir/after.flat" "$c/"
printf 'pgfree 1000\n' > "$c/idle.delta"
printf 'pgfree 65712\nthp.hugepages-2048kB/stats/nr_anon -128\n' > "$c/model.delta"
printf 'pcp.count 18494\n' > "$c/model-after.flat"
tab=$(printf '\t')
row() { table_row x "$c" "$1" "$2" "note"; }
[ "$(row pgfree d)" = "x${tab}pgfree${tab}78758${tab}500${tab}65712${tab}0.84${tab}note" ] ||
	fail "pgfree row: $(row pgfree d)"
# A count that falls in both: a ratio of like signs.
[ "$(row thp.hugepages-2048kB/stats/nr_anon d | cut -f3-6)" = "-128${tab}0${tab}-128${tab}1.00" ] ||
	fail "nr_anon row: $(row thp.hugepages-2048kB/stats/nr_anon d)"
# A level: the value after, no background.
[ "$(row pcp.count a | cut -f3-6)" = "53278${tab}-${tab}18494${tab}0.35" ] ||
	fail "pcp.count row: $(row pcp.count a)"
# Nothing in the model, something real: 0; nothing in either: 1.
[ "$(row pgalloc_all d | cut -f5-6)" = "0${tab}0.00" ] || fail "pgalloc_all row: $(row pgalloc_all d)"
[ "$(row pageblocks.Movable d | cut -f3-6)" = "0${tab}0${tab}0${tab}1.00" ] ||
	fail "pageblocks row: $(row pageblocks.Movable d)"
# A counter the host kernel lacks, and a case the host cannot run.
row no_such_counter d | grep -q "n/a${tab}-${tab}n/a${tab}n/a${tab}note; the host kernel has no no_such_counter" ||
	fail "missing counter: $(row no_such_counter d)"
echo "no 1 GiB pages here" > "$c/real-missing"
[ "$(row pgfree d | cut -f3,6,7)" = "n/a${tab}n/a${tab}note; no 1 GiB pages here" ] ||
	fail "missing case: $(row pgfree d)"

# A line it cannot read: an error naming the file and the line.
sed -i 's/^pgfree .*/pgfree many/' "$dir/after/vmstat"
if flatten "$dir/after" "$dir/bad.flat" 2> "$dir/err"; then fail "a bad vmstat line read"; fi
n=$(grep -n '^pgfree' "$dir/after/vmstat" | cut -d: -f1)
grep -q "^validate: $dir/after/vmstat:$n: not a count: pgfree many$" "$dir/err" ||
	{ cat "$dir/err"; fail "the message"; }
echo "validate's parsing and deltas as worked out by hand"
