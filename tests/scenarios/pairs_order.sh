#!/bin/sh
# pairs() visits a table in the same order in every run (Lua's string hash
# seed changes from run to run): numbers, then strings, then booleans.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$dir/order.lua" <<'LUA'
local t = { [true] = 1, [3] = 1, [1.5] = 1, [-2] = 1 }
for i = 1, 200 do t["key" .. i] = i end
local out = {}
for k in pairs(t) do out[#out + 1] = tostring(k) end
assert(out[1] == "-2" and out[2] == "1.5" and out[3] == "3" and out[4] == "key1" and
  out[5] == "key10" and out[#out] == "true", table.concat(out, " "))
-- __pairs is honoured.
local seen = 0
for k, v in pairs(setmetatable({}, { __pairs = function(t) return function(_, k)
  if not k then return 1, "one" end end, t, nil end })) do seen = seen + 1 end
assert(seen == 1)
print(table.concat(out, " "))
LUA
for i in 1 2 3 4 5; do
	"$MMSIM" --out "$dir/res" "$dir/order.lua" > "$dir/out$i" 2> "$dir/err" || { cat "$dir/err"; fail "run $i"; }
	cmp -s "$dir/out1" "$dir/out$i" || fail "run $i iterated in another order"
done
# pairs() of a non-table is a Lua error naming the line, not a crash
# (the sorted pairs once called lua_next on whatever it was given).
for arg in nil 5 '"text"' undefined_variable; do
	printf 'local n = 0\nfor k in pairs(%s) do n = n + 1 end\n' "$arg" > "$dir/bad.lua"
	"$MMSIM" --out "$dir/bad" "$dir/bad.lua" > /dev/null 2> "$dir/err"
	code=$?
	[ $code -eq 1 ] || { cat "$dir/err"; fail "pairs($arg) exited $code, not 1"; }
	grep -q "bad.lua:2: bad argument #1 to 'pairs' (table expected" "$dir/err" ||
		{ cat "$dir/err"; fail "pairs($arg): no clear error"; }
	rm -rf "$dir/bad"
done
echo "ok: pairs order is fixed, pairs of a non-table is an error"
