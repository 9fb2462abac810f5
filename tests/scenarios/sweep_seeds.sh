#!/bin/sh
# sim/sweep.sh's seeds and plot options, with a fake mmsim (MMSIM_BIN) whose
# figures are a table of the seed: --seeds N and --sweep seed= run each
# combination with mmsim's --seed; runs.csv keeps every run, sweep.csv a
# row per combination with n, mean, min, max and sample standard deviation
# worked by hand below; a failed seed leaves n = 2 and its rerun alone
# runs again; the plots say "mean, bars min-max over N seeds", name the
# machine in their titles, take the scenario's sweep-label, mark the
# phases and draw the timeseries mean over the seeds; logx and logy are
# accepted, a mistyped option is refused before any run; and every plot
# that is skipped or cannot be drawn says why on stderr and in plots.txt.
set -eu
command -v parallel > /dev/null || { echo "GNU parallel not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The fake: seed s of policy upstream waits 0.1, 0.2, 0.6 of its time and
# takes the lock 10, 20, 60 times (at the default 16 CPUs, in proportion
# to them); policy spb waits 0.05 and takes it 2, 4, 6 times.  "note"
# differs between seeds, "version" does not, "scenario" needs quotes; a
# machine.title column from $dir/title if there is one.  timeseries.csv
# (none if $dir/nots exists): gb_movable_only is 6 until 10 ms, then 6 -
# seed; gb_total_regions stays 7.  phases.csv: aging, then allocation
# from 10 ms.  It fails for the settings in $dir/fail, and logs each run.
cat > "$dir/fake-mmsim" <<'FAKE'
#!/bin/sh
set -eu
here=$(dirname "$0")
out=""
seed=1
defs=""
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	-D) defs="$defs $2"; shift 2 ;;
	--params) exit 0 ;;
	*.lua) shift ;;
	*) echo "fake mmsim: unexpected argument $1" >&2; exit 2 ;;
	esac
done
policy=upstream
cpus=16
for kv in $defs; do eval "${kv%%=*}=\${kv#*=}"; done
echo "$policy $cpus $seed" >> "$here/calls"
[ -f "$here/fail" ] && [ "$policy $seed" = "$(cat "$here/fail")" ] && exit 3
mkdir -p "$out"
title=""
[ ! -f "$here/title" ] || title="$(cat "$here/title"),"
printf 'version,%sscenario,seed,params.policy,machine.name,machine.nodes,machine.cpus,machine.memory_mib,note,zone_lock.wait_share,zone_lock.acquisitions\n' \
	"${title:+machine.title,}" > "$out/summary.csv"
awk -v p="$policy" -v s="$seed" -v c="$cpus" -v t="$title" 'BEGIN {
	split("0.1 0.2 0.6", up_share, " "); split("10 20 60", up_acq, " ")
	printf "0.1.0,%s\"a \"\"b\"\",c.lua\",%d,%s,2s-1t,2,%d,32768,n%d,%s,%g\n", t, s, p, c, s,
		p == "upstream" ? up_share[s] : 0.05, (p == "upstream" ? up_acq[s] : 2 * s) * c / 16 }' \
	>> "$out/summary.csv"
[ -f "$here/nots" ] ||
	printf 'time_ms,gb_movable_only,gb_total_regions\n0,6,7\n5,6,7\n10,%d,7\n20,%d,7\n' \
		$((6 - seed)) $((6 - seed)) > "$out/timeseries.csv"
printf 'phase,start_ms,end_ms\naging,0,10\nallocation,10,20\n' > "$out/phases.csv"
FAKE
chmod +x "$dir/fake-mmsim"
export MMSIM_BIN="$dir/fake-mmsim"
sweep() { sh "$MMSIM_SRCDIR/sim/sweep.sh" "$@"; }
printf -- '-- a scenario\n-- sweep-label: zone_lock.acquisitions lock taken (count)\n' > "$dir/s.lua"
calls() { wc -l < "$dir/calls"; }

# Seed 2 of spb fails: spb's row is over seeds 1 and 3.
echo "spb 2" > "$dir/fail"
if sweep --sweep policy=upstream,spb --seeds 3 --plot y=zone_lock.acquisitions -D plot_format=svg \
		--out "$dir/out" "$dir/s.lua" > /dev/null 2> "$dir/err"; then
	fail "a failed seed went unnoticed"
