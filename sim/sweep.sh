#!/bin/sh
# Parameter sweeps (./run --sweep ...).
#
#   sweep.sh --sweep KEY=V1,V2,... [--sweep KEY=...]... [--seeds N]
#            [--plot SPEC] [--out DIR] [-j N]
#            [--hosts FILE [--ssh CMD] [--remote-mmsim PATH] [--cleanup]
#             | --slurm [--slurm-opt OPTS] | --collect [--rerun-failed [--slurm-opt OPTS]]]
#            SCENARIO.lua [mmsim options, e.g. -D k=v]
#
# Every combination of the swept values runs as its own process,
#   mmsim --out DIR/k1=v1,k2=v2 -D k1=v1 -D k2=v2 [mmsim options] SCENARIO.lua
# with its stdout and stderr in that folder, N at a time (default: the
# number of cores) through GNU parallel.  The key seed is mmsim's --seed:
# --sweep seed=1,2,3 runs each combination of the other keys with those
# seeds (--seed 1 ...), --seeds N with seeds 1 to N (the last key).  The
# runs' summary.csv files are then collected, the swept keys as first
# columns, then every column any run has (empty where a run has no such
# figure, as spb_walk.* outside policy spb), into DIR/sweep.csv; with
# seeds swept, into DIR/runs.csv (a row per run, seed included), and
# DIR/sweep.csv has a row per combination of the other keys: those keys,
# n (the runs that succeeded), then each figure F that is a number in
# every run having it as its mean F and its F.min, F.max and F.sd (the
# sample standard deviation; empty when n is 1, all four empty where the
# combination's runs lack it); a
# figure that is not a number is kept when the runs of each combination
# agree on it.  A figure is plotted into DIR/sweep.png (sweep.pdf or
# sweep.svg with -D plot_format=pdf|svg among the mmsim options): the
# mean, with bars from min to max when seeds are swept.
#
# SPEC is y=COLUMN,x=PARAM,series=PARAM,logx,logy (each optional).  By
# default y is zone_lock.wait_share, x the first swept parameter whose
# values are all numbers (not the series), series the first other swept
# parameter (series= for none); seed is never x or series.  A scenario
# may choose its own defaults with a line "-- sweep-plot: SPEC"; --plot's
# settings take precedence.  Lines "-- sweep-label: KEY LABEL" name a
# summary key on the axes (results.* keys have no words of their own).
# With a non-numeric x the figure is a bar chart.  A missing column skips
# the plot, and with --plot fails the sweep.  DIR/sweep-gb_yield.png
# draws gb_movable_only of the runs' timeseries.csv over time, or with a
# line "-- sweep-timeseries: COLUMN LABEL" in the scenario that column,
# into DIR/sweep-COLUMN.png: a line per run, or with seeds swept the mean
# over the seeds of each combination with its min-max band, when there
# are 8 lines or fewer.  The phases of the first run's phases.csv are
# marked on it.  Each plot drawn or skipped, and why, is a line of
# DIR/plots.txt (skips are on stderr too).
#
# DIR defaults to results/sweep-<scenario>-<UTC timestamp>.  Rerun with the
# same --out and arguments, a sweep skips the runs that finished (exit
# status 0 and a summary.csv) and reruns the failed or interrupted ones:
# jobs are numbered in the order of DIR/jobs and parallel's --resume-failed
# reads DIR/joblog by those numbers, so a rerun with other swept values or
# options is refused.
#
# Before any run, every swept key and value is checked against the
# scenario's parameters: mmsim --params with each key set to its first
# values, then its second ones, and so on (as many dry runs as the longest
# list of values, each stopping at mmsim.params).  A failed run is named
# with its exit status and the last lines of its stderr.
#
# --hosts FILE runs the combinations on the machines FILE lists (GNU
# parallel's --sshloginfile: a line per host, "N/host" for N runs at once
# there, ":" for this one, which runs in the current directory): each host
# works in ~/.mmsim-sweep/DIRNAME-TIME-PID, gets sweep.sh, the scenario (at
# its relative path, or by its name when it lies outside the current
# directory) and this mmsim, or runs its own with --remote-mmsim PATH, and
# each run's folder comes back into DIR (parallel's --wd, --basefile and
# --return, through rsync); --cleanup removes the hosts' folders after.
# --ssh CMD replaces ssh (parallel's --ssh).
#
# --slurm writes DIR/sweep.slurm, a Slurm array job of one task per
# combination (at most N at once, one CPU each unless --slurm-opt says
# otherwise; --slurm-opt's words go on an #SBATCH line, and are kept in
# DIR/slurm-opts for later submissions), and submits the runs neither done
# nor queued with sbatch --array=LIST, recording each job in
# DIR/slurm-jobs.  Each task skips a run already done (not one a signal
# stopped, as Slurm does a task it requeues) and leaves its
# joblog line in DIR/tasks/SEQ (written whole then renamed, no lock).
# --collect gathers: the tasks' lines into DIR/joblog, sweep.csv and the
# plots of the runs done, sacct's account into DIR/sacct.txt where Slurm
# keeps one, and a line per run pending or running (squeue), failed or not
# run; it runs nothing, but with --rerun-failed submits the failed and not
# run ones again.  A Slurm sweep's folder is never run here.
#
# SIGINT or SIGTERM stops a sweep: the runs stopped are named interrupted,
# those not started not run; no sweep.csv nor plot is made, and the exit
# status is 130 (143).  The rerun resumes them.
#
# MMSIM_BIN replaces the mmsim binary (tests use a fake), MMSIM_PLOTSDIR
# the plots directory.
set -euf        # no globbing: values are split on commas and spaces
# One run, as parallel starts it: --run-one OUT COMBINATION MMSIM [ARGS...].
# First, before anything is sourced: --hosts sends this file alone.
# The settings of the combination (-D KEY=VALUE, --seed N for the key
# seed) go before the other arguments.
if [ "${1:-}" = --run-one ]; then
	dir=$2/$3
	combo=$3
	mmsim=$4
	shift 4
	n=$#
	for kv in $(echo "$combo" | tr , ' '); do
		case $kv in
		seed=*) set -- "$@" --seed "${kv#seed=}" ;;
		*) set -- "$@" -D "$kv" ;;
		esac
	done
	while [ "$n" -gt 0 ]; do     # rotate the original arguments to the end
		set -- "$@" "$1"
		shift
		n=$((n - 1))
	done
	mkdir -p "$dir"
	exec "$mmsim" --out "$dir" "$@" > "$dir/stdout" 2> "$dir/stderr"
fi

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/labels.sh"
. "$here/csv.sh"

die() {
	echo "sweep: $*" >&2
	exit 1
}

# csv.sh's awk functions and two more: csv_col(LINE, NAME) is the index of
# the field NAME in LINE (0: none), is_number(S) says whether S is a number.
sweep_awk="$csv_awk"'
function csv_col(line, name,    f, n, i) {
	n = csv_split(line, f)
	for (i = 1; i <= n; i++) if (f[i] == name) return i
	return 0
}
function is_number(s) {
	return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/
}
'

usage() {
	echo "usage: ./run --sweep KEY=V1,V2,... [--sweep ...] [--seeds N]" >&2
	echo "             [--plot y=COL,x=PARAM,series=PARAM,logx,logy]" >&2
	echo "             [--out DIR] [-j N] [--hosts FILE [--ssh CMD] [--remote-mmsim PATH] [--cleanup]" >&2
	echo "             | --slurm [--slurm-opt OPTS] | --collect [--rerun-failed]]" >&2
	echo "             SCENARIO.lua [mmsim options]" >&2
	exit 2
}

