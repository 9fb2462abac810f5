#!/bin/sh
# short_lived's threads in C (sim/workload_short_lived.c) against the
# figures aging.lua's loop in Lua gave for the same runs, taken before it
# was replaced (tests/scenarios/short_lived_cases.lua): processes made,
# free pages, zone->lock and page-table lock figures, the end time.  Then
# the options' errors name the script line that called start.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

expected='plain processes=10 free_pages=2044294 zone_acq=14 zone_con=8 ptl_acq=42390 time=20885210
slab processes=36 free_pages=2049354 zone_acq=32 zone_con=20 ptl_acq=38232 time=12229865'

echo "$expected" | while read -r want; do
	got=$("$MMSIM" --out "$dir/out" "$MMSIM_SRCDIR/tests/scenarios/short_lived_cases.lua" \
		-D case="${want%% *}" 2> /dev/null)
	echo "$got"
	if [ "$got" != "$want" ]; then
		echo "expected: $want" >&2
		exit 1
	fi
done

fails() {
	printf '%s\n' 'local m = mmsim.machine{ preset = "test" }' "$1" > "$dir/bad.lua"
	if "$MMSIM" --out "$dir/out" "$dir/bad.lua" > "$dir/stdout" 2> "$dir/stderr"; then
		echo "no error for: $1" >&2
		exit 1
	fi
	grep -q "bad.lua:2: $2" "$dir/stderr" || { cat "$dir/stderr" >&2; exit 1; }
}
fails 'require("mmsim.short_lived").start(m, { cpus = { 1 } })' \
	"short_lived.start: until_ns (an integer of ns) is required"
fails 'require("mmsim.short_lived").start(m, { until_ns = 1e6, size = 0 })' \
	"short_lived.start: start_short_lived: 'size' must be more than 0"
fails 'require("mmsim.short_lived").start(m, { until_ns = 1e6, life = "1 hour" })' \
	"short_lived.start: start_short_lived: cannot read time"
fails 'require("mmsim.short_lived").start(m, { until_ns = 1e6, cpus = { -1 } })' \
	"short_lived.start: start_short_lived: cpu -1 does not exist"
fails 'require("mmsim.short_lived").start(m, { until_ns = 1e6, gap = "1ms", bogus = 1 })' \
	"short_lived.start"
echo "ok: short_lived in C gives the Lua loop's figures; option errors name the line"