fi
grep -q 'run policy=spb,seed=2 failed (exit status 3)' "$dir/err" || { cat "$dir/err"; fail "failure line"; }
test "$(calls)" -eq 6 || fail "$(calls) runs"
# runs.csv: every run, the seed a swept key.
head -n 1 "$dir/out/runs.csv" | grep -q '^policy,seed,version,scenario,seed,params.policy,' ||
	fail "runs.csv header: $(head -n 1 "$dir/out/runs.csv")"
test "$(wc -l < "$dir/out/runs.csv")" -eq 6 || fail "runs.csv rows"
grep -q '^upstream,3,0.1.0,"a ""b"",c.lua",3,upstream,' "$dir/out/runs.csv" || fail "runs.csv row"
# By hand, spb over seeds 1 and 3: acquisitions 2 and 6, mean 4, sd
# sqrt(((2-4)^2 + (6-4)^2) / 1) = sqrt(8) = 2.82842712474619; wait share
# 0.05 both times, sd 0.
cat > "$dir/expected" <<'CSV'
policy,n,version,scenario,params.policy,machine.name,machine.nodes,machine.nodes.min,machine.nodes.max,machine.nodes.sd,machine.cpus,machine.cpus.min,machine.cpus.max,machine.cpus.sd,machine.memory_mib,machine.memory_mib.min,machine.memory_mib.max,machine.memory_mib.sd,zone_lock.wait_share,zone_lock.wait_share.min,zone_lock.wait_share.max,zone_lock.wait_share.sd,zone_lock.acquisitions,zone_lock.acquisitions.min,zone_lock.acquisitions.max,zone_lock.acquisitions.sd
upstream,3,0.1.0,"a ""b"",c.lua",upstream,2s-1t,2,2,2,0,16,16,16,0,32768,32768,32768,0,0.3,0.1,0.6,0.264575131106459,30,10,60,26.4575131106459
spb,2,0.1.0,"a ""b"",c.lua",spb,2s-1t,2,2,2,0,16,16,16,0,32768,32768,32768,0,0.05,0.05,0.05,0,4,2,6,2.82842712474619
CSV
# By hand, upstream over seeds 1-3: share 0.1, 0.2, 0.6: mean 0.3,
# deviations -0.2, -0.1, 0.3, sd sqrt((0.04 + 0.01 + 0.09) / 2) =
# sqrt(0.07) = 0.264575131106459; acquisitions 10, 20, 60: mean 30, sd
# sqrt((400 + 100 + 900) / 2) = sqrt(700) = 26.4575131106459.  "note"
# differs between seeds and is left out, with a word on stderr.
diff "$dir/expected" "$dir/out/sweep.csv" || fail "sweep.csv after the failure"
grep -q "leaves out what differs between seeds and is not a number (runs.csv has it): note" \
	"$dir/err" || fail "no word on note"
grep -q '>2s-1t: 2 nodes, 16 CPUs, 32 GiB<' "$dir/out/sweep.svg" &&
	grep -q '>mean, bars min-max over 2-3 seeds<' "$dir/out/sweep.svg" ||
	fail "the bars' note with 2-3 seeds"

# The rerun runs seed 2 of spb alone: acquisitions 2, 4, 6, mean 4, sd 2.
rm "$dir/fail"
sweep --sweep policy=upstream,spb --seeds 3 --plot y=zone_lock.acquisitions -D plot_format=svg \
	--out "$dir/out" "$dir/s.lua" > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail "rerun"; }
test "$(calls)" -eq 7 || fail "the rerun ran $(($(calls) - 6)) runs"
sed -i 's/^spb,2,\(.*\),4,2,6,2.82842712474619$/spb,3,\1,4,2,6,2/' "$dir/expected"
diff "$dir/expected" "$dir/out/sweep.csv" || fail "sweep.csv after the rerun"
# The plot: bars (policy is not a number) with the values on them, the
# scenario's label; the title's second line the machine (from machine.*:
# the preset, nodes, CPUs, memory), its third the seeds.
grep -q '<text>30</text>' "$dir/out/sweep.svg" || fail "no value on upstream's bar"
grep -q '>lock taken (count)<' "$dir/out/sweep.svg" || fail "sweep-label"
grep -q '>s<' "$dir/out/sweep.svg" || fail "title"
grep -q '>2s-1t: 2 nodes, 16 CPUs, 32 GiB<' "$dir/out/sweep.svg" &&
	grep -q '>mean, bars min-max over 3 seeds<' "$dir/out/sweep.svg" ||
	fail "machine and the bars' note"
grep -q '^sweep.svg: bars of lock taken (count) by policy; mean, bars min-max over 3 seeds$' \
	"$dir/out/plots.txt" || fail "plots.txt: $(cat "$dir/out/plots.txt")"
