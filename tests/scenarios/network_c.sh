#!/bin/sh
# network's receive threads (sim/workload_network.c), three runs of
# tests/scenarios/network_cases.lua pinned (packets, objects allocated and
# freed, failures, long-lived buffers, fragments and blocks alive, free
# pages, zone->lock figures, the end time): the figures the Lua version of
# the loop gave when the C version replaced it, re-pinned since only where
# a cost or a model rule changed them, as goldens are.  Worked out by
# hand, and held on the pins: with no failure a packet is two objects, its
# head and its data (allocated = 2 x packets), and nothing is freed that
# was not allocated, long-lived buffers never.  "fn" passes
# the rate and the lifetime as Lua functions (called from the C threads),
# "slab" runs kernel_slab's packet source, the same receive path, beside.
# Then the options' errors name the script line that called start, and a
# rate function's bad value stops the run.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$MMSIM_SRCDIR/tests/lib.sh"

pins='steady packets=31857 allocated=63714 freed=57554 failed=0 long_lived=3114 frags=3080 frag_blocks=1231 free_pages=2046044 zone_acq=182 zone_con=10 time=20001624
fn packets=6968 allocated=13936 freed=13102 failed=0 long_lived=0 frags=213 frag_blocks=12 free_pages=2055850 zone_acq=7 zone_con=3 time=15001662
slab packets=1983 allocated=3966 freed=3186 failed=0 long_lived=0 frags=709 frag_blocks=136 free_pages=2054375 zone_acq=33 zone_con=5 time=10003721'
check_cases network_cases.lua "$pins"
pins_hold "$pins" 'f["failed"] == 0 && f["allocated"] == 2 * f["packets"] && f["freed"] + f["long_lived"] <= f["allocated"]' \
	"two objects a packet; frees and long-lived buffers within the allocations"

start='require("mmsim.network").start(m, '
fails "bad.lua:2: network.start: start_network: 'rate' must be a number" "$start{ rate = 0 })"
fails "bad.lua:2: network.start: start_network: cpu 9 does not exist" "$start{ cpus = { 9 } })"
fails "bad.lua:2: network.start: packet_bytes must be" "$start{ packet_bytes = 4000 })"
fails "bad.lua:2: network.start: lifetime: mmsim.time: cannot read time" \
	"$start{ lifetime = \"2 ms\" })"
fails "bad.lua:2: network.start: start_network: 'frag_share' must be a number from 0 to 1" \
	"$start{ frag_share = 2 })"
fails "bad.lua:2: network.start: until_ns must be an integer" "$start{ until_ns = 1.5 })"
fails "bad.lua:2: .*network.start" "$start{ bogus = 1 })"
fails "thread on CPU 2: network: the rate function returned -1, not a positive number" \
	"$start{ cpus = { 2 }, until_ns = 1e6," \
	'  rate = function(now) return now < 5e5 and 100 or -1 end })' 'm:run()'
echo "ok: network's pinned figures; option errors name the line"
