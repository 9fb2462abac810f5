#!/bin/sh
# sim/sweep.sh with a fake mmsim (MMSIM_BIN) that writes a summary.csv from
# its -D settings: sweep.csv collects every run with the swept parameters
# first, a rerun with the same --out reruns only the failed run and then
# nothing (or a run that lost its summary.csv), another sweep into the same folder is refused, sweep.png is a
# non-empty PNG, -D plot_format=svg gives sweep.svg, and a scenario's
# "-- sweep-plot:" line chooses the figure unless --plot does, and runs
# with other figures than the others fill every column they have.
set -eu
command -v parallel > /dev/null || { echo "GNU parallel not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# The fake: logs each call; fails if its settings are $dir/fail's content.
cat > "$dir/fake-mmsim" <<'FAKE'
#!/bin/sh
set -eu
log=$(dirname "$0")/calls
out=""
defs=""
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	-D) defs="$defs $2"; shift 2 ;;
	--params) exit 0 ;;     # the sweep's check: tests/scenarios/sweep_remote.sh
	*.lua) scenario=$1; shift ;;
	*) echo "fake mmsim: unexpected argument $1" >&2; exit 2 ;;
	esac
done
echo "$defs" >> "$log"
[ -f "$(dirname "$0")/fail" ] && [ "$defs" = "$(cat "$(dirname "$0")/fail")" ] && exit 3
for kv in $defs; do eval "${kv%%=*}=\${kv#*=}"; done
echo "ran $scenario"
# Policy spb has one more figure, as mmsim's spb_walk.*.
if [ "$policy" = spb ]; then
	printf 'params.cpus,params.policy,spb_walk.sections,params.work_ns,zone_lock.wait_share\n'
	echo "$cpus,$policy,$((cpus * 3)),$work_ns,0.5"
else
	printf 'params.cpus,params.policy,params.work_ns,zone_lock.wait_share\n'
	awk -v c="$cpus" -v p="$policy" -v w="$work_ns" 'BEGIN {
		printf "%d,%s,%d,%g\n", c, p, w, c / (p == "upstream" ? 100 : 400) }'
fi > "$out/summary.csv"
FAKE
chmod +x "$dir/fake-mmsim"

sweep() {
	MMSIM_BIN=$dir/fake-mmsim sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep cpus=8,16,32 \
		--sweep policy=upstream,pcp_buddy --out "$dir/out" -j 3 \
		"$MMSIM_SRCDIR/scenarios/cross-cpu-churn.lua" -D work_ns=500
}

# One run fails: the others are collected, the status is 1.
echo " cpus=16 policy=pcp_buddy work_ns=500" > "$dir/fail"
status=0
sweep > "$dir/stdout" 2> "$dir/stderr" || status=$?
cat "$dir/stderr"
[ "$status" -eq 1 ]
grep -q 'run cpus=16,policy=pcp_buddy failed' "$dir/stderr"
[ "$(cat "$dir/stdout")" = "$dir/out" ]
[ "$(wc -l < "$dir/calls")" -eq 6 ]
[ "$(wc -l < "$dir/out/sweep.csv")" -eq 6 ]
grep -qx 'ran .*cross-cpu-churn.lua' "$dir/out/cpus=8,policy=upstream/stdout"

# The rerun runs the failed run only, then nothing at all.
rm "$dir/fail"
sweep > "$dir/stdout"
[ "$(wc -l < "$dir/calls")" -eq 7 ]
sweep > "$dir/stdout"
[ "$(wc -l < "$dir/calls")" -eq 7 ]
cat > "$dir/expected" <<'CSV'
cpus,policy,params.cpus,params.policy,params.work_ns,zone_lock.wait_share
8,upstream,8,upstream,500,0.08
8,pcp_buddy,8,pcp_buddy,500,0.02
16,upstream,16,upstream,500,0.16
16,pcp_buddy,16,pcp_buddy,500,0.04
32,upstream,32,upstream,500,0.32
32,pcp_buddy,32,pcp_buddy,500,0.08
CSV
diff "$dir/expected" "$dir/out/sweep.csv"
# A run without its summary.csv is not done.
rm "$dir/out/cpus=32,policy=upstream/summary.csv"
sweep > "$dir/stdout"
[ "$(wc -l < "$dir/calls")" -eq 8 ]
diff "$dir/expected" "$dir/out/sweep.csv"

