#!/bin/sh
# ./run compare (sim/compare.sh) on small runs on the test machine, in
# folders whose names hold commas, quotes and a space: the legend names
# them A, B, ...; the table gives each figure of both, the difference and
# the change in %, leaves out the equal ones (--all keeps them) and the
# legend's keys (wall_time_s among them) are never subtracted;
# compare.csv reads back with Python's csv module; the runs' zone->lock
# wait share and 1 GiB yield are overlaid.  A run with a warm-up (headline
# window measure) against one without compares the window figures only as
# whole_run.*, and leaves out the phases the other run did not have; other
# scenarios and machines are warned about; a folder without summary.csv is
# refused.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$dir/churn.lua" <<'LUA'
local p = mmsim.params{ threads = 2, warmup = "0", preset = "test" }
local m = mmsim.machine{ preset = p.preset }
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
if p.warmup == "0" then m:run() else m:run{ warmup = p.warmup } end
LUA
a="$dir/threads=2,a \"q\""
b="$dir/it's,3"
for t in 2 3; do
	[ $t = 2 ] && out=$a || out=$b
	"$MMSIM" --out "$out" -D threads=$t "$dir/churn.lua" > /dev/null 2> "$dir/err" ||
		{ cat "$dir/err"; fail "run $t"; }
done
sh "$MMSIM_SRCDIR/sim/compare.sh" --out "$dir/cmp" "$a" "$b" > "$dir/table" 2> "$dir/err" ||
	{ cat "$dir/err"; fail "compare"; }
cat "$dir/table"
grep -q warning "$dir/err" && fail "a warning for the same scenario and machine"
grep -qxF "A  $a" "$dir/table" || fail "legend A"
grep -qxF "B  $b" "$dir/table" || fail "legend B"
va=$(csv_value "$a/summary.csv" zone_lock.acquisitions)
vb=$(csv_value "$b/summary.csv" zone_lock.acquisitions)
pct=$(awk -v a="$va" -v b="$vb" 'BEGIN { printf "%+.1f", 100 * (b - a) / a }')
awk -v want="zone_lock.acquisitions $va $vb +$((vb - va)) $pct" '$1 == "zone_lock.acquisitions" {
	found = ($1 " " $2 " " $3 " " $4 " " $5) == want } END { exit !found }' "$dir/table" ||
	fail "no row zone_lock.acquisitions $va $vb +$((vb - va)) $pct"
awk '$1 == "figure" { found = $2 == "A" && $3 == "B" && $4 == "B-A" } END { exit !found }' \
	"$dir/table" || fail "table header"
grep -q '^wall_time_s' "$dir/table" && fail "wall_time_s in the table"
python3 - "$dir/cmp/compare.csv" "$a" "$b" "$va" "$vb" \
	"$(csv_value "$a/summary.csv" wall_time_s)" <<'PY' || fail "compare.csv"
import csv, sys
path, a, b, va, vb, wall = sys.argv[1:]
rows = list(csv.reader(open(path, newline="")))
assert rows[0] == ["figure", "A", "B", "B-A", "B-A %"], rows[0]
assert all(len(r) == 5 for r in rows), [r for r in rows if len(r) != 5]
by = {r[0]: r[1:] for r in rows}
assert by["folder"] == [a, b, "", ""], by["folder"]
assert by["wall_time_s"][0] == wall and by["wall_time_s"][2:] == ["", ""], by["wall_time_s"]
assert by["zone_lock.acquisitions"] == [va, vb, str(int(vb) - int(va)),
                                        by["zone_lock.acquisitions"][3]], by["zone_lock.acquisitions"]
assert "machine.cpus" not in by
PY
grep -q '^machine.cpus' "$dir/table" && fail "equal figure shown"
grep -q 'figures equal in every folder left out' "$dir/table" || fail "no note"
sh "$MMSIM_SRCDIR/sim/compare.sh" --all --out "$dir/cmp" "$a" "$b" 2> /dev/null |
	awk '$1 == "machine.cpus" { found = ($2 " " $3 " " $4 " " $5) == "4 4 0 +0.0" } END { exit !found }' ||
	fail "--all"
for f in compare-lock.png compare-gb_yield.png; do
	[ "$(head -c 4 "$dir/cmp/$f" | tail -c 3)" = PNG ] || fail "$f"
done

# A warm-up in one run only: no headline-against-headline row, the whole
# runs' figures compared, and neither warmup nor measure.
"$MMSIM" --out "$dir/warm" -D warmup=200us "$dir/churn.lua" > /dev/null 2>&1 || fail "warm run"
[ "$(csv_value "$dir/warm/summary.csv" window)" = measure ] || fail "no measure window"
sh "$MMSIM_SRCDIR/sim/compare.sh" --all --out "$dir/cmp2" "$a" "$dir/warm" > "$dir/table" 2> /dev/null ||
	fail "compare with a warm-up"
grep -q '^headline windows differ (A whole_run, B measure)' "$dir/table" || fail "windows note"
grep -q '^phases not in every run, left out: warmup (not in A), measure (not in A)' "$dir/table" ||
	fail "phases note"
grep -Eq '^(zone_lock|pcp_lock)\.|^phases\.' "$dir/table" && fail "a window figure compared across windows"
wa=$(csv_value "$a/summary.csv" zone_lock.acquisitions)
wb=$(csv_value "$dir/warm/summary.csv" whole_run.zone_lock.acquisitions)
awk -v want="whole_run.zone_lock.acquisitions $wa $wb" '$1 == "whole_run.zone_lock.acquisitions" {
	found = ($1 " " $2 " " $3) == want } END { exit !found }' "$dir/table" ||
	fail "whole_run.zone_lock.acquisitions $wa $wb"

# Another scenario, another machine: warnings.
sed 's/^if p.warmup/local x = 1\nif p.warmup/' "$dir/churn.lua" > "$dir/other.lua"
"$MMSIM" --out "$dir/numa" -D preset=test-numa "$dir/other.lua" > /dev/null 2>&1 || fail "numa run"
sh "$MMSIM_SRCDIR/sim/compare.sh" --out "$dir/cmp3" "$a" "$dir/numa" > /dev/null 2> "$dir/err" ||
	fail "compare across machines"
grep -q 'warning: the folders ran different scenarios: A .*churn.lua, B .*other.lua' "$dir/err" ||
	fail "no scenario warning"
grep -q 'warning: the folders ran different machines: A test: 1 socket, .*, B test-numa: 2 sockets' \
	"$dir/err" || fail "no machine warning"
# The same file name with other contents.
mkdir "$dir/edited"
cp -R "$b/." "$dir/edited/"
echo "-- edited" >> "$dir/edited/scenario/churn.lua"
sh "$MMSIM_SRCDIR/sim/compare.sh" --out "$dir/cmp3" "$a" "$dir/edited" > /dev/null 2> "$dir/err" ||
	fail "compare an edited scenario"
grep -q "warning: the scenario file of B (its copy in scenario/) is not the same as A's" "$dir/err" ||
	fail "no warning for an edited scenario"

if sh "$MMSIM_SRCDIR/sim/compare.sh" --out "$dir/cmp" "$a" "$dir" 2> "$dir/err"; then
	fail "a folder without summary.csv"
fi
grep -q "$dir is not a results folder" "$dir/err" || fail "message"
exit 0
