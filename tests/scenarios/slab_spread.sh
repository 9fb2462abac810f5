#!/bin/sh
# The slab model's headline figures, as the goldens pin them (golden.sh
# checks that the runs reproduce them): on the small aging machine under
# memory pressure, upstream's slab pages (kernel=slab) hold fewer
# unmovable pages than kernel_noise's but spread them over more pageblocks;
# superpageblocks pack the same slab load into fewer pageblocks and no more
# 1 GiB regions (the boot reservations, counted as unmovable, put the memmap
# and per-CPU areas at the top of both 2 GiB nodes and the kernel image low
# in node 0, so on this small machine they alone reach every region).  The
# stdout line read is aging's "unmovable: P pages in B pageblocks (...), R
# of N 1 GiB regions".
set -eu
g=$MMSIM_SRCDIR/tests/golden
unmovable() {  # golden -> "pages pageblocks regions"
	grep '^stdout\.[0-9]* unmovable:' "$g/$1.golden" | awk '{ print $3, $6, $11 }'
}
set -- $(unmovable aging-noise-small-upstream) $(unmovable aging-slab-upstream) \
	$(unmovable aging-slab-spb)
echo "noise upstream: $1 pages in $2 pageblocks, $3 regions"
echo "slab upstream:  $4 pages in $5 pageblocks, $6 regions"
echo "slab spb:       $7 pages in $8 pageblocks, $9 regions"
[ "$4" -le "$1" ] && [ "$5" -gt "$2" ] || { echo "slab pages are not spread wider than noise's"; exit 1; }
[ "$8" -lt "$5" ] && [ "$9" -le "$6" ] || { echo "spb does not pack the slab pages"; exit 1; }
