#!/bin/sh
# timeseries.csv on a full disk (issue 34 item 19): the first row that
# cannot be written is cut off again and no more rows are tried, so the
# error is said once (it was said once per sample) and the file ends in a
# whole row (it ended in half of one); the run exits 1.  A file size limit
# stands for the full disk (writes past it fail with EFBIG).
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$dir/samples.lua" <<'LUA'
local m = mmsim.machine{ preset = "test", sample_interval = "10us" }
m:spawn{ cpu = 0, fn = function() for _ = 1, 2000 do mmsim.sleep(10000) end end }
m:run()
LUA
(trap '' XFSZ; ulimit -f 24; "$MMSIM" --out "$dir/out" "$dir/samples.lua" > /dev/null 2> "$dir/err")
rc=$?
[ $rc -eq 1 ] || { cat "$dir/err"; fail "exit $rc, wanted 1"; }
n=$(grep -c "cannot write $dir/out/timeseries.csv" "$dir/err")
[ "$n" -eq 1 ] || fail "the timeseries error said $n times"
grep -q "no more rows written (it ends in its last whole row)" "$dir/err" || { cat "$dir/err"; fail "message"; }
grep -q "the results folder is incomplete" "$dir/err" || fail "no summary line"
ts=$dir/out/timeseries.csv
[ "$(wc -c < "$ts")" -gt 1000 ] || fail "timeseries.csv holds $(wc -c < "$ts") bytes"
[ "$(tail -c 1 "$ts" | od -An -c | tr -d ' ')" = '\n' ] || fail "timeseries.csv ends in part of a row"
awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' "$ts" || fail "a row of another width"
