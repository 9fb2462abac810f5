#!/bin/sh
# gb_yield_attempt: the end-of-run 1 GiB attempt's figures in the summary.
# An 8 GiB machine (GiB 1-7 are regions) with 64 MiB of anonymous memory
# and 256 MiB of page cache read on CPU 0: under spb that lands in one
# region, so the attempt takes the five free ones and then that one, its
# 81920 pages migrated; the summary's other figures (vmstat.pgmigrate_*)
# are from before the attempt.  Without the option there are no such keys.
# The counts are JSON integers, and with a measurement window (warmup) the
# headline has them too, the phases not (the attempt comes after them).
set -eu
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat > "$out/s.lua" <<'LUA'
local p = mmsim.params{ attempt = true, warmup = "0" }
local m = mmsim.machine{ preset = "test", policy = "spb", gb_yield_attempt = p.attempt,
                         boot_reserve = false }
m:spawn{ cpu = 0, fn = function()
  local proc = m:process()
  local a = proc:mmap("64M")
  proc:touch(a, "64M")
  m:read_file{ file = 1, pages = 65536 }
end }
if p.warmup == "0" then m:run() else m:run{ warmup = p.warmup } end
LUA
"$MMSIM" --out "$out/on" "$out/s.lua" 2> "$out/stderr"
j="$out/on/summary.json"
grep -q '"obtained" : 6,$' "$j"
grep -q '"obtain_migrated" : 81920,$' "$j"
grep -q '"obtain_time_s" : 0\.[0-9]' "$j"
grep -q '"pgmigrate_success" : 0' "$j"
head -1 "$out/on/summary.csv" | grep -q 'gb_yield.obtained,gb_yield.obtain_migrated,gb_yield.obtain_time_s'
"$MMSIM" --out "$out/off" -D attempt=false "$out/s.lua" 2> "$out/stderr"
if grep -q '"obtained"' "$out/off/summary.json"; then exit 1; fi
"$MMSIM" --out "$out/window" -D warmup=1us "$out/s.lua" 2> "$out/stderr"
python3 - "$out/window/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["window"] == "measure", s["window"]
g = s["gb_yield"]
assert type(g["obtained"]) is int and g["obtained"] == 6, g
assert type(g["obtain_migrated"]) is int and g["obtain_migrated"] == 81920, g
assert "obtained" not in s.get("whole_run", {}).get("gb_yield", {}), s["whole_run"]
for name, phase in s["phases"].items():
    assert "obtained" not in phase["gb_yield"], name
PY