# The timeseries: per policy the mean over the seeds, min to max.  By
# hand, upstream from 10 ms: (5 + 4 + 3) / 3 = 4, min 3, max 5; a step is
# two rows at its time (before, after).
grep -q '^10 6 6 6 3$' "$dir/out/sweep-gb_yield.dat" || fail "the step's first row"
grep -q '^10 4 3 5 3$' "$dir/out/sweep-gb_yield.dat" || fail "the mean over the seeds"
grep -q '>aging<' "$dir/out/sweep-gb_yield.svg" || fail "phase aging not marked"
grep -q '>allocation<' "$dir/out/sweep-gb_yield.svg" || fail "phase allocation not marked"
grep -q '>upstream<' "$dir/out/sweep-gb_yield.svg" || fail "line titles"
grep -q '>mean over 3 seeds, band min-max<' "$dir/out/sweep-gb_yield.svg" ||
	fail "timeseries note"

# --sweep seed= is the same sweep as --seeds; machine.title wins.
echo "A big box" > "$dir/title"
sweep --sweep policy=upstream,spb --sweep seed=1,2,3 -D plot_format=svg --out "$dir/explicit" \
	"$dir/s.lua" > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail "--sweep seed="; }
grep -q '^upstream,3,0.1.0,A big box,' "$dir/explicit/sweep.csv" || fail "machine.title column"
grep -q '>A big box<' "$dir/explicit/sweep.svg" ||
	fail "machine.title not in the title"

# Refused before any run, with the reason.
n=$(calls)
refused() {     # MESSAGE ARGS...: the sweep fails naming MESSAGE, runs nothing
	msg=$1
	shift
	if sweep "$@" > /dev/null 2> "$dir/err"; then fail "accepted: $*"; fi
	grep -qF -- "$msg" "$dir/err" || { cat "$dir/err"; fail "message for $*"; }
	test "$(calls)" -eq "$n" || fail "$* ran"
}
refused "--seeds wants a number of seeds (1 or more), not '0'" --sweep policy=spb --seeds 0 \
	--out "$dir/r1" "$dir/s.lua"
refused "--seeds N and --sweep seed=...: choose one" --sweep seed=1,2 --seeds 2 \
	--out "$dir/r2" "$dir/s.lua"
refused "seed is swept and set with --seed: drop --seed" --seeds 2 --out "$dir/r3" "$dir/s.lua" \
	--seed 4
refused "seeds are whole numbers" --sweep seed=1,x --out "$dir/r4" "$dir/s.lua"
refused "--sweep seed=1,2,1: 1 given twice" --sweep seed=1,2,1 --out "$dir/r5" "$dir/s.lua"
refused "--plot 'y=zone_lock.acquisitions,logz': 'logz': expected y=COLUMN, x=PARAM, series=PARAM, logx or logy" \
	--sweep cpus=2,4 --plot y=zone_lock.acquisitions,logz --out "$dir/r6" "$dir/s.lua"
refused "--plot 'x=cpu': cpu is not a swept parameter (swept: cpus)" --sweep cpus=2,4 \
	--plot x=cpu --out "$dir/r7" "$dir/s.lua"
refused "--plot 'x=seed': seed is never x or series" --sweep cpus=2,4 --seeds 2 --plot x=seed \
	--out "$dir/r10" "$dir/s.lua"
printf -- '-- sweep-plot: y=zone_lock.acquisitions,logq\n' > "$dir/bad.lua"
refused "$dir/bad.lua:1: -- sweep-plot: 'logq': expected" --sweep cpus=2,4 --out "$dir/r8" "$dir/bad.lua"
printf -- '-- sweep-label: results.x\n' > "$dir/bad.lua"
refused "$dir/bad.lua:1: -- sweep-label: expected a key and its label" --sweep cpus=2,4 \
	--out "$dir/r9" "$dir/bad.lua"

# logx and logy: CPU counts 2 and 4 (linear by default: a tic at 3.5),
# acquisitions 1.25 and 2.5 (linear: tics at 0 and 0.5; log: from 1).
# From --plot and from the scenario's line.
sweep --sweep cpus=2,4 --plot y=zone_lock.acquisitions,series= -D plot_format=svg \
	--out "$dir/lin" "$dir/s.lua" > /dev/null 2>&1 || fail "linear"
grep -q '<text> 3.5</text>' "$dir/lin/sweep.svg" || fail "linear x"
grep -q '<text> 0.5</text>' "$dir/lin/sweep.svg" || fail "linear y"
grep -q '<text> 0</text>' "$dir/lin/sweep.svg" || fail "linear y from 0"
sweep --sweep cpus=2,4 --plot y=zone_lock.acquisitions,series=,logx,logy -D plot_format=svg \
	--out "$dir/log" "$dir/s.lua" > /dev/null 2>&1 || fail "logx,logy"
