#!/bin/sh
# --out DIR (issue 34 item 16): two runs into one folder at once are
# refused (the second names the lock and exits 1, the first goes on), and
# a run into a folder an earlier run used leaves none of that run's own
# files beside its summary (timeseries, plots, lock_stat, ...); files of
# other names stay.
set -u
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2> /dev/null; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$dir/spin.lua" <<'LUA'
local m = mmsim.machine{ preset = "test" }
local spin = mmsim.params{ spin = 0 }.spin
local t = os.clock()
while os.clock() - t < spin do end
m:run{ duration = "1ms" }
LUA
printf 'local m = mmsim.machine{ preset = "test" }\n' > "$dir/idle.lua"

# The first run holds the folder for 3 s of CPU time.
"$MMSIM" --out "$dir/out" "$dir/spin.lua" -D spin=3 > /dev/null 2> "$dir/err1" &
pid=$!
n=0
until [ -f "$dir/out/.mmsim.lock" ]; do
	[ $n -ge 300 ] && fail "the first run made no lock file"
	sleep 0.05
	n=$((n + 1))
done
if "$MMSIM" --out "$dir/out" "$dir/idle.lua" > /dev/null 2> "$dir/err2"; then
	fail "a second run into a folder in use went ahead"
fi
grep -q "results folder $dir/out is in use by another mmsim run" "$dir/err2" ||
	{ cat "$dir/err2"; fail "no clear error for the folder in use"; }
wait "$pid" || { cat "$dir/err1"; fail "the first run failed"; }
pid=
[ -f "$dir/out/timeseries.csv" ] || fail "the first run wrote no timeseries.csv"
[ -f "$dir/out/summary.json" ] || fail "the first run wrote no summary.json"

# Reused: the idle run writes no timeseries, lock_stat or schedstat; the
# first run's are gone, a file of the user's stays.
echo note > "$dir/out/notes.txt"
"$MMSIM" --out "$dir/out" "$dir/idle.lua" > /dev/null 2> "$dir/err3" || { cat "$dir/err3"; fail "rerun"; }
for f in timeseries.csv lock_stat schedstat cpu_wait.csv; do
	[ ! -e "$dir/out/$f" ] || fail "$f of the earlier run kept beside the new summary"
done
[ -f "$dir/out/notes.txt" ] || fail "a file of another name was removed"
grep -q idle.lua "$dir/out/summary.json" || fail "the summary is not the new run's"
