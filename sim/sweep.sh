#!/bin/sh
# Parameter sweeps (./run --sweep ...).
#
#   sweep.sh --sweep KEY=V1,V2,... [--sweep KEY=...]... [--plot SPEC] [--out DIR]
#            [-j N] SCENARIO.lua [mmsim options, e.g. -D k=v --seed N]
#
# Every combination of the swept values runs as its own process,
#   mmsim --out DIR/k1=v1,k2=v2 -D k1=v1 -D k2=v2 [mmsim options] SCENARIO.lua
# with its stdout and stderr in that folder, N at a time (default: the
# number of cores) through GNU parallel.  The runs' summary.csv files are
# then collected into DIR/sweep.csv, the swept parameters as first columns
# and then every run's columns (empty where a run has no such figure),
# and a figure is plotted into DIR/sweep.png (sweep.pdf or sweep.svg with
# -D plot_format=pdf|svg among the mmsim options).
#
# SPEC is y=COLUMN,x=PARAM,series=PARAM (each optional).  By default y is
# zone_lock.wait_share, x the first swept parameter whose values are all
# numbers (not the series), series the first other swept parameter
# (series= for none).  A scenario may choose its own defaults with a line
# "-- sweep-plot: SPEC"; --plot's settings take precedence.  Without --plot,
# a missing column or a non-numeric x only skips the plot.  When there are at most 8
# runs, DIR/sweep-gb_yield.png also draws each run's gb_movable_only
# column of timeseries.csv over time, or with a line "-- sweep-timeseries:
# COLUMN LABEL" in the scenario that column, into DIR/sweep-COLUMN.png.
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
# there, ":" for this one): each host gets the scenario, runs mmsim at the
# path it has here (the same checkout at the same path everywhere), and the
# run's folder comes back (parallel's --basefile, --return and --cleanup,
# through rsync).  The scenario and DIR must then lie under the current
# directory, given as relative paths.  --ssh CMD replaces ssh (parallel's
# --ssh; the tests use a stand-in that runs the command here).
#
# --slurm writes DIR/sweep.slurm, a Slurm array job of one task per
# combination (at most N at once), instead of running: submit it with
# sbatch; each task skips a run already done and appends its line to
# DIR/joblog as parallel would, so rerunning the same ./run --sweep
# command without --slurm afterwards runs only what failed, then collects
# sweep.csv and the plots.
#
# MMSIM_BIN replaces the mmsim binary (tests use a fake), MMSIM_PLOTSDIR
# the plots directory.
set -euf        # no globbing: values are split on commas and spaces
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/labels.sh"
. "$here/csv.sh"

die() {
	echo "sweep: $*" >&2
	exit 1
}

usage() {
	echo "usage: ./run --sweep KEY=V1,V2,... [--sweep ...] [--plot y=COL,x=PARAM,series=PARAM]" >&2
	echo "             [--out DIR] [-j N] [--hosts FILE [--ssh CMD] | --slurm]" >&2
	echo "             SCENARIO.lua [mmsim options]" >&2
	exit 2
}

# One run, as parallel starts it: --run-one OUT COMBINATION MMSIM [ARGS...].
# The -D settings of the combination go before the other arguments.
if [ "${1:-}" = --run-one ]; then
	dir=$2/$3
	combo=$3
	mmsim=$4
	shift 4
	n=$#
	for kv in $(echo "$combo" | tr , ' '); do
		set -- "$@" -D "$kv"
	done
	while [ "$n" -gt 0 ]; do     # rotate the original arguments to the end
		set -- "$@" "$1"
		shift
		n=$((n - 1))
	done
	mkdir -p "$dir"
	exec "$mmsim" --out "$dir" "$@" > "$dir/stdout" 2> "$dir/stderr"
fi

# ---- the command line: sweep options out, everything else kept in order ----
sweeps=""       # one KEY=V1,V2,... per line
plot=""
plot_given=false
out=""
jobs=""
hosts=""
ssh=""
slurm=false
n=$#
while [ "$n" -gt 0 ]; do
	a=$1
	shift
	n=$((n - 1))
	case $a in
	--slurm)
		slurm=true
		continue
		;;
	--sweep|--plot|--out|-j|--hosts|--ssh)
		[ "$n" -gt 0 ] || usage
		v=$1
		shift
		n=$((n - 1))
		;;
	--sweep=*|--plot=*|--out=*|--hosts=*|--ssh=*)
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
	--hosts) hosts=$v ;;
	--ssh) ssh=$v ;;
	esac
