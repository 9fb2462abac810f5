#!/bin/sh
# No results are lost silently: runs started together get folders of their
# own, an unwritable --out fails at the start, and a file that cannot be
# written (a plot cut short included) fails the run naming the path.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$dir/small.lua" <<'LUA'
local m = mmsim.machine{ preset = "test" }
m:spawn{ cpu = 0, fn = function() for i = 1, 100 do m:free(m:alloc{}) end end }
m:run()
LUA
# Three runs at once, without --out: three folders, each whole.
(cd "$dir" && for i in 1 2 3; do "$MMSIM" small.lua > /dev/null 2>&1 & done; wait)
n=$(ls -d "$dir"/results/small-* | wc -l)
[ "$n" -eq 3 ] || { ls "$dir/results"; fail "$n folders for 3 runs"; }
for f in "$dir"/results/small-*; do
	[ -s "$f/summary.json" ] && [ -s "$f/memory_map.png" ] || fail "$f incomplete"
done

# An unwritable --out fails before the script runs.
"$MMSIM" --out /proc/mmsim-results "$dir/small.lua" > /dev/null 2> "$dir/err"
[ $? -eq 1 ] || fail "--out /proc/...: wanted exit 1"
grep -q "cannot create results folder /proc/mmsim-results" "$dir/err" || { cat "$dir/err"; fail "no path"; }
"$MMSIM" --out /proc "$dir/small.lua" > /dev/null 2> "$dir/err"
[ $? -eq 1 ] || fail "--out /proc: wanted exit 1"
grep -q "cannot write in results folder /proc: " "$dir/err" || { cat "$dir/err"; fail "/proc: no message"; }
grep -q "results in" "$dir/err" && fail "--out /proc: the script ran"

# A file size limit stands for a full disk: writes fail with EFBIG (the
# signal ignored) and gnuplot's output is cut short.
(trap '' XFSZ; ulimit -f 16; "$MMSIM" --out "$dir/full" "$dir/small.lua" > /dev/null 2> "$dir/err")
[ $? -eq 1 ] || { cat "$dir/err"; fail "full disk: wanted exit 1"; }
grep -q "mmsim: error: cannot write $dir/full/.*: File too large" "$dir/err" ||
	grep -q "plot .*: gnuplot wrote no complete plot" "$dir/err" || { cat "$dir/err"; fail "full disk: no path"; }
grep -q "the results folder is incomplete" "$dir/err" || { cat "$dir/err"; fail "full disk: no summary line"; }
# Files are whole or absent: no plot is empty or cut short.
for f in "$dir"/full/*.png; do
	[ -e "$f" ] || continue
	tail -c 8 "$f" | od -An -c | grep -q "I   E   N   D" || fail "$f is cut short"
done
ls "$dir"/full/*.tmp > /dev/null 2>&1 && fail "temporary files left"
echo "ok: results are whole or the run fails"