# ---- the command line: sweep options out, everything else kept in order ----
sweeps=""       # one KEY=V1,V2,... per line
plot=""
plot_given=false
out=""
jobs=""
seeds=""
hosts=""
ssh=""
slurm=false
slurm_opts=""   # the --slurm-opt words, one a line
collect=false
rerun_failed=false
cleanup=false
remote_mmsim=""
n=$#
while [ "$n" -gt 0 ]; do
	a=$1
	shift
	n=$((n - 1))
	case $a in
	--slurm|--collect|--rerun-failed|--cleanup)
		case $a in
		--slurm) slurm=true ;;
		--collect) collect=true ;;
		--rerun-failed) rerun_failed=true ;;
		*) cleanup=true ;;
		esac
		continue
		;;
	--sweep|--plot|--out|-j|--hosts|--ssh|--seeds|--slurm-opt|--remote-mmsim)
		[ "$n" -gt 0 ] || usage
		v=$1
		shift
		n=$((n - 1))
		;;
	--sweep=*|--plot=*|--out=*|--hosts=*|--ssh=*|--seeds=*|--slurm-opt=*|--remote-mmsim=*)
		v=${a#*=}
		a=${a%%=*}
		;;
	-j?*)
		v=${a#-j}
		a=-j
		;;
	*)
		set -- "$@" "$a"
		continue
		;;
	esac
	case $a in
	--sweep)
		case $v in
		*[[:space:]]*) die "--sweep '$v': no spaces (KEY=V1,V2,...)" ;;
		esac
		sweeps="$sweeps$v
"
		;;
	--plot) plot=$v; plot_given=true ;;
	--out) out=$v ;;
	-j) jobs=$v ;;
	--seeds) seeds=$v ;;
	--hosts) hosts=$v ;;
	--ssh) ssh=$v ;;
	--remote-mmsim) remote_mmsim=$v ;;
	--slurm-opt)
		# Words of sbatch options: "--time=00:30:00 --mem=4G -p x".
		for w in $v; do
			case $w in
			*"'"*|*'"'*|*'\\'*) die "--slurm-opt '$v': no quotes or backslashes" ;;
			esac
			slurm_opts="$slurm_opts$w
"
		done
		;;
	esac
done

if [ -n "$seeds" ]; then
	case $seeds in
	''|*[!0-9]*|0|00*) die "--seeds wants a number of seeds (1 or more), not '$seeds'" ;;
	esac
	case $sweeps in
	seed=*|*"
seed="*) die "--seeds N and --sweep seed=...: choose one" ;;
	esac
	sweeps="${sweeps}seed=$(seq -s , 1 "$seeds")
"
fi
[ -n "$sweeps" ] || usage
scenario=""
for a in "$@"; do
	case $a in
	*.lua) scenario=$a; break ;;
	esac
done
[ -n "$scenario" ] || die "no scenario (SCENARIO.lua) given"
case ${jobs:=$(nproc)} in
''|*[!0-9]*|0) die "-j wants a number of jobs, not '$jobs'" ;;
esac

# The swept keys, in order; values end up in folder names and CSV fields.
keys=""
for spec in $sweeps; do
	key=${spec%%=*}
	vals=${spec#*=}
	[ "$key" != "$spec" ] || die "--sweep $spec: expected KEY=V1,V2,..."
	echo "$key" | grep -Eq '^[A-Za-z_][A-Za-z0-9_]*$' ||
		die "--sweep $spec: '$key' is not a parameter name"
	echo "$vals" | grep -Eq '^[A-Za-z0-9_.:+-]+(,[A-Za-z0-9_.:+-]+)*$' ||
		die "--sweep $spec: values are comma-separated words of letters, digits and _ . : + -"
	case " $keys " in
	*" $key "*) die "--sweep $key given twice" ;;
	esac
	# The same value twice would be the same run twice, in one folder.
	v=$(echo "$vals" | tr , '\n' | sort | uniq -d | head -n 1)
	[ -z "$v" ] || die "--sweep $spec: $v given twice"
	if [ "$key" = seed ]; then
		echo "$vals" | grep -Eq '^[0-9]+(,[0-9]+)*$' ||
			die "--sweep $spec: seeds are whole numbers (mmsim --seed N)"
	fi
	keys="${keys:+$keys }$key"
done
# The keys a combination of sweep.csv has: all but seed.
case " $keys " in
*" seed "*) seeded=true ;;
*) seeded=false ;;
esac
pkeys=$(echo "$keys" | tr ' ' '\n' | grep -vx seed | tr '\n' ' ')
pkeys=${pkeys% }

# -D settings among the mmsim options: a swept key must not be fixed too,
# and plot_format chooses the plot's format.
format=png
fixed=""        # the other -D settings, for the plot's title
prev=""
for a in "$@"; do
	kv=""
	case $prev in
	-D|--define) kv=$a ;;
	-o|--out) ;;
	*)
		case $a in
		-s|-s?*|--seed|--seed=*)
			! $seeded || die "seed is swept and set with $a: drop $a" ;;
		esac
		;;
	esac
	case $a in
	-D?*) kv=${a#-D} ;;
	--define=*) kv=${a#--define=} ;;
	esac
	prev=$a
	[ -n "$kv" ] || continue
	case " $keys " in
	*" ${kv%%=*} "*) die "${kv%%=*} is swept and set with -D" ;;
	esac
	case $kv in
	plot_format=*) format=${kv#plot_format=} ;;
	*) fixed="${fixed:+$fixed, }$kv" ;;
	esac
done
case $format in
png|pdf|svg) ;;
*) die "plot_format must be png, pdf or svg, not '$format'" ;;
esac

# ---- the figure asked for, checked before any run ----
# The scenario's "-- sweep-plot:" line first, then --plot over it.  x and
# series from the scenario apply when the sweep sweeps them; --plot's must.
[ -r "$scenario" ] || die "cannot read $scenario"
y=zone_lock.wait_share
x=""
series=""
series_given=false
logx=false
logy=false
plot_opts() {   # SPEC WHERE FROM_SCENARIO
	for kv in $(echo "$1" | tr , ' '); do
		case $kv in
		y=?*) y=${kv#y=} ;;
		x=*|series=*)
			k=${kv#*=}
			[ "$k" != seed ] || $3 ||
				die "$2: seed is never x or series (sweep.csv has a row per combination of the other keys)"
			if [ -n "$k" ] && ! echo " $pkeys " | grep -Fq " $k "; then
				$3 && continue
				die "$2: $k is not a swept parameter (swept: $pkeys)"
			fi
			case $kv in
			x=*) x=$k ;;
			*) series=$k; series_given=true ;;
			esac
			;;
		logx) logx=true ;;
		logy) logy=true ;;
		*) die "$2: '$kv': expected y=COLUMN, x=PARAM, series=PARAM, logx or logy" ;;
		esac
	done
}
line=$(grep -n '^-- sweep-plot:' "$scenario" | head -n 1 | cut -d: -f1)
[ -z "$line" ] || plot_opts "$(sed -n "${line}s/^-- sweep-plot: *//p" "$scenario")" \
	"$scenario:$line: -- sweep-plot" true
plot_opts "$plot" "--plot '$plot'" false
# "-- sweep-label: KEY LABEL" and "-- sweep-timeseries: COLUMN LABEL" lines.
awk '/^-- sweep-(label|timeseries):/ && NF < 4 {
	sub(/:.*/, ":", $2)
	printf "%s:%d: %s %s expected a key and its label\n", FILENAME, FNR, $1, $2
	bad = 1
} END { exit bad }' "$scenario" >&2 || exit 1

command -v parallel > /dev/null ||
	die "GNU parallel not found: install the Debian package parallel"
if [ -n "$hosts" ]; then
	$slurm && die "--hosts and --slurm: choose one"
	[ -r "$hosts" ] || die "--hosts $hosts: cannot read it"
	command -v rsync > /dev/null ||
		die "--hosts needs rsync (parallel transfers with it): install the Debian package rsync"
