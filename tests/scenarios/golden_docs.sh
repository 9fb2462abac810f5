#!/bin/sh
# The figures README.md and BENCHMARKS.md quote from scenario runs are the
# goldens' (tests/golden/fill-docs.sh names each one that differs).
set -eu
sh "$MMSIM_SRCDIR/tests/golden/fill-docs.sh" --check "$MMSIM_SRCDIR"

# The spread markers on a tree of their own: seed K of golden "g" has
# x = K, so the mean of seeds 1-5 is 3 and the range 1-5; a figure the
# same in every seed reads "(every seed)"; a stale quote is named (seed 3
# made 9: mean (1 + 2 + 9 + 4 + 5) / 5 = 4.2).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tests/golden/seeds"
printf '# mmsim x.lua\n# spread: seeds 1-5\nx 1\ny 7\n' > "$tmp/tests/golden/g.golden"
for k in 2 3 4 5; do
	printf '# mmsim x.lua\n# spread: seeds 1-5\nx %d\ny 7\n' $k > "$tmp/tests/golden/seeds/g.seed$k"
done
printf 'x <!--s g 10 * x %%.1f-->?<!--/s--> y <!--s g y %%.0f%%%%-->?<!--/s-->\n' > "$tmp/README.md"
echo 'none <!--g g y-->7<!--/g-->' > "$tmp/BENCHMARKS.md"
sh "$MMSIM_SRCDIR/tests/golden/fill-docs.sh" "$tmp" > /dev/null
want='x <!--s g 10 * x %.1f-->30.0 (10.0–50.0)<!--/s--> y <!--s g y %.0f%%-->7% (every seed)<!--/s-->'
[ "$(cat "$tmp/README.md")" = "$want" ] || { echo "spread markers filled as: $(cat "$tmp/README.md")"; exit 1; }
printf 'x 9\ny 7\n' >> "$tmp/tests/golden/seeds/g.seed3"
sed -i 's/^x 3$//' "$tmp/tests/golden/seeds/g.seed3"
if sh "$MMSIM_SRCDIR/tests/golden/fill-docs.sh" --check "$tmp" 2> "$tmp/err"; then
	echo "a stale spread figure was not found"
	exit 1
fi
grep -q 'the golden gives "42.0 (10.0–90.0)", the text says "30.0 (10.0–50.0)"' "$tmp/err" ||
	{ cat "$tmp/err"; exit 1; }
echo "ok: docs' figures and spread markers"