printf -- '-- sweep-plot: y=zone_lock.acquisitions,series=,logx,logy\n' > "$dir/log.lua"
sweep --sweep cpus=2,4 -D plot_format=svg --out "$dir/log2" "$dir/log.lua" > /dev/null 2>&1 ||
	fail "logx,logy in the scenario"
for d in log log2; do
	if grep -q '<text> 3.5</text>' "$dir/$d/sweep.svg"; then fail "$d: x not log"; fi
	if grep -q '<text> 0.5</text>' "$dir/$d/sweep.svg"; then fail "$d: y not log"; fi
	if grep -q '<text> 0</text>' "$dir/$d/sweep.svg"; then fail "$d: y from 0"; fi
	grep -q '<text> 1</text>' "$dir/$d/sweep.svg" || fail "$d: log y not from 1"
done

# Every plot skipped or not drawn says why, on stderr and in plots.txt.
skips() {       # DIR PLOT REASON: stderr ($dir/err) and DIR/plots.txt say it
	grep -qF "sweep: no $2: $3" "$dir/err" || { cat "$dir/err"; fail "stderr: $2: $3"; }
	grep -qF "$2: not drawn: $3" "$1/plots.txt" || { cat "$1/plots.txt"; fail "plots.txt: $2: $3"; }
}
# Seeds alone: nothing to plot against.  The timeseries has one line.
sweep --seeds 2 --out "$dir/k1" "$dir/s.lua" > /dev/null 2> "$dir/err" || fail "--seeds alone"
skips "$dir/k1" sweep.png "no swept parameter to plot against (seed is not one)"
grep -q '^sweep-gb_yield.png: ' "$dir/k1/plots.txt" || fail "one line over the seeds"
# Nine lines: too many.
sweep --sweep cpus=1,2,3,4,5,6,7,8,9 --out "$dir/k2" "$dir/s.lua" > /dev/null 2> "$dir/err" ||
	fail "nine"
skips "$dir/k2" sweep-gb_yield.png "9 lines, more than the 8 a plot keeps readable"
sweep --sweep cpus=1,2,3,4,5,6,7,8,9 --seeds 2 --out "$dir/k3" "$dir/s.lua" > /dev/null 2> "$dir/err" ||
	fail "nine with seeds"
skips "$dir/k3" sweep-gb_yield.png "9 lines (combinations, each the mean over its seeds), more than"
# A column the runs lack, another that never moves, a y the summary
# lacks, no timeseries.csv.
printf -- '-- sweep-timeseries: gb_free_now free (count)\n' > "$dir/t.lua"
sweep --sweep cpus=2,4 --out "$dir/k4" "$dir/t.lua" > /dev/null 2> "$dir/err" || fail "k4"
skips "$dir/k4" sweep-gb_free_now.png "timeseries.csv has no column gb_free_now"
printf -- '-- sweep-timeseries: gb_total_regions regions (count)\n-- sweep-plot: y=results.none\n' \
	> "$dir/t.lua"
sweep --sweep cpus=2,4 --out "$dir/k5" "$dir/t.lua" > /dev/null 2> "$dir/err" || fail "k5"
skips "$dir/k5" sweep-gb_total_regions.png "gb_total_regions never moved in any run"
skips "$dir/k5" sweep.png "sweep.csv has no column results.none"
touch "$dir/nots"
sweep --sweep cpus=2,4 --out "$dir/k6" "$dir/s.lua" > /dev/null 2> "$dir/err" || fail "k6"
skips "$dir/k6" sweep-gb_yield.png "the runs wrote no timeseries.csv"
# gnuplot fails: the plot cannot be drawn, the sweep fails, and says why.
mkdir "$dir/plots"
cp "$MMSIM_SRCDIR"/plots/*.gp "$dir/plots/"
echo 'this is not gnuplot' >> "$dir/plots/sweep.gp"
if MMSIM_PLOTSDIR=$dir/plots sweep --sweep cpus=2,4 --out "$dir/k7" "$dir/s.lua" \
		> /dev/null 2> "$dir/err"; then
	fail "a failed plot went unnoticed"
fi
skips "$dir/k7" sweep.png "gnuplot failed:"
grep -q 'invalid command' "$dir/k7/plots.txt" || fail "gnuplot's message"
echo "seeds, sweep.csv's statistics, plot options and skips as expected"
