#!/bin/sh
# scenarios/aging.lua -D pace=real on its default machine (2 sockets, 16
# CPUs), aged 2 s in fast-forward: the rates are the sourced ones.
# - The kernel's allocations are the kmem capture's unmovable ones, one
#   traced CPU's load per CPU: the pages allocated are 8 copies of the
#   CSV's non-movable pages of its first 2 s (within 2%: copies start up to
#   a mean gap apart, and a wake-up runs 100 us of events early).
# - jemalloc decays in 10 s: nothing is purged in 2 s.
# - The readers read 100 MiB/s each, one per socket: 400 MiB in 2 s, to a
#   4 MiB chunk each (they read a chunk, then sleep its time).
# - timeseries.csv has a row every 5 ms; aged 60 s (a 4-CPU machine, to
#   save time), every 10,000th of the run (6.0001 ms), about 10,000 rows;
#   with -D page_owner=true it prints the unmovable pages' ages.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$MMSIM" --out "$dir/r" "$MMSIM_SRCDIR/scenarios/aging.lua" -D pace=real -D age=2s \
	-D duration=1ms > "$dir/out" 2> "$dir/err" || { cat "$dir/err"; exit 1; }
cat "$dir/out"
want=$(gzip -dc "$MMSIM_SRCDIR/data/real/kmem-events-redis.csv.gz" | awk -F, '
	NR == 2 { t0 = $1 }
	NR > 1 && $5 == "mm_page_alloc" && $8 != 1 && $1 - t0 < 2.001 { n += 2 ^ $7 }
	END { print 8 * n }')
got=$(sed -n 's/^real pace: jemalloc purged \([0-9]*\) pages; kmem replay \([0-9]*\) pages allocated.*/\1 \2/p' "$dir/out")
set -- $got
[ $# -eq 2 ] || { echo "no real pace line"; exit 1; }
[ "$1" -eq 0 ] || { echo "jemalloc purged $1 pages in 2 s at a 10 s decay"; exit 1; }
awk -v g="$2" -v w="$want" 'BEGIN { exit !(w > 0 && g >= 0.98 * w && g <= 1.02 * w) }' ||
	{ echo "kmem replay: $2 pages allocated, the capture's $want"; exit 1; }
pc=$(sed -n 's/^page cache \([0-9]*\) pages.*/\1/p' "$dir/out")
awk -v p="$pc" 'BEGIN { w = 2 * 100 * 256 * 2.001; exit !(p >= w - 2048 && p <= w + 2048) }' ||
	{ echo "page cache $pc pages, want 400 MiB"; exit 1; }
# Every pace records where the unmovable pages are (results.spread.*).
grep -q '^run-time unmovable: in [0-9.]*% of pageblocks' "$dir/out" ||
	{ echo "no results.spread line at the real pace"; exit 1; }
rows() {
	awk -F, -v want="$2" -v n="$3" 'NR == 3 && $1 != want { print "second row at " $1 " ms, want " want; exit 1 }
		END { if (NR - 1 < n || NR - 1 > n * 1.05) { print NR - 1 " rows, want " n; exit 1 } }' "$1"
}
rows "$dir/r/timeseries.csv" 5 400
"$MMSIM" --out "$dir/long" "$MMSIM_SRCDIR/scenarios/aging.lua" -D pace=real -D age=60s \
	-D duration=1ms -D sockets=1 -D cpus_per_socket=4 -D mem_per_node=2G \
	-D gb_yield_attempt=false -D page_owner=true > "$dir/long.out" 2> "$dir/long.err" || { cat "$dir/long.err"; exit 1; }
rows "$dir/long/timeseries.csv" 6.0001 10000
# -D page_owner=true: the unmovable pages' ages at the switch, none older
# than the run, and the results folder's page_owner_ages.
awk '/^unmovable pages aged 60s: [1-9][0-9]*, by age: mean / { n++ }
	/^unmovable pages at the end: [1-9]/ { n++ } END { exit n != 2 }' "$dir/long.out" ||
	{ cat "$dir/long.out"; echo "no unmovable ages"; exit 1; }
awk '/^# page_owner: the pages allocated at/ { now = $7 }
	$1 == "Unmovable" && $2 > 0 && $8 <= now { ok = 1 } END { exit !ok }' \
	"$dir/long/page_owner_ages" || { cat "$dir/long/page_owner_ages"; exit 1; }
echo "ok: aging_real"