done

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
	keys="${keys:+$keys }$key"
done

# -D settings among the mmsim options: a swept key must not be fixed too,
# and plot_format chooses the plot's format.
format=png
fixed=""        # the other -D settings, for the plot's title
prev=""
for a in "$@"; do
	kv=""
	case $prev in
	-D|--define) kv=$a ;;
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

command -v parallel > /dev/null ||
	die "GNU parallel not found: install the Debian package parallel"
if [ -n "$hosts" ]; then
	$slurm && die "--hosts and --slurm: choose one"
	[ -r "$hosts" ] || die "--hosts $hosts: cannot read it"
	command -v rsync > /dev/null ||
		die "--hosts needs rsync (parallel transfers with it): install the Debian package rsync"
fi
[ -z "$ssh" ] || [ -n "$hosts" ] || die "--ssh goes with --hosts"

name=$(basename "$scenario" .lua)
[ -n "$out" ] || out=results/sweep-$name-$(date -u +%Y%m%dT%H%M%SZ)
if [ -n "$hosts" ]; then
	for p in "$scenario" "$out"; do
		case $p in
		/*|../*|*/../*|..) die "with --hosts, '$p' must be a relative path under the current directory" ;;
		esac
	done
fi
mkdir -p "$out" || die "cannot create $out"
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
		set -- -D "${spec%%=*}=$v" "$@"
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

# A run counts as done only once it has written its summary.csv: forget
# the joblog lines of the others, so that --resume-failed runs them again.
if [ -f "$out/joblog" ]; then
	seq=0
	missing=" "
	while IFS= read -r combo; do
		seq=$((seq + 1))
		[ -s "$out/$combo/summary.csv" ] || missing="$missing$seq "
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
finished=$(succeeded | wc -l)

# A word for a shell command line: single-quoted, a quote as '\''.
shquote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
if $slurm; then
	here_dir=$(pwd)
	{
		echo "#!/bin/sh"
		echo "# $total mmsim runs of $scenario, written by ./run --sweep ... --slurm."
		echo "# Submit with sbatch; afterwards, the same ./run --sweep command without"
		echo "# --slurm runs what failed and collects sweep.csv and the plots."
		echo "#SBATCH --job-name=mmsim-$name"
		echo "#SBATCH --array=1-$total%$jobs"
		echo "#SBATCH --output=$out/slurm-%A_%a.log"
		echo "set -u"
		echo "cd $(shquote "$here_dir")"
		echo "out=$(shquote "$out")"
		cat <<'HEAD'
seq=$SLURM_ARRAY_TASK_ID
combo=$(sed -n "${seq}p" "$out/jobs")
# Done before: nothing to do.
[ -s "$out/$combo/summary.csv" ] && exit 0
start=$(date +%s.%N)
HEAD
		printf 'sh %s --run-one "$out" "$combo" %s' "$(shquote "$here/sweep.sh")" "$(shquote "$mmsim")"
		for a in "$@"; do printf ' %s' "$(shquote "$a")"; done
		echo
		cat <<'TAIL'
status=$?
# The joblog line, as GNU parallel writes it (Seq Host Starttime JobRuntime
# Send Receive Exitval Signal Command), under a lock: tasks end at once.
{
	flock 9
	[ -s "$out/joblog" ] ||
		printf 'Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n' \
			>> "$out/joblog"
	awk -v s="$seq" -v h="$(hostname)" -v t0="$start" -v t1="$(date +%s.%N)" -v x="$status" \
		-v c="$combo" 'BEGIN { printf "%d\t%s\t%.3f\t%8.3f\t0\t0\t%d\t0\t%s\n", s, h, t0, t1 - t0, x, c }' \
		>> "$out/joblog"
} 9>> "$out/joblog.lock"
exit $status
TAIL
	} > "$out/sweep.slurm"
	echo "sweep: $total runs ($finished done before) in $out/sweep.slurm: submit with" >&2
	echo "  sbatch $out/sweep.slurm" >&2
	echo "then rerun this command without --slurm to collect sweep.csv and the plots" >&2
	echo "$out"
	exit 0
fi

echo "sweep: $total runs of $scenario ($finished done before), $jobs at a time${hosts:+ on the hosts of $hosts}, in $out" >&2
bar=""
[ -t 2 ] && bar=--bar
# The command parallel runs, quoted here: with -q, parallel would quote
# the {} of --return too.  Combinations need no quoting (checked above).
# RSYNC_OLD_ARGS: rsync 3.2.4 and later quote the remote path themselves,
# on top of parallel's quoting of --return's path.
cmd="sh $(shquote "$here/sweep.sh") --run-one $(shquote "$out") {} $(shquote "$mmsim")"
for a in "$@"; do
	cmd="$cmd $(shquote "$a")"
done
if [ -n "$hosts" ]; then
	# Each host gets the scenario and sends the run's folder back.
	set -- --sshloginfile "$hosts" --basefile "$scenario" --return "$out/{}" --cleanup
	[ -z "$ssh" ] || set -- "$@" --ssh "$ssh"
else
	set -- -j "$jobs"
fi
# parallel builds the remote command for $SHELL; with SHELL unset (cron,
# CI, env -i) the command it sends never runs the job.
: "${SHELL:=/bin/sh}"
export SHELL
# shellcheck disable=SC2086
RSYNC_OLD_ARGS=1 parallel --will-cite $bar "$@" --joblog "$out/joblog" --resume-failed "$cmd" \
	:::: "$out/jobs" || true

# ---- sweep.csv ----
# Reruns add lines to the joblog: a job's last line is its outcome.
ok=$(succeeded)
status=0
seq=0
rows=0
: > "$out/sweep.csv.tmp"
while IFS= read -r combo; do
	seq=$((seq + 1))
	run=$out/$combo
	if ! echo "$ok" | grep -qx "$seq"; then
		code=$(awk -F'\t' -v s="$seq" 'NR > 1 && $1 == s { c = $7; sig = $8 }
			END { print (sig ? "signal " sig : "exit status " c) }' "$out/joblog" 2> /dev/null)
		echo "sweep: run $combo failed (${code:-not run}); the end of $run/stderr:" >&2
		tail -n 5 "$run/stderr" 2> /dev/null | sed 's/^/  | /' >&2 || true
		status=1
		continue
	fi
	if [ ! -s "$run/summary.csv" ] || [ "$(wc -l < "$run/summary.csv")" -lt 2 ]; then
		echo "sweep: run $combo wrote no summary.csv" >&2
		status=1
		continue
	fi
	printf '%s\t%s\n' "$(echo "$combo" | sed 's/[^,]*=//g')" "$run/summary.csv" \
		>> "$out/sweep.csv.tmp"
	rows=$((rows + 1))
done < "$out/jobs"
if [ "$rows" -eq 0 ]; then
	rm -f "$out/sweep.csv.tmp"
	echo "$out"
	die "no run succeeded"
fi
# The swept values, then every column of the runs' summaries in the order
# first met (a figure some runs lack, such as policy spb's spb_walk.*,
# leaves their cells empty).
awk -F '\t' -v keys="$(echo "$keys" | tr ' ' ,)" '
# The fields of a CSV line as written, quotes and all.
function fields(line, out,    n, i, c, f, q) {
	n = 0; f = ""; q = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (c == "\"") q = !q
		if (!q && c == ",") { out[++n] = f; f = ""; continue }
		f = f c
	}
	out[++n] = f
	return n
}
{
	values[NR] = $1
	getline head < $2
	getline row < $2
	close($2)
	n = fields(head, k)
	if (fields(row, v) != n) {
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
	for (c = 1; c <= ncol; c++) line = line "," name[c]
	print line
	for (r = 1; r <= NR; r++) {
		line = values[r]
		for (c = 1; c <= ncol; c++) line = line "," cell[r, c]
		print line
	}
}' "$out/sweep.csv.tmp" > "$out/sweep.csv.new" || { rm -f "$out/sweep.csv.tmp" "$out/sweep.csv.new"; die "could not collect sweep.csv"; }
rm -f "$out/sweep.csv.tmp"
mv "$out/sweep.csv.new" "$out/sweep.csv"

# ---- the plot ----
# Column names of sweep.csv, one per line.
columns=$(head -n 1 "$out/sweep.csv" | tr , '\n')
has_column() { echo "$columns" | grep -Fqx "$1"; }
# Every value of column $1 in sweep.csv is a number.
numeric() {
	awk -v col="$1" "$csv_fields"'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		$c !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ { bad = 1 }
		END { exit bad }' "$out/sweep.csv"
}
# gnuplot string: single quotes, a quote doubled.
gpstr() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
skip_plot() {
	$plot_given && { echo "sweep: no plot: $*" >&2; status=1; return; }
	echo "sweep: no plot: $*" >&2
}

y=zone_lock.wait_share
x=""
series=""
series_given=false
scenario_plot=$(sed -n 's/^-- sweep-plot: *//p' "$scenario" | head -n 1)
for kv in $(echo "$scenario_plot,$plot" | tr , ' '); do
	case $kv in
	y=*) y=${kv#y=} ;;
	x=*) x=${kv#x=} ;;
	series=*) series=${kv#series=}; series_given=true ;;
	*) die "--plot $scenario_plot,$plot: expected y=COLUMN,x=PARAM,series=PARAM" ;;
	esac