fi
[ -z "$ssh" ] || [ -n "$hosts" ] || die "--ssh goes with --hosts"
[ -z "$remote_mmsim" ] || [ -n "$hosts" ] || die "--remote-mmsim goes with --hosts"
! $cleanup || [ -n "$hosts" ] || die "--cleanup goes with --hosts (it removes the hosts' run folders)"
! $collect || ! $slurm || die "--slurm submits, --collect gathers: choose one"
! $collect || [ -z "$hosts" ] || die "--collect gathers a Slurm sweep, not --hosts"
! $rerun_failed || $collect || die "--rerun-failed goes with --collect (a local or --hosts sweep reruns what failed by itself)"
[ -z "$slurm_opts" ] || $slurm || $rerun_failed || die "--slurm-opt goes with --slurm or --collect --rerun-failed"

name=$(basename "$scenario" .lua)
[ -n "$out" ] || out=results/sweep-$name-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out" || die "cannot create $out"
if $collect && [ ! -f "$out/sweep.slurm" ]; then
	die "--collect: $out holds no Slurm sweep (no sweep.slurm; ./run --sweep ... --slurm writes one)"
fi
if ! $slurm && ! $collect && [ -f "$out/sweep.slurm" ]; then
	die "$out is a Slurm sweep: --collect gathers it (--collect --rerun-failed resubmits what failed)"
fi
mmsim=${MMSIM_BIN:-$top/mmsim}

# ---- the parameters, checked before any run ----
# Dry run i sets every key to its i-th value (its last if it has fewer).
maxvals=$(for spec in $sweeps; do echo "${spec#*=}" | tr , '\n' | wc -l; done | sort -n | tail -n 1)
i=1
while [ "$i" -le "$maxvals" ]; do
	set -- "$@" --params --out "$out/.params"
	for spec in $sweeps; do
		v=$(echo "${spec#*=}" | tr , '\n' | sed -n "${i}p")
		[ -n "$v" ] || v=$(echo "${spec#*=}" | tr , '\n' | tail -n 1)
		case ${spec%%=*} in
		seed) set -- --seed "$v" "$@" ;;
		*) set -- -D "${spec%%=*}=$v" "$@" ;;
		esac
	done
	if ! "$mmsim" "$@" > "$out/.params.out" 2> "$out/.params.err"; then
		msg=$(grep -m 1 . "$out/.params.err" || true)
		rm -rf "$out/.params" "$out/.params.out" "$out/.params.err"
		rmdir "$out" 2> /dev/null || true
		die "the scenario refuses the swept parameters, no run started: ${msg:-mmsim --params failed}"
	fi
	# Drop this dry run's arguments again: the -D pairs first, the three last.
	for spec in $sweeps; do shift 2; done
	n=$(($# - 3))
	while [ "$n" -gt 0 ]; do
		set -- "$@" "$1"
		shift
		n=$((n - 1))
	done
	shift 3
	i=$((i + 1))
done
rm -rf "$out/.params" "$out/.params.out" "$out/.params.err"

# ---- the runs ----
# The cartesian product, the first --sweep varying slowest.
printf '%s' "$sweeps" | awk -F= '
function product(d, prefix,   i) {
	if (d > NR) {
		print prefix
		return
	}
	for (i = 1; i <= nval[d]; i++)
		product(d + 1, prefix (d > 1 ? "," : "") key[d] "=" val[d, i])
}
{
	key[NR] = $1
	nval[NR] = split($2, v, ",")
	for (i = 1; i <= nval[NR]; i++)
		val[NR, i] = v[i]
}
END { product(1, "") }' > "$out/jobs.new"
printf '%s\n' "$@" > "$out/args.new"
for f in jobs args; do
	if [ -f "$out/$f" ] && ! cmp -s "$out/$f" "$out/$f.new"; then
		rm -f "$out/jobs.new" "$out/args.new"
		die "$out holds another sweep (see $out/jobs and $out/args); choose another --out"
	fi
	mv "$out/$f.new" "$out/$f"
done

# run_done FOLDER: the run there is done, its summary.csv written and not
# marked interrupted (SIGINT or SIGTERM, as Slurm stops a task it requeues,
# write the summary too).  The Slurm tasks define it from this text.
run_done_sh='run_done() {
	[ -s "$1/summary.csv" ] && ! grep -q "\"interrupted\" *: *true" "$1/summary.json" 2> /dev/null
}'
eval "$run_done_sh"

# Slurm tasks' joblog lines (DIR/tasks/SEQ) into the joblog, each file
# renamed before it is read so that a task writing again is not lost.
if [ -d "$out/tasks" ]; then
	for f in $(ls "$out/tasks" | grep -E '^[0-9]+$' | sort -n); do
		mv -f "$out/tasks/$f" "$out/tasks/$f.merging" || continue
		[ -s "$out/joblog" ] ||
			printf 'Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n' > "$out/joblog"
		cat "$out/tasks/$f.merging" >> "$out/joblog"
		rm -f "$out/tasks/$f.merging"
	done
fi
# Forget the joblog lines of the runs not done, so that --resume-failed
# runs them again.
if [ -f "$out/joblog" ]; then
	seq=0
	missing=" "
	while IFS= read -r combo; do
		seq=$((seq + 1))
		run_done "$out/$combo" || missing="$missing$seq "
	done < "$out/jobs"
	awk -F'\t' -v missing="$missing" 'NR == 1 || !index(missing, " " $1 " ")' \
		"$out/joblog" > "$out/joblog.tmp"
	mv "$out/joblog.tmp" "$out/joblog"
fi

# Jobs whose last joblog line says they succeeded: their numbers.
succeeded() {
	[ -f "$out/joblog" ] || return 0
	awk -F'\t' 'NR > 1 { ok[$1] = ($7 == 0 && $8 == 0) }
		END { for (s in ok) if (ok[s]) print s }' "$out/joblog"
}
total=$(wc -l < "$out/jobs")
ok=$(succeeded)
finished=$(echo "$ok" | grep -c .) || true

# A word for a shell command line: single-quoted, a quote as '\''.
shquote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
# ---- Slurm ----
# The tasks of the jobs submitted (DIR/slurm-jobs: a line per sbatch, job
# id, tasks, time) that Slurm still holds, as "SEQ STATE JOB_TASK" lines.
queued=""
if $slurm || $collect; then
	if [ -s "$out/slurm-jobs" ] && command -v squeue > /dev/null; then
		ids=$(cut -f 1 "$out/slurm-jobs" | paste -sd , -)
		queued=$(squeue -h -r -j "$ids" -o '%K %T %i' 2> /dev/null | grep -E '^[0-9]+ ' || true)
	elif [ -s "$out/slurm-jobs" ]; then
		echo "sweep: squeue not found: runs still queued in Slurm are shown as not run" >&2
	fi
fi
# Jobs not done nor queued, their numbers as an array spec (1-3,5).
to_submit() {
	seq=0
	while IFS= read -r combo; do
		seq=$((seq + 1))
		echo "$ok" | grep -qx "$seq" && continue
		echo "$queued" | grep -q "^$seq " && continue
		echo "$seq"
	done < "$out/jobs" | awk 'function flush() { if (a) s = s (s == "" ? "" : ",") (a == b ? a : a "-" b) }
		a && $1 == b + 1 { b = $1; next } { flush(); a = b = $1 } END { flush(); print s }'
}
# Write DIR/sweep.slurm and submit the jobs to_submit names (with sbatch
# here, else saying how).  One CPU per task (mmsim is one thread) unless
# --slurm-opt says otherwise; its words go on an #SBATCH line.
slurm_submit() {
	if [ -n "$slurm_opts" ]; then
		printf '%s' "$slurm_opts" > "$out/slurm-opts"
	elif [ -f "$out/slurm-opts" ]; then
		slurm_opts=$(cat "$out/slurm-opts")
	fi
	opts=$(printf '%s' "$slurm_opts" | tr '\n' ' ')
	{
		echo "#!/bin/sh"
		echo "# $total mmsim runs of $scenario, written by ./run --sweep ... --slurm, which"
		echo "# submits the runs not done (sbatch --array=LIST); ./run --sweep ... --collect"
		echo "# then gathers sweep.csv and the plots and lists what is pending or failed."
		echo "#SBATCH --job-name=mmsim-$name"
		echo "#SBATCH --array=1-$total%$jobs"
		echo "#SBATCH --output=$out/slurm-%A_%a.log"
		case " $opts" in
		*" --cpus-per-task"*|*" -c"*) ;;
		*) echo "#SBATCH --cpus-per-task=1" ;;
		esac
		[ -z "$opts" ] || echo "#SBATCH ${opts% }"
		echo "set -u"
		echo "cd $(shquote "$(pwd)")"
		echo "out=$(shquote "$out")"
		echo "$run_done_sh"
		cat <<'HEAD'
seq=$SLURM_ARRAY_TASK_ID
combo=$(sed -n "${seq}p" "$out/jobs")
# Done before: nothing to do.  A run a signal stopped runs again.
run_done "$out/$combo" && exit 0
# Slurm's SIGTERM stops mmsim (which writes its summary, interrupted); the
# task goes on to write its joblog line.
trap : TERM INT
start=$(date +%s.%N)
HEAD
		printf 'sh %s --run-one "$out" "$combo" %s' "$(shquote "$here/sweep.sh")" "$(shquote "$mmsim")"
		for a in "$@"; do printf ' %s' "$(shquote "$a")"; done
		echo
		cat <<'TAIL'
status=$?
# The joblog line, as GNU parallel writes it (Seq Host Starttime JobRuntime
# Send Receive Exitval Signal Command), into a file of this task's own,
# written whole and then renamed: no lock, which a shared filesystem may not
# honour.  The next --collect appends it to DIR/joblog.
mkdir -p "$out/tasks"
awk -v s="$seq" -v h="$(hostname) ${SLURM_ARRAY_JOB_ID:-}_$seq" -v t0="$start" -v t1="$(date +%s.%N)" \
	-v x="$status" -v c="$combo" 'BEGIN { printf "%d\t%s\t%.3f\t%8.3f\t0\t0\t%d\t0\t%s\n", s, h, t0, t1 - t0, x, c }' \
	> "$out/tasks/.$seq.${SLURM_JOB_ID:-$$}" && mv -f "$out/tasks/.$seq.${SLURM_JOB_ID:-$$}" "$out/tasks/$seq"
exit $status
TAIL
	} > "$out/sweep.slurm"
	list=$(to_submit)
	if [ -z "$list" ]; then
		echo "sweep: nothing to submit: every run of $out is done or queued" >&2
		return 0
	fi
	if ! command -v sbatch > /dev/null; then
		echo "sweep: sbatch not found: submit the runs not done ($list) where Slurm is, with" >&2
		echo "  sbatch --array=$list%$jobs $out/sweep.slurm" >&2
		return 0
	fi
	# shellcheck disable=SC2086
	id=$(sbatch --parsable --array="$list%$jobs" "$out/sweep.slurm") ||
		die "sbatch refused $out/sweep.slurm (its message above)"
	id=${id%%;*}
	printf '%s\t%s\t%s\n' "$id" "$list" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$out/slurm-jobs"
	echo "sweep: submitted Slurm job $id, tasks $list of $total (recorded in $out/slurm-jobs);" >&2
	echo "  gather with the same command, --collect instead of --slurm" >&2
}
if $slurm; then
	slurm_submit "$@"
	echo "$out"
	exit 0
