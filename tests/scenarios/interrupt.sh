#!/bin/sh
# SIGINT or SIGTERM at any moment stops the run at a consistent point:
# exit 130 (143), a summary marked interrupted with the simulated time
# reached, a timeseries.csv of whole rows, and the invariants hold; a run
# with an end reports the time it reached, not that end.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$dir/churn.lua" <<'LUA'
local m = mmsim.machine{ preset = "test", sample_interval = "20us" }
for cpu = 0, 3 do
  m:spawn{ cpu = cpu, fn = function()
    local held = {}
    while true do
      for i = 1, 32 do held[#held + 1] = m:alloc{ type = "movable", order = i % 4 } end
      while #held > 8 do m:free(table.remove(held, 1)) end
      mmsim.sleep("500ns")
    end
  end }
end
m:run()
LUA

# Until mmsim catches SIGINT and SIGTERM (SigCgt bits 1 and 14): a
# background job of a non-interactive shell starts with SIGINT ignored, so
# one sent before mmsim installs its handler would be lost, and the run,
# which never ends on its own, would go on for ever.
wait_for_handlers() {
	n=0
	while [ $n -lt 1000 ]; do
		cgt=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2> /dev/null) || return 1
		low=${cgt#"${cgt%????}"}
		[ -n "$low" ] && [ $((0x$low & 0x4002)) -eq $((0x4002)) ] && return 0
		sleep 0.01
		n=$((n + 1))
	done
	return 1
}

# interrupt SIGNAL DELAY WANT: stop a run DELAY seconds of wall time after
# it can be interrupted; a run the signal does not stop is killed after
# 5 minutes and fails.
interrupt() {
	out=$dir/res-$3-$2
	timeout -s KILL 300 "$MMSIM" --check-invariants --out "$out" "$dir/churn.lua" \
		> "$dir/out" 2> "$dir/err" &
	pid=$!
	n=0
	until mmsim_pid=$(pgrep -P $pid); do
		n=$((n + 1))
		[ $n -lt 1000 ] || fail "mmsim did not start"
		sleep 0.01
	done
	wait_for_handlers "$mmsim_pid" || { cat "$dir/err"; fail "mmsim never caught SIGINT"; }
	sleep "$2"
	kill -"$1" "$mmsim_pid"
	wait $pid
	status=$?
	[ $status -eq "$3" ] || { cat "$dir/err"; fail "$1 after $2 s: exit status $status, wanted $3"; }
	grep -q "\"interrupted\" : true" "$out/summary.json" ||
		{ cat "$out/summary.json"; fail "$1 after $2 s: summary not marked interrupted"; }
	grep -q '"sim_time_s"' "$out/summary.json" || fail "$1 after $2 s: no sim_time_s"
	grep -q "mmsim: interrupted by SIG$1 at" "$dir/err" || { cat "$dir/err"; fail "$1: no message"; }
	grep -q "invariants hold on" "$dir/err" || { cat "$dir/err"; fail "$1: invariants"; }
	# Whole rows: as many fields as the header, and a final newline.
	if [ -f "$out/timeseries.csv" ]; then
		awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$out/timeseries.csv" ||
			fail "$1 after $2 s: a partial row in timeseries.csv"
		[ -z "$(tail -c 1 "$out/timeseries.csv")" ] || fail "$1 after $2 s: last row cut"
	fi
	rm -rf "$out"
}

i=0
while [ $i -lt 20 ]; do
	# 0.2 to 1.1 s after the handlers: from the machine's construction
	# into the run.
	delay=$(awk -v r="$(od -An -N2 -tu2 /dev/urandom)" 'BEGIN { printf "%.2f", 0.2 + r % 900 / 1000 }')
	interrupt INT "$delay" 130
	i=$((i + 1))
done
interrupt TERM 0.6 143

# A run given an end (an hour of fast-forward) and interrupted long before
# it: the message, the summary's sim_time_s, the last timeseries row and
# the phase end at the time reached, not at the run's end (SimGrid's clock
# went on to it once the signal's stop had killed every thread).
sed 's/^m:run()$/m:run{ ["until"] = mmsim.time("1h"), timing = false }/' "$dir/churn.lua" \
	> "$dir/hour.lua"
out=$dir/res-hour
"$MMSIM" --out "$out" "$dir/hour.lua" > "$dir/out" 2> "$dir/err" &
pid=$!
wait_for_handlers "$pid" || { cat "$dir/err"; fail "mmsim never caught SIGTERM"; }
sleep 0.5
kill -TERM "$pid"
wait "$pid"
status=$?
[ $status -eq 143 ] || { cat "$dir/err"; fail "the hour: exit status $status, wanted 143"; }
at=$(sed -n 's/^mmsim: interrupted by SIGTERM at \([0-9.]*\) ms.*/\1/p' "$dir/err")
last=$(tail -n 1 "$out/timeseries.csv" | cut -d, -f1)
sim=$(sed -n 's/.*"sim_time_s" : \([0-9.e+-]*\).*/\1/p' "$out/summary.json")
ends=$(awk -F, 'NR > 1 { print $3 }' "$out/phases.csv" | tail -n 1)
echo "the hour, interrupted: at $at ms, last row $last ms, sim_time_s $sim, phase end $ends ms"
awk -v a="$at" -v l="$last" -v s="$sim" -v e="$ends" '
	function near(x) { d = x - a; return (d < 0 ? -d : d) <= a * 1e-6 }
	BEGIN { exit !(a > 0 && a < 3600000 && near(l) && near(s * 1000) && near(e)) }' ||
	fail "the hour: the interrupted run reports another time than the one it reached"
echo "ok: 22 interrupted runs"
