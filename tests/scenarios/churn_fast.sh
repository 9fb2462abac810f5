#!/bin/sh
# The README's cross-CPU churn finding on the smallest machine that shows
# it (the test preset, one producer and one consumer, 20 ms, seed 7):
# pcp_buddy takes zone->lock less often than upstream (33 against 137 at
# 2000 ns of work per page when written, 287 against 567 at 500 ns), but
# less so at the higher rate: remote frees keep the owner's pcp->lock
# busy, some of its allocations' trylocks fail and they go to rmqueue_buddy
# page by page.  Bounds: below 3/4 of upstream's count at both rates, and
# a larger share of it at 500 ns than at 2000 ns.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
acq() {
	"$MMSIM" --seed 7 --out "$dir/out" "$MMSIM_SRCDIR/scenarios/cross-cpu-churn.lua" \
		-D preset=test -D cpus=2 -D duration=20ms -D policy=$1 -D work_ns=$2 2> /dev/null |
		awk '$1 == "zone_lock.acquisitions" { print $2 }'
}
share=
for work in 2000 500; do
	up=$(acq upstream $work)
	pb=$(acq pcp_buddy $work)
	echo "work_ns $work: zone->lock acquisitions upstream $up, pcp_buddy $pb"
	awk -v up="$up" -v pb="$pb" 'BEGIN { exit !(up > 0 && 4 * pb < 3 * up) }'
	last=$share
	share=$(awk -v up="$up" -v pb="$pb" 'BEGIN { print pb / up }')
done
awk -v lo="$last" -v hi="$share" 'BEGIN { exit !(hi > lo) }'