# A PNG, and not a tiny one.
[ "$(head -c 4 "$dir/out/sweep.png" | tail -c 3)" = PNG ]
[ "$(wc -c < "$dir/out/sweep.png")" -gt 5000 ]

# Another sweep into the same folder would mix up the joblog's numbering.
if MMSIM_BIN=$dir/fake-mmsim sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep cpus=8,64 \
		--out "$dir/out" "$MMSIM_SRCDIR/scenarios/cross-cpu-churn.lua" 2> "$dir/stderr"; then
	exit 1
fi
grep -q 'holds another sweep' "$dir/stderr"
[ "$(wc -l < "$dir/calls")" -eq 8 ]
# An explicit plot, one line, as SVG.
MMSIM_BIN=$dir/fake-mmsim sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep cpus=2,4 \
	--sweep policy=upstream --plot 'x=cpus,series=' --out "$dir/svg" \
	"$MMSIM_SRCDIR/scenarios/cross-cpu-churn.lua" -D work_ns=1 -D plot_format=svg > /dev/null
grep -q '<svg' "$dir/svg/sweep.svg"
# A scenario's own default figure ("-- sweep-plot:"), which --plot overrides.
printf -- '-- sweep-plot: y=params.work_ns,series=\n' > "$dir/own.lua"
MMSIM_BIN=$dir/fake-mmsim sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep cpus=2,4 \
	--sweep policy=upstream --out "$dir/own" "$dir/own.lua" -D work_ns=1 \
	-D plot_format=svg > /dev/null
grep -q '>work (ms)<' "$dir/own/sweep.svg"
MMSIM_BIN=$dir/fake-mmsim sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep cpus=2,4 \
	--sweep policy=upstream --plot y=zone_lock.wait_share --out "$dir/over" "$dir/own.lua" \
	-D work_ns=1 -D plot_format=svg > /dev/null
grep -q '>zone->lock wait share (%)<' "$dir/over/sweep.svg"
# The title: the scenario and the -D settings.
grep -q '>own (work_ns=1)<' "$dir/over/sweep.svg"
# The x axis of CPU counts spanning 4x or more is log2: tics at 2, 4, 8.
MMSIM_BIN=$dir/fake-mmsim sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep cpus=2,4,8 \
	--sweep policy=upstream --out "$dir/log" "$dir/own.lua" -D work_ns=1 \
	-D plot_format=svg > /dev/null
grep -q '>CPUs (threads)<' "$dir/log/sweep.svg"
grep -q '<text> 4</text>' "$dir/log/sweep.svg"
if grep -q '<text> 6</text>' "$dir/log/sweep.svg"; then exit 1; fi
# A sweep over policies alone: a bar per policy, from sweep.dat (in %),
# its value printed on it.
MMSIM_BIN=$dir/fake-mmsim sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep policy=upstream,pcp_buddy \
	--out "$dir/bars" "$MMSIM_SRCDIR/scenarios/cross-cpu-churn.lua" -D cpus=8 -D work_ns=1 \
	-D plot_format=svg > /dev/null
printf '%s\n' '# sweep.dat: x_index x mean min max runs, a block per series' \
	'# zone_lock.wait_share' '1 upstream 8 8 8 1' '2 pcp_buddy 2 2 2 1' |
	diff - "$dir/bars/sweep.dat"
grep -q '>pcp_buddy<' "$dir/bars/sweep.svg"
grep -q '>policy<' "$dir/bars/sweep.svg"
grep -q '<text>8</text>' "$dir/bars/sweep.svg"
grep -q '<text>2</text>' "$dir/bars/sweep.svg"
# Runs with other figures: every column, empty where a run has none.
MMSIM_BIN=$dir/fake-mmsim sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep policy=upstream,spb \
	--out "$dir/union" "$MMSIM_SRCDIR/scenarios/cross-cpu-churn.lua" -D cpus=8 -D work_ns=1 \
	-D plot_format=svg > /dev/null
cat > "$dir/expected" <<'CSV'
policy,params.cpus,params.policy,params.work_ns,zone_lock.wait_share,spb_walk.sections
upstream,8,upstream,1,0.08,
spb,8,spb,1,0.5,24
CSV
diff "$dir/expected" "$dir/union/sweep.csv"
echo "sweep.csv, resume and plots as expected"
