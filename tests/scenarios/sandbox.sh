#!/bin/sh
# The sandbox: files are read freely but written only into the results
# folder (mmsim.write_result_file); require loads text modules from the
# workload library and the scenario's folder only; no string.dump, no debug.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir "$dir/elsewhere"
printf 'return { answer = 42 }\n' > "$dir/helper.lua"
printf 'return { answer = 7 }\n' > "$dir/elsewhere/away.lua"
printf '\033Lua bytecode' > "$dir/binary.lua"
cat > "$dir/box.lua" <<LUA
local dir = "$dir"
assert(require("helper").answer == 42)
assert(require("mmsim.jemalloc_churn").start)
package.path = dir .. "/elsewhere/?.lua"
assert(not pcall(require, "away"), "package.path reached another folder")
local ok, err = pcall(require, "binary")
assert(not ok and err:find("attempt to load a binary chunk"), err)
assert(io.open(dir .. "/helper.lua"):read("a"):find("answer"))
for _, mode in ipairs({ "w", "a", "r+", "wb" }) do
  ok, err = pcall(io.open, dir .. "/written", mode)
  assert(not ok and err:find("scenarios may only read files"), err)
end
ok, err = pcall(io.open, "/proc/self/mem", "r+")
assert(not ok and err:find("scenarios may only read files"), err)
ok, err = pcall(io.output, dir .. "/written")
assert(not ok and err:find("take an open file"), err)
assert(string.dump == nil and debug == nil and os.remove == nil and os.rename == nil)
mmsim.write_result_file("notes.txt", "hello\n")
ok, err = pcall(mmsim.write_result_file, "../escape", "x")
assert(not ok and err:find("must be letters"), err)
-- Every name the run's own files take is refused, plots and their data too,
-- and a NUL does not cut a name short.
for _, own in ipairs({ "summary.json", "schedstat", "gb_yield.png", "lock_timeseries.png",
                       "spbmap.dat", "memmap.dat", "node3_vmstat", "stdout", "stderr",
                       "scenario", "spb_walk", "memory_map.svg" }) do
  ok, err = pcall(mmsim.write_result_file, own, "x")
  assert(not ok and err:find("the run's own files"), own .. ": " .. tostring(err))
end
ok, err = pcall(mmsim.write_result_file, "notes.txt\0evil", "x")
assert(not ok and err:find("must be letters"), err)
-- After the scenario, from a finalizer: an error, not a silent success.
late = setmetatable({}, { __gc = function()
  local ok1, e1 = pcall(mmsim.result, "late", 1)
  local ok2, e2 = pcall(mmsim.write_result_file, "late.txt", "x")
  assert(not ok1 and e1:find("written already") and not ok2 and e2:find("written already"))
  io.stdout:write("finalizer refused\n")
end })
print("sandbox ok")
LUA
"$MMSIM" --out "$dir/res" "$dir/box.lua" > "$dir/out" 2> "$dir/err" || { cat "$dir/err"; fail "box.lua"; }
grep -q "sandbox ok" "$dir/out" || fail "no ok"
grep -q "finalizer refused" "$dir/out" || fail "a finalizer's mmsim.result after the run was not refused"
[ "$(cat "$dir/res/notes.txt")" = hello ] || fail "notes.txt not in the results folder"
[ -e "$dir/written" ] && fail "a file was written outside the results folder"
echo "ok: sandbox"