done
if [ -z "$x" ]; then
	for k in $keys; do
		[ "$k" != "$series" ] && numeric "$k" && { x=$k; break; }
	done
fi
# No numeric parameter: bars over the first categorical one.
if [ -z "$x" ]; then
	for k in $keys; do
		[ "$k" != "$series" ] && { x=$k; break; }
	done
fi
if ! $series_given; then
	for k in $keys; do
		[ "$k" != "$x" ] && { series=$k; break; }
	done
fi
# The value of column $1 when every run has the same, else nothing.
same_value() {
	awk -v col="$1" "$csv_fields"'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		c { v[$c] = 1; last = $c } END { n = 0; for (k in v) n++; if (n == 1) print last }' \
		"$out/sweep.csv"
}
# The title: the scenario, then what every run shared (machine, policy,
# threads, duration), then the other -D settings.
context=$(same_value machine.name)
v=$(same_value machine.policy)
[ -n "$v" ] && context="${context:+$context, }$v"
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
ylabel=$(key_label "$y")
yscale=${ylabel##*|}
ylabel=${ylabel%|*}
xlabel=$(key_label "$x")
[ "${xlabel##*|}" = 1 ] && xlabel=${xlabel%|*} || xlabel=$x
serieslabel=$(key_label "$series")
[ "${serieslabel##*|}" = 1 ] && serieslabel=${serieslabel%|*} || serieslabel=$series

plotfile=$out/sweep.$format
if [ -z "$x" ]; then
	skip_plot "no swept parameter to plot against"
elif ! has_column "$x" || ! has_column "$y" || { [ -n "$series" ] && ! has_column "$series"; }; then
	skip_plot "sweep.csv lacks one of the columns $y, $x${series:+, $series}"
elif ! numeric "$x"; then
	# Categories (policies): a bar per value of x, clustered by series,
	# from a table of the means (runs of other parameters or seeds).
	awk -v xc="$x" -v sc="$series" -v yc="$y" "$csv_fields"'
	NR == 1 { for (i = 1; i <= NF; i++) { if ($i == xc) xi = i; if ($i == sc) si = i; if ($i == yc) yi = i }; next }
	{
		xv = $xi; sv = si ? $si : yc
		if (!(xv in xseen)) { xseen[xv] = 1; xs[++nx] = xv }
		if (!(sv in sseen)) { sseen[sv] = 1; ss[++ns] = sv }
		sum[xv, sv] += $yi; n[xv, sv]++
	}
	END {
		printf "%s", xc
		for (j = 1; j <= ns; j++) printf " %s", ss[j]
		print ""
		for (i = 1; i <= nx; i++) {
			printf "%s", xs[i]
			for (j = 1; j <= ns; j++)
				printf " %s", n[xs[i], ss[j]] ? sum[xs[i], ss[j]] / n[xs[i], ss[j]] : "NaN"
			print ""
		}
	}' "$out/sweep.csv" > "$out/sweep-bars.dat"
	if ! err=$(gnuplot -e "datafile=$(gpstr "$out/sweep-bars.dat"); outfile=$(gpstr "$plotfile");
			term=$(gpstr "$format"); plot_title=$(gpstr "$title"); xlabel=$(gpstr "$xlabel");
			ylabel=$(gpstr "$ylabel"); yscale=$yscale; serieslabel=$(gpstr "$serieslabel");
			nseries=$(($(head -n 1 "$out/sweep-bars.dat" | wc -w) - 1))" \
			"${MMSIM_PLOTSDIR:-$top/plots}/sweep_bars.gp" 2>&1) || [ ! -s "$plotfile" ]; then
		echo "sweep: warning: gnuplot failed on $out/sweep-bars.dat:" >&2
		echo "$err" >&2
		status=1
	elif [ -n "$err" ]; then
		echo "$err" >&2
	fi
else
	if ! err=$(gnuplot -e "datafile=$(gpstr "$out/sweep.csv"); outfile=$(gpstr "$plotfile");
			term=$(gpstr "$format"); plot_title=$(gpstr "$title"); xcol=$(gpstr "$x");
			ycol=$(gpstr "$y"); seriescol=$(gpstr "$series"); xlabel=$(gpstr "$xlabel");
			ylabel=$(gpstr "$ylabel"); yscale=$yscale; serieslabel=$(gpstr "$serieslabel")" \
			"${MMSIM_PLOTSDIR:-$top/plots}/sweep.gp" 2>&1) || [ ! -s "$plotfile" ]; then
		echo "sweep: warning: gnuplot failed on $out/sweep.csv:" >&2
		echo "$err" >&2
		status=1
	elif [ -n "$err" ]; then
		echo "$err" >&2
	fi
fi

# A column of every run's timeseries.csv over time (by default the 1GB
# yield; a scenario names another with a line "-- sweep-timeseries: COLUMN
# LABEL"), when the runs sampled it, it moved in one of them at least, and
# there are few enough runs for the lines to stay readable.
ts_spec=$(sed -n 's/^-- sweep-timeseries: *//p' "$scenario" | head -n 1)
ts_col=${ts_spec%% *}
ts_label=${ts_spec#* }
if [ -z "$ts_spec" ] || [ "$ts_label" = "$ts_spec" ]; then
	ts_col=gb_movable_only
	ts_label='1 GiB regions free or movable-only (count)'
	ts_name=gb_yield
else
	ts_name=$ts_col
fi
ts_files=""
ts_titles=""
while IFS= read -r combo; do
	ts_files="$ts_files $out/$combo/timeseries.csv"
	ts_titles="$ts_titles $combo"
done < "$out/jobs"
first=$(echo $ts_files | cut -d' ' -f1)
if [ "$(echo $ts_files | wc -w)" -le 8 ] && [ -s "$first" ] &&
	head -1 "$first" | tr , '\n' | grep -qx "$ts_col" &&
	# shellcheck disable=SC2086
	awk -F, -v col="$ts_col" 'FNR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; first = ""; next }
		first == "" { first = $c } $c != first { moved = 1 } END { exit !moved }' $ts_files \
		2> /dev/null; then
	tsfile=$out/sweep-$ts_name.$format
	if ! err=$(gnuplot -e "files=$(gpstr "$(echo $ts_files)"); titles=$(gpstr "$(echo $ts_titles)");
			ycol=$(gpstr "$ts_col"); ylabel=$(gpstr "$ts_label");
			outfile=$(gpstr "$tsfile"); term=$(gpstr "$format"); plot_title=$(gpstr "$title")" \
			"${MMSIM_PLOTSDIR:-$top/plots}/sweep_timeseries.gp" 2>&1) || [ ! -s "$tsfile" ]; then
		echo "sweep: warning: gnuplot failed on the runs' timeseries.csv:" >&2
		echo "$err" >&2
		status=1
	fi
fi

echo "$out"
exit $status
