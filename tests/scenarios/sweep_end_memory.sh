#!/bin/sh
# A sweep of runs that record results.end_memory.* says, on the 1 GiB
# yield plot's title and in plots.txt, what each line held at the end:
# x = 1 and 2 hold 200 and 400 unmovable 2 MiB blocks (400 and 800 MiB)
# and 1000 and 2000 movable pages (3.9 and 7.8 MiB), no page cache, no
# anonymous memory.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$MMSIM_SRCDIR"
MMSIM_BIN="$MMSIM" sh sim/sweep.sh --sweep x=1,2 --out "$dir/sw" -j 2 \
	tests/scenarios/sweep_end_memory_run.lua > "$dir/log" 2>&1 || { cat "$dir/log"; exit 1; }
cat "$dir/sw/plots.txt"
grep -q '^sweep-gb_yield.png: .*GiB held at the end (free, page cache, anonymous): 1 [0-9.]*, 0.0, 0.0; 2 [0-9.]*, 0.0, 0.0$' \
	"$dir/sw/plots.txt" || { echo "no end memory on the yield plot"; exit 1; }
# The free memory of x = 2 is 404 MiB less than x = 1's (0.1 GiB rounding each).
set -- $(sed -n 's/.*anonymous): 1 \([0-9.]*\), .*; 2 \([0-9.]*\), .*/\1 \2/p' "$dir/sw/plots.txt")
awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d >= 0.25 && d <= 0.55) }' ||
	{ echo "free memory $1 and $2 GiB: want 0.4 GiB apart"; exit 1; }
test -s "$dir/sw/sweep-gb_yield.png"
echo "ok: the yield plot says what each line held"
