#!/bin/sh
# The aging scenario's headline spread figures, as the goldens pin them
# (golden.sh checks that the runs reproduce them): on the small aging
# machine under memory pressure, the unmovable pages the kernel allocates
# at run time (boot reservations aside) fill more pageblocks per page of
# memory under upstream with kernel_noise's mix of slab objects, stacks,
# page tables and network buffers (kernel=slab) than with its statistical
# pages (kernel=noise), which upstream packs almost perfectly; and
# superpageblocks pack the mix tighter than upstream.  The spread is
# results.spread.unmovable_pageblock_share over
# results.spread.unmovable_memory_share: 1 is a perfect packing.
set -eu
g=$MMSIM_SRCDIR/tests/golden
spread() {  # golden -> pageblock share / memory share
	awk '$1 == "results.spread.unmovable_pageblock_share" { pb = $2 }
	     $1 == "results.spread.unmovable_memory_share" { mem = $2 }
	     END { printf "%.3f\n", pb / mem }' "$g/$1.golden"
}
noise=$(spread aging-noise-small-upstream)
slab=$(spread aging-slab-upstream)
spb=$(spread aging-slab-spb)
echo "unmovable pageblocks per their memory: noise upstream $noise, slab upstream $slab, slab spb $spb"
awk -v a="$noise" -v b="$slab" 'BEGIN { exit !(b > 1.5 * a) }' ||
	{ echo "the slab mix is not spread wider than the noise's pages"; exit 1; }
awk -v a="$spb" -v b="$slab" 'BEGIN { exit !(a < b) }' ||
	{ echo "spb does not pack the slab mix tighter than upstream"; exit 1; }
