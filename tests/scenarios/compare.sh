#!/bin/sh
# ./run compare (sim/compare.sh) on two small runs, 2 and 3 threads on the
# test machine: the table gives each figure of both, the difference and
# the change in %, leaves out the equal ones (--all keeps them), writes
# compare.csv and overlays the runs' zone->lock wait share and 1 GiB
# yield; a folder without summary.csv is refused.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$dir/churn.lua" <<'LUA'
local p = mmsim.params{ threads = 2 }
local m = mmsim.machine{ preset = "test" }
for cpu = 0, p.threads - 1 do
	m:spawn{ cpu = cpu, fn = function()
		local held = {}
		for i = 1, 1000 do
			held[#held + 1] = m:alloc{ order = 9 }
			if i % 2 == 0 then m:free(table.remove(held, 1)) end
			mmsim.sleep("1us")
		end
	end }
end
m:run()
LUA
for t in 2 3; do
	"$MMSIM" --out "$dir/t$t" -D threads=$t "$dir/churn.lua" > /dev/null 2> "$dir/err" ||
		{ cat "$dir/err"; fail "run $t"; }
done
sh "$MMSIM_SRCDIR/sim/compare.sh" --out "$dir/cmp" "$dir/t2" "$dir/t3" > "$dir/table" 2> "$dir/err" ||
	{ cat "$dir/err"; fail "compare"; }
cat "$dir/table"
value() { csv_column "$1/summary.csv" "$2"; }
a=$(value "$dir/t2" zone_lock.acquisitions)
b=$(value "$dir/t3" zone_lock.acquisitions)
pct=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%+.1f", 100 * (b - a) / a }')
awk -v want="zone_lock.acquisitions $a $b +$((b - a)) $pct" '$1 == "zone_lock.acquisitions" {
	found = ($1 " " $2 " " $3 " " $4 " " $5) == want } END { exit !found }' "$dir/table" ||
	fail "no row zone_lock.acquisitions $a $b +$((b - a)) $pct"
grep -q "^zone_lock.acquisitions,$a,$b,$((b - a))," "$dir/cmp/compare.csv" || fail "compare.csv"
head -1 "$dir/cmp/compare.csv" | grep -qx 'figure,t2,t3,t3-t2,t3-t2 %' || fail "csv header"
# Equal figures (the machine) only with --all.
grep -q '^machine.cpus' "$dir/table" && fail "equal figure shown"
grep -q 'figures equal in every folder left out' "$dir/table" || fail "no note"
sh "$MMSIM_SRCDIR/sim/compare.sh" --all --out "$dir/cmp" "$dir/t2" "$dir/t3" 2> /dev/null |
	awk '$1 == "machine.cpus" { found = ($2 " " $3 " " $4 " " $5) == "4 4 0 +0.0" } END { exit !found }' ||
	fail "--all"
for f in compare-lock.png compare-gb_yield.png; do
	[ "$(head -c 4 "$dir/cmp/$f" | tail -c 3)" = PNG ] || fail "$f"
done
if sh "$MMSIM_SRCDIR/sim/compare.sh" --out "$dir/cmp" "$dir/t2" "$dir" 2> "$dir/err"; then
	fail "a folder without summary.csv"
fi
grep -q "$dir is not a results folder" "$dir/err" || fail "message"
exit 0
