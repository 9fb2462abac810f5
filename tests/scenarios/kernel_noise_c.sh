#!/bin/sh
# kernel_noise's threads (sim/workload_kernel_noise.c), four runs of
# tests/scenarios/kernel_noise_cases.lua pinned (allocations, frees,
# failures and long-lived ones, the machine's free and per-CPU pages,
# zone->lock acquisitions and contentions, the end time): the figures the
# Lua version of the loop gave when the C version replaced it, re-pinned
# since only where a cost or a model rule changed them, as goldens are
# (the tight cases when direct reclaim took the kernel's 32 pages instead
# of 32 << order, issue 28 item 4: their order-1 to 3 allocations reclaim
# less at a time and fail a little more; seed 7's tight case when a
# sleep shorter than the horizon stopped keeping its CPU, 1.7% more
# allocations, tests/scenarios/sleep_shares_cpu.lua).  Worked out by hand, and held on
# the pins: a long-lived allocation is never freed, so at least that many
# are still held (allocated - freed >= long_lived); "small" asks 8 GiB for
# a few MiB and never fails.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$MMSIM_SRCDIR/tests/lib.sh"

expected='1 small allocated=26605 freed=24403 failed=0 long_lived=487 free_pages=2049857 pcp_pages=1560 zone_acq=101 zone_con=3 time=30001440
7 small allocated=26539 freed=24303 failed=0 long_lived=517 free_pages=2049734 pcp_pages=1624 zone_acq=105 zone_con=4 time=30003628
1 tight allocated=6970 freed=2785 failed=8560 long_lived=2056 free_pages=1256 pcp_pages=129 zone_acq=21090 zone_con=1 time=25001000
7 tight allocated=7008 freed=2868 failed=8557 long_lived=2102 free_pages=1263 pcp_pages=573 zone_acq=21055 zone_con=6 time=25002000'

echo "$expected" | while read -r seed want; do
	got=$("$MMSIM" --seed "$seed" --out "$dir/out" \
		"$MMSIM_SRCDIR/tests/scenarios/kernel_noise_cases.lua" -D case="${want%% *}" \
		2> /dev/null)
	echo "seed $seed: $got"
	if [ "$got" != "$want" ]; then
		echo "expected: $want" >&2
		exit 1
	fi
done
pins_hold "$expected" 'f["allocated"] - f["freed"] >= f["long_lived"] && ($2 != "small" || f["failed"] == 0)' \
	"long-lived allocations still held; the small machine never fails"
echo "ok: kernel_noise's pinned figures"
