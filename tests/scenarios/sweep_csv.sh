#!/bin/sh
# A real sweep collects summaries whose fields hold commas (machine.title,
# quoted as RFC 4180 says): sweep.csv reads back with Python's csv module,
# every row as long as its header, and the bar chart's means
# (sweep.dat: x_index x mean min max runs) are the runs' own figures, not a
# column beside them.
set -eu
command -v parallel > /dev/null || { echo "GNU parallel not installed"; exit 77; }
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$dir/s.lua" <<'LUA'
-- plots: cpu_wait
local p = mmsim.params{ policy = "upstream" }
local m = mmsim.machine{ preset = "test", policy = p.policy }
for cpu = 0, 1 do
  m:spawn{ cpu = cpu, fn = function()
    for i = 1, 300 do m:free(m:alloc{ order = i % 3 }) end
  end }
end
m:run()
LUA
MMSIM_BIN=$MMSIM sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep policy=upstream,pcp_buddy \
	--plot y=pcp_lock.acquisitions \
	--out "$dir/sw" -j 2 "$dir/s.lua" > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail "sweep"; }
python3 - "$dir/sw/sweep.csv" <<'PY' || fail "sweep.csv"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) == 3 and all(len(r) == len(rows[0]) for r in rows), [len(r) for r in rows]
title = rows[0].index("machine.title")
assert rows[1][title] == "test: 1 socket, 1 node, 4 CPUs, 8 GiB", rows[1][title]
PY
up=$(csv_value "$dir/sw/policy=upstream/summary.csv" pcp_lock.acquisitions)
pb=$(csv_value "$dir/sw/policy=pcp_buddy/summary.csv" pcp_lock.acquisitions)
[ "$up" -gt 0 ] || fail "no pcp_lock acquisitions"
printf '1 upstream %s %s %s 1\n2 pcp_buddy %s %s %s 1\n' "$up" "$up" "$up" "$pb" "$pb" "$pb" |
	diff - "$(grep -v '^#' "$dir/sw/sweep.dat" > "$dir/rows"; echo "$dir/rows")" || fail "sweep.dat"
echo "ok: sweep.csv of quoted fields"

# Results whose string values hold commas and line breaks (issue 34 item
# 15): summary.csv keeps a row per line (a line break written \n), so the
# sweep collects the figures the runs recorded (the quoted line break split
# the row: "ragged row", no sweep.csv) and compare reads both folders.
cat > "$dir/str.lua" <<'LUA'
local p = mmsim.params{ v = 10 }
mmsim.machine{ sockets = 1, cpus_per_socket = 2, mem_per_node = "1G" }
mmsim.result("label", "a, b")
mmsim.result("note", "x\ny, \"z\"")
mmsim.result("value", p.v)
LUA
MMSIM_BIN=$MMSIM sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep v=10,20 --plot y=results.value,x=v \
	--out "$dir/str" -j 2 "$dir/str.lua" > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail "sweep of strings"; }
printf '1 10 10 10 10 1\n2 20 20 20 20 1\n' | diff - "$(grep -v '^#' "$dir/str/sweep.dat" > "$dir/rows2"; echo "$dir/rows2")" ||
	fail "sweep.dat of the string results"
[ "$(wc -l < "$dir/str/v=10/summary.csv")" -eq 2 ] || fail "summary.csv is not one row"
[ "$(csv_value "$dir/str/v=10/summary.csv" results.note)" = 'x\ny, "z"' ] ||
	fail "results.note reads $(csv_value "$dir/str/v=10/summary.csv" results.note)"
[ "$(csv_value "$dir/str/v=20/summary.csv" results.label)" = "a, b" ] || fail "results.label"
grep -q '"note" : "x\\ny, \\"z\\""' "$dir/str/v=10/summary.json" || fail "summary.json's note"
sh "$MMSIM_SRCDIR/sim/compare.sh" --all --out "$dir/cmp" "$dir/str/v=10" "$dir/str/v=20" > "$dir/cmp.out" 2> "$dir/err" ||
	{ cat "$dir/err"; fail "compare"; }
python3 - "$dir/cmp/compare.csv" <<'PY' || fail "compare.csv"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert all(len(r) == len(rows[0]) for r in rows), [len(r) for r in rows]
value = [r for r in rows if r[0] == "results.value"]
assert value and value[0][1:3] == ["10", "20"], value
PY
echo "ok: string results with commas and line breaks"