fi
if $collect; then
	# sacct's account of the jobs, where Slurm keeps accounting.
	if [ -s "$out/slurm-jobs" ] && command -v sacct > /dev/null; then
		sacct -P -j "$(cut -f 1 "$out/slurm-jobs" | paste -sd , -)" \
			-o JobID,State,ExitCode,Elapsed,MaxRSS,NodeList > "$out/sacct.txt" 2>&1 ||
			echo "sweep: sacct: $(head -n 1 "$out/sacct.txt") (no accounting: $out/sacct.txt)" >&2
	fi
	if $rerun_failed; then
		slurm_submit "$@"
		queued=$(squeue -h -r -j "$(cut -f 1 "$out/slurm-jobs" | paste -sd , -)" -o '%K %T %i' \
			2> /dev/null | grep -E '^[0-9]+ ' || true)
	fi
fi
# The runs, N at a time through GNU parallel, here or on the --hosts.  A
# SIGINT or SIGTERM (Ctrl-C) stops them: parallel gets it too (the shell
# passes it on when it came to the sweep alone), the runs it stopped are
# named as interrupted, and nothing is plotted.
interrupted=""
run_all() {
	cmd="sh $(shquote "$here/sweep.sh") --run-one $(shquote "$out") {} $(shquote "$mmsim")"
	for a in "$@"; do
		cmd="$cmd $(shquote "$a")"
	done
	if [ -n "$hosts" ]; then
		hosts_setup "$@"
		shift $#
		set -- --sshloginfile "$hosts" $popts
		[ -z "$ssh" ] || set -- "$@" --ssh "$ssh"
	else
		echo "sweep: $total runs of $scenario ($finished done before), $jobs at a time, in $out" >&2
		set -- -j "$jobs"
	fi
	bar=""
	[ -t 2 ] && bar=--bar
	# parallel builds the remote command for $SHELL; with SHELL unset (cron,
	# CI, env -i) the command it sends never runs the job.
	: "${SHELL:=/bin/sh}"
	export SHELL
	trap 'interrupted=130' INT
	trap 'interrupted=143' TERM
	# RSYNC_OLD_ARGS: rsync 3.2.4 and later quote the remote path themselves,
	# on top of parallel's quoting of --return's path.
	# shellcheck disable=SC2086
	RSYNC_OLD_ARGS=1 parallel --will-cite $bar "$@" --joblog "$out/joblog" --resume-failed "$cmd" \
		:::: "$out/jobs" &
	pid=$!
	while ! wait "$pid"; do
		kill -0 "$pid" 2> /dev/null || break
		[ -z "$interrupted" ] || kill -s "$([ "$interrupted" = 130 ] && echo INT || echo TERM)" "$pid" 2> /dev/null || true
	done
	trap - INT TERM
	[ -z "$hosts" ] || hosts_done
	[ -n "$interrupted" ] || return 0
	# parallel logs no line for the jobs it stopped: a run that started (its
	# folder is there) and has none gets one with the signal's exit status,
	# which the resume (--resume-failed) reruns.
	seq=0
	while IFS= read -r combo; do
		seq=$((seq + 1))
		[ -d "$out/$combo" ] || continue
		awk -F'\t' -v s="$seq" 'NR > 1 && $1 == s { found = 1 } END { exit !found }' "$out/joblog" &&
			continue
		printf '%d\t:\t%s\t0\t0\t0\t%d\t0\t%s\n' "$seq" "$(date +%s)" "$interrupted" "$combo" >> "$out/joblog"
	done < "$out/jobs"
}
# --hosts: parallel's options (popts), the command for a host (cmd), what
# runs where said on stderr.  Each host works in a folder of its own under
# its home (rwd, parallel's --wd), gets the scenario, sweep.sh and unless
# --remote-mmsim this mmsim (parallel's --basefile) and sends each run's
# folder back into DIR (--return, with /./: DIR's path here, the run's
# folder relative to rwd there).  ":" in FILE is this machine, which runs in
# the current directory.
hosts_setup() {
	list=$(sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$hosts" | grep . || true)
	[ -n "$list" ] || die "--hosts $hosts lists no host"
	nh=$(echo "$list" | wc -l)
	far=$(echo "$list" | grep -cvxE '([0-9]+/)?:') || true
	# N/host runs N at once there; a host without N as many as its CPUs.
	slots=$(echo "$list" | awk -F/ '$1 ~ /^[0-9]+$/ && NF > 1 { n += $1; next } { cpus = 1 }
		END { print cpus ? "" : n }')
	echo "sweep: $total runs of $scenario ($finished done before) on the $nh host$([ "$nh" -gt 1 ] && echo s) of $hosts," \
		"$([ -n "$slots" ] && echo "$slots at a time as its N/host lines say" ||
			echo "a host without N/ as many at once as its CPUs"), in $out" >&2
	outabs=$(cd "$out" && pwd)
	rwd=.mmsim-sweep/$(basename "$outabs")-$(date -u +%Y%m%dT%H%M%SZ)-$$
	popts=""
	[ "$far" -gt 0 ] || return 0        # ":" alone: parallel would warn its options are ignored
	# The scenario: at the same relative path there, or (absolute, or
	# outside the current directory) in rwd by its name.
	case $scenario in
	/*|../*|*/../*) sbase="$(cd "$(dirname "$scenario")" && pwd)/./$(basename "$scenario")"
		rscen=$(basename "$scenario") ;;
	*) sbase=$scenario; rscen=$scenario ;;
	esac
	if [ -n "$remote_mmsim" ]; then
		rmmsim=$remote_mmsim
		echo "sweep: mmsim on the hosts: $remote_mmsim (--remote-mmsim)" >&2
	else
		rmmsim=./$(basename "$mmsim")
		echo "sweep: mmsim on the hosts: this one ($mmsim), sent to each (--remote-mmsim PATH uses" \
			"theirs); it needs the Debian packages of deps/debian.txt there" >&2
		popts="--basefile $(cd "$(dirname "$mmsim")" && pwd)/./$(basename "$mmsim")"
	fi
	rcmd="sh sweep.sh --run-one . {} $(shquote "$rmmsim")"
	for a in "$@"; do
		[ "$a" = "$scenario" ] && a=$rscen
		rcmd="$rcmd $(shquote "$a")"
	done
	cmd="if [ \"\$PARALLEL_SSHLOGIN\" = : ]; then cd $(shquote "$(pwd)") && $cmd; else $rcmd; fi"
	popts="$popts --wd $rwd --basefile $here/./sweep.sh --basefile $sbase --return $outabs/./{}"
	for p in "$outabs" "$here" "$sbase" "$mmsim"; do
		case $p in
		*[[:space:]]*) die "--hosts: '$p' holds a space, which parallel's --basefile and --return cannot take" ;;
		esac
	done
}
# After the runs: the hosts' folders removed (--cleanup) or named; ":"
# leaves an empty rwd in the current directory.
hosts_done() {
	[ -n "$popts" ] || return 0
	if $cleanup; then
		# shellcheck disable=SC2086
		parallel --will-cite --nonall --sshloginfile "$hosts" ${ssh:+--ssh "$ssh"} \
			"rm -rf $rwd; rmdir .mmsim-sweep 2> /dev/null; true" ||
			echo "sweep: --cleanup: could not remove ~/$rwd on every host" >&2
	else
		echo "sweep: the hosts keep their run folders in ~/$rwd (--cleanup removes them)" >&2
		if [ "$far" -lt "$nh" ]; then
			rm -rf "$rwd" && rmdir .mmsim-sweep 2> /dev/null || true
		fi
	fi
}
# --collect only gathers what the Slurm tasks left.
$collect || run_all "$@"

# ---- sweep.csv ----
# Reruns add lines to the joblog: a job's last line is its outcome.
ok=$(succeeded)
status=0
seq=0
header=""
first=""
rows=0
done_runs=""    # the combinations that succeeded, one a line
runs=$out/sweep.csv
$seeded && runs=$out/runs.csv
: > "$runs.tmp"
while IFS= read -r combo; do
	seq=$((seq + 1))
	run=$out/$combo
	if ! echo "$ok" | grep -qx "$seq"; then
		status=1
		q=$(echo "$queued" | awk -v s="$seq" '$1 == s { print tolower($2) " in Slurm (job " $3 ")" }')
		# Its last joblog line: stopped by SIGINT or SIGTERM (itself or
		# mmsim's exit status 130 or 143), else failed; none: never started.
		code=$(awk -F'\t' -v s="$seq" 'NR > 1 && $1 == s { c = $7; sig = $8 }
			END { if (c != "") print (sig == 2 || sig == 15 || c == 130 || c == 143 ? "interrupted" : "failed"),
				(sig ? "(signal " sig ")" : "(exit status " c ")") }' "$out/joblog" 2> /dev/null || true)
		if [ -n "$q" ]; then
			echo "sweep: run $combo $q" >&2
		elif [ -z "$code" ]; then
			echo "sweep: run $combo not run" >&2
		elif [ "${code%% *}" = interrupted ]; then
			echo "sweep: run $combo $code" >&2
		else
			echo "sweep: run $combo $code; the end of $run/stderr:" >&2
			tail -n 5 "$run/stderr" 2> /dev/null | sed 's/^/  | /' >&2 || true
		fi
		continue
	fi
	if [ ! -s "$run/summary.csv" ] || [ "$(wc -l < "$run/summary.csv")" -lt 2 ]; then
		echo "sweep: run $combo wrote no summary.csv" >&2
		status=1
		continue
	fi
	printf '%s\t%s\n' "$(echo "$combo" | sed 's/[^,]*=//g')" "$run/summary.csv" \
		>> "$runs.tmp"
	done_runs="$done_runs$combo
"
	rows=$((rows + 1))
done < "$out/jobs"
if [ -n "$interrupted" ]; then
	rm -f "$runs.tmp"
	echo "sweep: interrupted: no sweep.csv nor plots; rerun the same command to resume" >&2
	echo "$out"
	exit "$interrupted"
fi
if [ "$rows" -eq 0 ]; then
	rm -f "$runs.tmp"
	echo "$out"
	die "no run succeeded"
fi
# The swept values, then every column of the runs' summaries in the order
# first met (a figure some runs lack, such as policy spb's spb_walk.*,
# leaves their cells empty).
awk -F '\t' -v keys="$(echo "$keys" | tr ' ' ,)" "$sweep_awk"'
{
	values[NR] = $1
	getline head < $2
	getline row < $2
	close($2)
	n = csv_split(head, k)
	if (csv_split(row, v) != n) {
		print "sweep: " $2 ": ragged row" > "/dev/stderr"
		exit 1
	}
	for (i = 1; i <= n; i++) {
		if (!(k[i] in col)) { col[k[i]] = ++ncol; name[ncol] = k[i] }
		cell[NR, col[k[i]]] = v[i]
	}
	delete k
	delete v
}
END {
	line = keys
	for (c = 1; c <= ncol; c++) line = line "," csv_field(name[c])
	print line
	for (r = 1; r <= NR; r++) {
		line = values[r]
		for (c = 1; c <= ncol; c++) line = line "," csv_field(cell[r, c])
		print line
	}
}' "$runs.tmp" > "$runs.new" || { rm -f "$runs.tmp" "$runs.new"; die "could not collect $runs"; }
rm -f "$runs.tmp"
mv "$runs.new" "$runs"

# With seeds swept, a row per combination of the other keys (in the order
# of their first run): the keys, n, then each figure that is a number in
# every run as mean, min, max and sample standard deviation, and each other
# figure when the runs of every combination agree on it.  The summary's
# own seed column goes with the swept one.  Means and deviations to 15
# significant digits; min and max as the runs wrote them.
if $seeded; then
	dropped=$(awk -v nk="$(echo "$keys" | wc -w)" \
		-v sk="$(echo "$keys" | tr ' ' '\n' | grep -nx seed | cut -d: -f1)" \
		-v csv="$out/sweep.csv.tmp" "$sweep_awk"'
	NR == 1 {
		nh = csv_split($0, h)
		for (c = nk + 1; c <= nh; c++) num[c] = 1
		next
	}
	{
		csv_split($0, f)
		g = ""
		for (c = 1; c <= nk; c++)
			if (c != sk) g = g (g == "" ? "" : ",") f[c]
		if (!(g in size)) order[++ng] = g
		member[g, ++size[g]] = ++nr
		for (c = nk + 1; c <= nh; c++) {
			v[nr, c] = f[c]
			if (f[c] != "" && !is_number(f[c])) num[c] = 0
			if (!((g, c) in agreed)) agreed[g, c] = f[c]
			else if (agreed[g, c] != f[c]) differ[c] = 1
		}
	}
	END {
		line = ""
		for (c = 1; c <= nk; c++)
			if (c != sk) line = line h[c] ","
		line = line "n"
		for (c = nk + 1; c <= nh; c++) {
			keep[c] = h[c] != "seed" && (num[c] || !differ[c])
			if (!keep[c] && h[c] != "seed") printf " %s", h[c]
			if (!keep[c]) continue
			line = line "," h[c]
			if (num[c]) line = line "," h[c] ".min," h[c] ".max," h[c] ".sd"
		}
		print line > csv
		for (i = 1; i <= ng; i++) {
			g = order[i]
			n = size[g]
			line = (g == "" ? "" : g ",") n
			for (c = nk + 1; c <= nh; c++) {
				if (!keep[c]) continue
				if (!num[c]) {
					line = line "," csv_field(agreed[g, c])
					continue
				}
				# A figure the runs of g lack (spb_walk.* outside spb).
				missing = 0
				for (j = 1; j <= n; j++)
					missing += v[member[g, j], c] == ""
				if (missing) {
					line = line ",,,,"
					continue
				}
				sum = 0
				lo = hi = member[g, 1]
				for (j = 1; j <= n; j++) {
					r = member[g, j]
					sum += v[r, c]
					if (v[r, c] + 0 < v[lo, c] + 0) lo = r
					if (v[r, c] + 0 > v[hi, c] + 0) hi = r
				}
				# Equal values: exactly that mean and 0, without rounding noise.
				same = v[lo, c] + 0 == v[hi, c] + 0
				mean = same ? v[lo, c] + 0 : sum / n
				ss = 0
				for (j = 1; j <= n && !same; j++)
					ss += (v[member[g, j], c] - mean) ^ 2
				line = line sprintf(",%.15g,%s,%s,", mean, v[lo, c], v[hi, c])
				if (n > 1) line = line sprintf("%.15g", sqrt(ss / (n - 1)))
			}
			print line > csv
		}
	}' "$runs")
	mv "$out/sweep.csv.tmp" "$out/sweep.csv"
	[ -z "$dropped" ] || echo "sweep: sweep.csv leaves out what differs between seeds" \
		"and is not a number (runs.csv has it):$dropped" >&2
fi

# ---- the plots ----
# plots.txt: a line per plot, what it draws or why it is not drawn.
: > "$out/plots.txt"
drawn() { echo "$1: $2" >> "$out/plots.txt"; }
skipped() {
	echo "sweep: no $1: $2" >&2
	echo "$1: not drawn: $2" >> "$out/plots.txt"
}
# gnuplot string: single quotes, a quote doubled.
gpstr() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
# gnuplot SCRIPT OUTFILE WHAT SETTINGS: draw, and record the outcome.
draw() {
	if ! err=$(gnuplot -e "outfile=$(gpstr "$out/$2"); term=$(gpstr "$format"); $4" \
			"${MMSIM_PLOTSDIR:-$top/plots}/$1" 2>&1) || [ ! -s "$out/$2" ]; then
		skipped "$2" "gnuplot failed:
$err"
		status=1
		return
	fi
	[ -z "$err" ] || echo "$err" >&2
	drawn "$2" "$3"
}

# Column names of sweep.csv, one per line.
columns=$(head -n 1 "$out/sweep.csv" | awk "$sweep_awk"'{ n = csv_split($0, f)
	for (i = 1; i <= n; i++) print f[i] }')
has_column() { echo "$columns" | grep -Fqx "$1"; }
# Every value of column $1 in sweep.csv is a number.
numeric() {
	awk -v col="$1" "$sweep_awk"'NR == 1 { c = csv_col($0, col); next }
		{ csv_split($0, f); if (!is_number(f[c])) bad = 1 }
		END { exit bad || !c }' "$out/sweep.csv"
}
# The value of column $1 when every run has the same, else nothing.
same_value() {
	awk -v col="$1" "$sweep_awk"'NR == 1 { c = csv_col($0, col); next }
		c { csv_split($0, f); v[f[c]] = 1; last = f[c] }
		END { n = 0; for (k in v) n++; if (n == 1) print last }' "$runs"
}
skip_plot() {
	skipped "sweep.$format" "$*"
	! $plot_given || status=1
}

if [ -z "$x" ]; then
	for k in $pkeys; do
		[ "$k" != "$series" ] && numeric "$k" && { x=$k; break; }
	done
fi
# No numeric parameter: bars over the first categorical one.
if [ -z "$x" ]; then
	for k in $pkeys; do
		[ "$k" != "$series" ] && { x=$k; break; }
	done
fi
if ! $series_given; then
	for k in $pkeys; do
		[ "$k" != "$x" ] && { series=$k; break; }
	done
fi
# The machine, from machine.title, else as it would say from the machine.*
# figures (a range where the runs differ): the preset's name first,
# time-compressed under params.pace=compressed.
machine=$(same_value machine.title)
[ -n "$machine" ] || machine=$(awk "$sweep_awk"'
function range(k, one) {
	if (!(k in lo)) return ""
	return sprintf("%s%s %s", lo[k], hi[k] != lo[k] ? "-" hi[k] : "", hi[k] == 1 ? one : one "s")
}
function mem(m) {
	return m >= 1048576 ? sprintf("%g TiB", m / 1048576) : m >= 1024 ? sprintf("%g GiB", m / 1024) \
		: sprintf("%g MiB", m)
}
function add(s) { if (s != "") title = title (title == "" ? "" : ", ") s }
NR == 1 {
	for (i = csv_split($0, h); i > 0; i--) col[h[i]] = i
	next
}
{
	csv_split($0, f)
	for (k in col) {
		if (k !~ /^machine\.(sockets|nodes|cpus|memory_mib)$/ || !is_number(f[col[k]])) continue
		v = f[col[k]] + 0
		if (!(k in lo) || v < lo[k]) lo[k] = v
		if (!(k in hi) || v > hi[k]) hi[k] = v
	}
	runs++
	compressed += "params.pace" in col && f[col["params.pace"]] == "compressed"
	if ("machine.name" in col) names[f[col["machine.name"]]] = 1
}
END {
	for (k in names) nnames++
	if (nnames == 1 && k != "custom") preset = k ": "
	add(range("machine.sockets", "socket"))
	add(range("machine.nodes", "node"))
	add(range("machine.cpus", "CPU"))
	if ("machine.memory_mib" in lo)
		add(mem(lo["machine.memory_mib"]) \
			(hi["machine.memory_mib"] != lo["machine.memory_mib"] ? "-" mem(hi["machine.memory_mib"]) : ""))
	if (runs && compressed == runs) add("time-compressed")
	print (title == "" ? "" : preset) title
}' "$runs")
# The title: the scenario, what every run shared (policy, threads,
# duration) and the other -D settings; under it the machine.
context=$(same_value machine.policy)
v=$(same_value params.cpus)
[ -n "$v" ] && context="${context:+$context, }$v threads"
# The duration asked for, else the simulated time reached (runs stop a
# little after the time asked).
v=$(same_value params.duration)
case ", $fixed" in
*", duration="*) v=given ;;            # the -D settings say it
esac
[ -z "$v" ] || [ "$v" = given ] || context="${context:+$context, }$v"
if [ -z "$v" ] && v=$(same_value sim_time_s) && [ -n "$v" ]; then
	context="${context:+$context, }$(awk -v s="$v" 'BEGIN { printf "%.4g ms", 1000 * s }')"
fi
title="$name${context:+: $context}${fixed:+ ($fixed)}"
subtitle=$machine
# Seeds per combination: "5", or "3-5" where runs failed.
nseeds=""
if $seeded; then
	nseeds=$(awk "$sweep_awk"'NR == 1 { c = csv_col($0, "n"); next }
		{ csv_split($0, f); n = f[c] + 0; if (!lo || n < lo) lo = n; if (n > hi) hi = n }
		END { print lo (hi > lo ? "-" hi : "") }' "$out/sweep.csv")
fi
label() {       # key_label's words, the key itself if it has none
	l=$(key_label "$1" "$scenario")
	[ "${l##*|}" = 1 ] && echo "${l%|*}" || echo "$1"
}
ylabel=$(key_label "$y" "$scenario")
yscale=${ylabel##*|}
ylabel=${ylabel%|*}
xlabel=$(label "$x")
serieslabel=$(label "$series")

plotname=sweep.$format
if [ -z "$x" ]; then
	skip_plot "no swept parameter to plot against (seed is not one)"
elif ! has_column "$y"; then
	skip_plot "sweep.csv has no column $y"
else
	# sweep.dat: a block per series (in the order of first appearance),
	# a row per value of x (ascending if numbers, else in their order):
	# x's index among its values, x, the mean of y in the plot's unit, min,
	# max (the mean's own without seeds), runs.  Rows of the same x and
	# series (other swept parameters) are averaged, min and max widened.
	# On a log y axis, means not above 0 are left out and mins not above 0
	# go below the axis, which starts at the power of 10 under the least
	# positive value.  It prints the settings the plot needs.
	numx=false
	numeric "$x" && numx=true
	settings=$(awk -v xc="$x" -v yc="$y" -v sc="$series" -v scale="$yscale" \
		-v logy="$($logy && echo 1 || echo 0)" -v numx="$($numx && echo 1 || echo 0)" \
		-v dat="$out/sweep.dat" "$sweep_awk"'
	NR == 1 {
		xi = csv_col($0, xc); yi = csv_col($0, yc); si = sc == "" ? 0 : csv_col($0, sc)
		lo_i = csv_col($0, yc ".min"); hi_i = csv_col($0, yc ".max"); ni = csv_col($0, "n")
		next
	}
	{
		csv_split($0, f)
		if (!is_number(f[yi])) { notnum++; next }
		xv = f[xi]; sv = si ? f[si] : yc
		if (!(xv in xidx)) { xidx[xv] = ++nx; xs[nx] = xv }
		if (!(sv in sidx)) { sidx[sv] = ++ns; ss[ns] = sv }
		y = scale * f[yi]
		lo = lo_i ? scale * f[lo_i] : y
		hi = hi_i ? scale * f[hi_i] : y
		k = sv SUBSEP xv
		sum[k] += y; cnt[k]++; runs[k] += ni ? f[ni] : 1
		if (!(k in low) || lo < low[k]) low[k] = lo
		if (!(k in high) || hi > high[k]) high[k] = hi
	}
	END {
		# x ascending: insertion sort of the indices
		for (i = 1; i <= nx; i++) ord[i] = i
		for (i = 2; numx && i <= nx; i++)
			for (j = i; j > 1 && xs[ord[j]] + 0 < xs[ord[j - 1]] + 0; j--) {
				t = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = t
			}
		pow2 = numx
		for (i = 1; i <= nx; i++) {
			v = xs[i] + 0
			while (pow2 && v >= 2 && v % 2 == 0) v /= 2
			if (v != 1) pow2 = 0
			if (i == 1 || xs[i] + 0 < xmin) xmin = xs[i] + 0
			if (i == 1 || xs[i] + 0 > xmax) xmax = xs[i] + 0
		}
		minpos = 0
		for (k in sum) {
			mean[k] = sum[k] / cnt[k]
			if (logy && mean[k] <= 0) { left++; continue }
			if (mean[k] > 0 && (!minpos || mean[k] < minpos)) minpos = mean[k]
			if (low[k] > 0 && (!minpos || low[k] < minpos)) minpos = low[k]
		}
		ylow = minpos ? 10 ^ int(log(minpos) / log(10) - (minpos < 1)) : 1
		print "# sweep.dat: x_index x mean min max runs, a block per series" > dat
		for (s = 1; s <= ns; s++) {
			printf "%s# %s\n", (s > 1 ? "\n\n" : ""), ss[s] > dat
			for (i = 1; i <= nx; i++) {
				k = ss[s] SUBSEP xs[ord[i]]
				if (!(k in mean) || (logy && mean[k] <= 0)) continue
				printf "%d %s %.10g %.10g %.10g %d\n", i, xs[ord[i]], mean[k],
					logy && low[k] <= 0 ? ylow / 10 : low[k], high[k], runs[k] > dat
			}
		}
		titles = ""
		for (s = 1; s <= ns; s++) titles = titles (s > 1 ? " " : "") ss[s]
		xtics = ""
		for (i = 1; i <= nx; i++) xtics = xtics (i > 1 ? ", " : "") "\"" xs[ord[i]] "\" " i
		printf "nseries=%d; nx=%d; xmin=%.10g; xmax=%.10g; pow2=%d; ylow=%.10g; left=%d; notnum=%d\n",
			ns, nx, xmin, xmax, pow2, ylow, left, notnum
		printf "titles=\x27%s\x27; xtics=\x27%s\x27\n", titles, xtics
	}' "$out/sweep.csv")
	nseries=0 nx=0 xmin=0 xmax=0 pow2=0 ylow=1 left=0 notnum=0 titles="" xtics=""
	eval "$settings"
	[ "$notnum" -eq 0 ] || echo "sweep: $plotname: $notnum rows of sweep.csv have no number in $y; left out" >&2
	[ "$left" -eq 0 ] || echo "sweep: $plotname: $left points are not above 0 and cannot be on the log y axis; left out" >&2
	what="$ylabel by $xlabel${series:+, a line per $serieslabel}"
	# The swept keys of more than one value that are neither x nor series.
	others=$(printf '%s' "$sweeps" | awk -F= -v x="$x" -v s="$series" \
		'$1 != x && $1 != s && $1 != "seed" && $2 ~ /,/ { printf "%s%s", (n++ ? " " : ""), $1 }')
	if [ -n "$others" ]; then
		echo "sweep: $plotname: the means over the values of $others" >&2
		what="$what, means over $others"
	fi
	errors=0
	seedline=""
	if [ -n "$nseeds" ]; then
		errors=1
		seedline="mean, bars min-max over $nseeds seeds"
		what="$what; $seedline"
	fi
	common="datafile=$(gpstr "$out/sweep.dat"); plot_title=$(gpstr "$title");
		subtitle=$(gpstr "$subtitle"); seedline=$(gpstr "$seedline"); xlabel=$(gpstr "$xlabel"); ylabel=$(gpstr "$ylabel");
		serieslabel=$(gpstr "$serieslabel"); nseries=$nseries; titles=$(gpstr "$titles");
		errors=$errors; logy=$($logy && echo 1 || echo 0); ylow=$ylow"
	if [ "$nseries" -eq 0 ]; then
		skip_plot "no row of sweep.csv has a number in $y"
	elif ! $numx; then
		$logx && echo "sweep: $plotname: logx does not apply to bars over $x" >&2
		draw sweep_bars.gp "$plotname" "bars of $what" "$common; nx=$nx; xtics=$(gpstr "$xtics")"
	else
		# A log x axis when asked, or when x is positive and spans 4x or
		# more (CPU counts): base 2 if every value is a power of 2.
		logbase=0
		if $logx || { awk -v a="$xmin" -v b="$xmax" 'BEGIN { exit !(a > 0 && b >= 4 * a) }'; }; then
			logbase=10
			[ "$pow2" -eq 0 ] || logbase=2
		fi
		if [ "$logbase" -ne 0 ] && ! awk -v a="$xmin" 'BEGIN { exit !(a > 0) }'; then
			skip_plot "logx: $x has values not above 0"
		else
			draw sweep.gp "$plotname" "$what" "$common; logx=$logbase; xmin=$xmin; xmax=$xmax"
		fi
	fi
fi

# A column of the runs' timeseries.csv over time (by default the 1GB
# yield; a scenario names another with a line "-- sweep-timeseries: COLUMN
# LABEL"): a line per run, or with seeds swept per combination of the other
# keys (the mean over its seeds, a band from min to max), when there are 8
# lines or fewer.  A run's value holds from its sample on, and after its
# last sample until the last run of its line ends: the mean at a time is
# over the runs that have started.
ts_spec=$(sed -n 's/^-- sweep-timeseries: *//p' "$scenario" | head -n 1)
if [ -z "$ts_spec" ]; then
	ts_col=gb_movable_only
	ts_label='1 GiB regions free or movable-only (count)'
	ts_name=gb_yield
else
	ts_col=${ts_spec%% *}
	ts_label=${ts_spec#* }
	ts_name=$ts_col
fi
ts_plot=sweep-$ts_name.$format
# The runs that succeeded, as "LINE RUN": LINE is the run's combination
# without its seed (- when seed is the only key), the line it belongs to.
line_runs=$(printf '%s' "$done_runs" | awk '{ l = $0; sub(/(^|,)seed=[0-9]+/, "", l)
	sub(/^,/, "", l); print (l == "" ? "-" : l) " " $0 }')
lines=$(echo "$line_runs" | awk '!seen[$1]++ { print $1 }')
nlines=$(printf '%s\n' "$lines" | grep -c .) || true
all_ts=$(printf '%s' "$done_runs" | while IFS= read -r c; do echo "$out/$c/timeseries.csv"; done)
first_ts=$(echo "$all_ts" | head -n 1)
# shellcheck disable=SC2086
if [ ! -s "$first_ts" ]; then
	skipped "$ts_plot" "the runs wrote no timeseries.csv"
elif ! head -n 1 "$first_ts" | tr , '\n' | grep -Fqx "$ts_col"; then
	skipped "$ts_plot" "timeseries.csv has no column $ts_col"
elif ! awk -F, -v col="$ts_col" 'FNR == 1 { c = 0; for (i = 1; i <= NF; i++) if ($i == col) c = i
		first = ""; next }
		c && first == "" { first = $c } c && $c != first { moved = 1 } END { exit !moved }' \
		$all_ts 2> /dev/null; then
	skipped "$ts_plot" "$ts_col never moved in any run"
elif [ "$nlines" -gt 8 ]; then
	skipped "$ts_plot" "$nlines lines$($seeded && echo " (combinations, each the mean over its seeds)"), more than the 8 a plot keeps readable; sweep with fewer values"
else
	# sweep-NAME.dat: a block per line, "time mean min max runs" at each
	# change, twice at a step (the value before, then after).
	dat=$out/sweep-$ts_name.dat
	echo "# sweep-$ts_name.dat: time_ms mean min max runs of $ts_col, a block per line" > "$dat"
	titles=""
	ends=""
	i=0
	for line in $lines; do
		i=$((i + 1))
		files=$(echo "$line_runs" | awk -v l="$line" -v out="$out" '$1 == l { print out "/" $2 "/timeseries.csv" }')
		[ "$i" -eq 1 ] || printf '\n\n' >> "$dat"
		# shellcheck disable=SC2086
		awk -v col="$ts_col" "$sweep_awk"'
		FNR == 1 { r++; c = csv_col($0, col); tc = csv_col($0, "time_ms"); next }
		{ csv_split($0, f); n[r]++; t[r, n[r]] = f[tc] + 0; v[r, n[r]] = f[c] + 0 }
		END {
			for (i = 1; i <= r; i++) p[i] = 1
			while (1) {
				# the next sample time of any run, then each run at it
				now = ""
				for (i = 1; i <= r; i++)
					if (p[i] <= n[i] && (now == "" || t[i, p[i]] < now)) now = t[i, p[i]]
				if (now == "") break
				k = 0; sum = 0
				for (i = 1; i <= r; i++) {
					while (p[i] <= n[i] && t[i, p[i]] <= now) p[i]++
					if (p[i] == 1) continue
					x = v[i, p[i] - 1]
					if (!k || x < lo) lo = x
					if (!k || x > hi) hi = x
					sum += x; k++
				}
				row = sprintf("%.10g %.10g %.10g %d", sum / k, lo, hi, k)
				end = now
				if (row == last) continue
				if (last != "") printf "%.10g %s\n", now, last
				printf "%.10g %s\n", now, row
				last = row
				at = now
			}
			if (end > at) printf "%.10g %s\n", end, last
		}' $files >> "$dat"
		case $(echo "$pkeys" | wc -w) in
		0) titles=mean ;;
		1) titles="${titles:+$titles }${line#*=}" ;;
		*) titles="${titles:+$titles }$line" ;;
		esac
		# What the line's runs held at the end (results.end_memory.*, the
		# yield scenarios'): a yield difference may be a holding one.
		# shellcheck disable=SC2086
		end=$(awk "$sweep_awk"'
			FNR == 1 { fr = csv_col($0, "results.end_memory.free_mib")
				fi = csv_col($0, "results.end_memory.file_mib")
				an = csv_col($0, "results.end_memory.anon_mib"); next }
			FNR == 2 && fr && fi && an { csv_split($0, f); n++; a += f[fr]; b += f[fi]; c += f[an] }
			END { if (n) printf "%.1f, %.1f, %.1f", a / n / 1024, b / n / 1024, c / n / 1024 }' \
			$(echo "$files" | sed 's|/timeseries.csv$|/summary.csv|'))
		# Three lines' figures to a title line ("|" ends one).
		[ -z "$end" ] || ends="$ends$([ -z "$ends" ] || { [ $(((i - 1) % 3)) -eq 0 ] && echo '|' || echo '; '; })$(echo "$titles" | awk '{ print $NF }') $end"
	done
	[ -z "$ends" ] || ends="GiB held at the end (free, page cache, anonymous):|$ends"
	keytitle=""
	[ "$(echo "$pkeys" | wc -w)" -ne 1 ] || keytitle=$(label "$pkeys")
	what="$ts_label over time, a line per $($seeded && echo "combination, the mean over $nseeds seeds with a band from min to max" || echo run)"
	[ -z "$ends" ] || what="$what; $(echo "$ends" | tr '|' ' ')"
	# The phases of the first run: "name start_ms ...".
	phases=""
	if [ -s "$(dirname "$first_ts")/phases.csv" ]; then
		phases=$(awk -F, 'NR > 1 { printf "%s%s %s", (NR > 2 ? " " : ""), $1, $2 }' \
			"$(dirname "$first_ts")/phases.csv")
	fi
	tseed=""
	$seeded && tseed="mean over $nseeds seeds, band min-max"
	draw sweep_timeseries.gp "$ts_plot" "$what" "datafile=$(gpstr "$dat"); nlines=$nlines;
		titles=$(gpstr "$titles"); keytitle=$(gpstr "$keytitle"); band=$($seeded && echo 1 || echo 0);
		phases=$(gpstr "$phases"); ycol=$(gpstr "$ts_col"); ylabel=$(gpstr "$ts_label");
		plot_title=$(gpstr "$title"); subtitle=$(gpstr "$subtitle");
		seedline=$(gpstr "$tseed"); endline=$(gpstr "$ends")"
fi

echo "$out"
exit $status
