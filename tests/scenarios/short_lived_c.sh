#!/bin/sh
# short_lived's threads (sim/workload_short_lived.c), two runs of
# tests/scenarios/short_lived_cases.lua pinned (processes made, free
# pages, zone->lock and PTE-lock figures, the end time): the figures
# aging.lua's loop in Lua gave when the C version replaced it, re-pinned
# since only where a cost or a model rule changed them, as goldens are.
# Worked out by hand, and held on the pins: each process takes its PTE
# locks once per fault, once per page-table install (PUD, PMD and a PTE
# table per 2 MiB) and once per zap batch of 31 pages, so
#   plain (16 MiB): 4096 + 2 + 8 + ceil(4096 / 31) = 4239 a process;
#   slab (4 MiB):   1024 + 2 + 2 + ceil(1024 / 31) = 1062 a process.
# Then the options' errors name the script line that called start.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$MMSIM_SRCDIR/tests/lib.sh"

pins='plain processes=10 free_pages=2044294 zone_acq=14 zone_con=8 ptl_acq=42390 time=20851575
slab processes=36 free_pages=2049354 zone_acq=32 zone_con=20 ptl_acq=38232 time=12202815'
check_cases short_lived_cases.lua "$pins"
pins_hold "$pins" 'f["ptl_acq"] == f["processes"] * ($1 == "plain" ? 4239 : 1062)' \
	"PTE locks: per process, its faults, 4 + size / 2 MiB table installs and its zap batches"

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
echo "ok: short_lived's pinned figures; option errors name the line"
