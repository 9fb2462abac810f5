#!/bin/sh
# The README's cross-CPU churn finding on the smallest machine that shows
# it (the test preset, one producer and one consumer, 20 ms, seed 7): at
# 2000 ns of work per page pcp_buddy takes zone->lock less often than
# upstream (71 against 137 when written), at 500 ns more often (845
# against 533): remote frees keep the owner's pcp->lock busy, its
# allocations' trylock fails and they go to rmqueue_buddy page by page.
# Bounds: below 3/4 of upstream's count, then above 5/4 of it.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
acq() {
	"$MMSIM" --seed 7 --out "$dir/out" "$MMSIM_SRCDIR/scenarios/cross-cpu-churn.lua" \
		-D preset=test -D cpus=2 -D duration=20ms -D policy=$1 -D work_ns=$2 2> /dev/null |
		awk '$1 == "zone_lock.acquisitions" { print $2 }'
}
for work in 2000 500; do
	up=$(acq upstream $work)
	pb=$(acq pcp_buddy $work)
	echo "work_ns $work: zone->lock acquisitions upstream $up, pcp_buddy $pb"
	if [ $work = 2000 ]; then
		awk -v up="$up" -v pb="$pb" 'BEGIN { exit !(up > 0 && 4 * pb < 3 * up) }'
	else
		awk -v up="$up" -v pb="$pb" 'BEGIN { exit !(up > 0 && 4 * pb > 5 * up) }'
	fi
done
