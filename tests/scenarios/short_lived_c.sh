#!/bin/sh
# short_lived's threads in C (sim/workload_short_lived.c) against the
# figures aging.lua's loop in Lua gave for the same runs, taken before it
# was replaced (tests/scenarios/short_lived_cases.lua): processes made,
# free pages, zone->lock and page-table lock figures, the end time.  Then
# the options' errors name the script line that called start.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$MMSIM_SRCDIR/tests/lib.sh"

check_cases short_lived_cases.lua 'plain processes=10 free_pages=2044294 zone_acq=14 zone_con=8 ptl_acq=42390 time=20851575
slab processes=36 free_pages=2049354 zone_acq=32 zone_con=20 ptl_acq=38232 time=12202815'

start='require("mmsim.short_lived").start(m, '
fails "bad.lua:2: short_lived.start: until_ns (an integer of ns) is required" \
	"$start{ cpus = { 1 } })"
fails "bad.lua:2: short_lived.start: start_short_lived: 'size' must be more than 0" \
	"$start{ until_ns = 1e6, size = 0 })"
fails "bad.lua:2: short_lived.start: start_short_lived: cannot read time" \
	"$start{ until_ns = 1e6, life = \"1 hour\" })"
fails "bad.lua:2: short_lived.start: start_short_lived: cpu -1 does not exist" \
	"$start{ until_ns = 1e6, cpus = { -1 } })"
fails "bad.lua:2: .*short_lived.start" "$start{ until_ns = 1e6, bogus = 1 })"
echo "ok: short_lived in C gives the Lua loop's figures; option errors name the line"
