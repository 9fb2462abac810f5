#!/bin/sh
# Results folders side by side (./run compare ...).
#
#   compare.sh [--all] [--out DIR] [-D plot_format=png|pdf|svg] DIR_A DIR_B [DIR_C ...]
#
# The folders are labelled A, B, C, ... in their order, and a legend names
# each with how its run was made: summary.json's command (or scenario),
# machine.title, seed, window, version and wall_time_s, which are shown,
# never subtracted.  A warning on stderr says when the folders ran
# different scenarios (another file name, or the same name with other
# contents in their scenario/ copies) or different machines.
#
# Then a table of the figures of their summary.csv: A's value, then each
# other folder's with its difference from A, absolute and in % ("-" where
# A's is 0 or a value is not a number); figures equal in every folder are
# left out unless --all.  Figures are compared over the same span of
# simulated time: a phase's (phases.NAME.*) only when every run had that
# phase, and when the headline window differs (phase measure in one run,
# the whole run in another) the window's figures only as whole_run.* and
# per phase, never the one window against the other.
#
# DIR/compare.csv holds the same table as RFC 4180 CSV (a field with a
# comma, a quote or a line break quoted, a quote doubled), headed
# figure,A,B,B-A,B-A %,C,C-A,C-A %,...; its first row, "folder", names the
# folders, the next ones hold the legend's keys (their difference fields
# empty).  The runs' time series are overlaid, one line per folder:
# DIR/compare-lock.png (zone->lock wait share over time) if a run waited
# for zone->lock, DIR/compare-gb_yield.png (1 GiB regions free or
# movable-only) if that moved in a run.  DIR defaults to
# results/compare-<UTC timestamp>.  MMSIM_PLOTSDIR replaces the plots
# directory.  With --baseline, sim/gate.sh compares DIR with a baseline
# folder instead (the CI gate).
set -euf
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/labels.sh"
. "$here/csv.sh"

die() {
	echo "compare: $*" >&2
	exit 1
}
usage() {
	echo "usage: ./run compare [--all] [--out DIR] [-D plot_format=png|pdf|svg] DIR_A DIR_B [DIR ...]" >&2
	echo "       ./run compare --baseline BASE [--fail-if 'FIGURE>+10%' ...] DIR" >&2
	exit 2
}
nl='
'

# --baseline: the CI gate, sim/gate.sh.
for a in "$@"; do
	case $a in
	--baseline|--baseline=*) exec sh "$here/gate.sh" "$@" ;;
	esac
done

all=false
out=""
format=png
dirs=""         # one folder a line
n=0
while [ $# -gt 0 ]; do
	case $1 in
	--all) all=true; shift ;;
	--out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	--out=*) out=${1#--out=}; shift ;;
	-D) [ $# -ge 2 ] || usage; format=${2#plot_format=}; [ "$format" != "$2" ] || usage; shift 2 ;;
	-Dplot_format=*) format=${1#-Dplot_format=}; shift ;;
	-*) usage ;;
	*)
		case $1 in
		*"$nl"*) die "folder names with a line break are not supported" ;;
		esac
		[ -s "$1/summary.csv" ] || die "$1 is not a results folder (no summary.csv)"
		dirs="$dirs$1$nl"
		n=$((n + 1))
		shift
		;;
	esac
done
[ "$n" -ge 2 ] || usage
[ "$n" -le 26 ] || die "at most 26 folders (A to Z), not $n"
case $format in
png|pdf|svg) ;;
*) die "plot_format must be png, pdf or svg, not '$format'" ;;
esac
[ -n "$out" ] || out=results/compare-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out" || die "cannot create $out"

# The folders' summary.csv as awk's operands: a relative name gets "./",
# so that awk never takes a sweep's run folder (k=v,...) for an assignment.
# Then which folders' scenario/ copies of a script with A's name differ
# from A's ("B C"): the same file name, other contents.
set --
first=""
changed=""
label=0
while IFS= read -r d; do
	[ -n "$d" ] || continue
	label=$((label + 1))
	case $d in
	/*) set -- "$@" "$d/summary.csv" ;;
	*) set -- "$@" "./$d/summary.csv" ;;
	esac
	scen=$(awk "$csv_awk"'{ n = csv_split($0, f) }
		NR == 1 { for (i = 1; i <= n; i++) if (f[i] == "scenario") c = i; next }
		NR == 2 && c { print f[c] }' "$d/summary.csv")
	copy=$d/scenario/$(basename "${scen:-none}")
	if [ -z "$first" ]; then
		first=$copy
	elif [ -f "$first" ] && [ -f "$copy" ] && [ "$(basename "$first")" = "$(basename "$copy")" ] &&
		! cmp -s "$first" "$copy"; then
		changed="$changed $(printf '%s' ABCDEFGHIJKLMNOPQRSTUVWXYZ | cut -c$label)"
	fi
done <<EOF
$dirs
EOF

# ---- the legend, the warnings and the table ----
COMPARE_DIRS=$dirs COMPARE_CHANGED=$changed COMPARE_CSV=$out/compare.csv awk -v all="$all" \
	"$csv_awk"'
function num(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function fmt(v) { return (v == int(v) && v < 1e15 && v > -1e15) ? sprintf("%d", v) : sprintf("%.4g", v) }
function exact(v) { return (v == int(v) && v < 1e18 && v > -1e18) ? sprintf("%d", v) : sprintf("%.12g", v) }
function cut(s, w) { return length(s) > w ? substr(s, 1, w - 1) "~" : s }
# The phase a key belongs to ("phases.NAME.x"), else "".
function phase_of(k,    p) {
	if (k !~ /^phases\./) return ""
	p = substr(k, 8)
	return substr(p, 1, index(p, ".") - 1)
}
function base(p) { sub(/\/+$/, "", p); sub(/.*\//, "", p); return p }
FNR == 1 { f++; nh = csv_split($0, head); next }
FNR == 2 {
	if (csv_split($0, v) != nh) {
		printf "compare: %s: a row of another length than its header\n", FILENAME > "/dev/stderr"
		bad = 1
		exit 1
	}
	for (i = 1; i <= nh; i++) {
		k = head[i]
		if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		val[f, k] = v[i]; has[f, k] = 1
		p = phase_of(k)
		if (p != "") ran[f, p] = 1
	}
}
END {
	if (bad) exit 1
	nf = f
	csv = ENVIRON["COMPARE_CSV"]
	split(ENVIRON["COMPARE_DIRS"], name, "\n")
	for (j = 1; j <= nf; j++) lab[j] = substr("ABCDEFGHIJKLMNOPQRSTUVWXYZ", j, 1)
	nrun = split("command scenario seed machine.title window interrupted version wall_time_s", run, " ")
	for (i = 1; i <= nrun; i++) is_run[run[i]] = 1

	# Legend: what each folder is and how its run was made.
	for (j = 1; j <= nf; j++) {
		printf "%s  %s\n", lab[j], name[j]
		printf "   %s\n", has[j, "command"] ? val[j, "command"] : val[j, "scenario"]
		line = ""
		if (has[j, "machine.title"]) line = val[j, "machine.title"] "; "
		else if (has[j, "machine.name"]) line = val[j, "machine.name"] "; "
		line = line "seed " val[j, "seed"]
		if (has[j, "window"]) line = line ", window " val[j, "window"]
		if (val[j, "interrupted"] == "true") line = line ", interrupted"
		line = line "; mmsim " val[j, "version"]
		if (has[j, "wall_time_s"]) line = line ", " sprintf("%.1f", val[j, "wall_time_s"]) " s wall"
		printf "   %s\n", line
	}
	print ""

	# Warnings: other scenarios, other machines.
	differ = ""
	for (j = 2; j <= nf; j++) if (base(val[j, "scenario"]) != base(val[1, "scenario"])) differ = 1
	if (differ) {
		msg = ""
		for (j = 1; j <= nf; j++) msg = msg (j > 1 ? ", " : "") lab[j] " " val[j, "scenario"]
		print "compare: warning: the folders ran different scenarios: " msg > "/dev/stderr"
	}
	if (ENVIRON["COMPARE_CHANGED"] != "")
		print "compare: warning: the scenario file of" ENVIRON["COMPARE_CHANGED"] \
			" (its copy in scenario/) is not the same as A'"'"'s" > "/dev/stderr"
	mkey = ("machine.title" in seen) ? "machine.title" : "machine.name"
	differ = ""
	for (j = 2; j <= nf; j++) {
		if (val[j, mkey] != val[1, mkey]) differ = 1
		for (i = 1; i <= 3; i++) {
			k = i == 1 ? "machine.nodes" : i == 2 ? "machine.cpus" : "machine.memory_mib"
			if (val[j, k] != val[1, k]) differ = 1
		}
	}
	if (differ) {
		msg = ""
		for (j = 1; j <= nf; j++)
			msg = msg (j > 1 ? ", " : "") lab[j] " " (val[j, mkey] != "" ? val[j, mkey] : "none") \
			      (mkey == "machine.title" ? "" : " (" val[j, "machine.cpus"] " CPUs, " \
			       val[j, "machine.memory_mib"] " MiB)")
		print "compare: warning: the folders ran different machines: " msg > "/dev/stderr"
	}

	# The same span of simulated time in every column.  Headline windows
	# that differ: a window figure K (one with whole_run.K) is compared
	# as whole_run.K, taken from K where the run had no other window.
	for (j = 1; j <= nf; j++) win[j] = has[j, "window"] ? val[j, "window"] : "whole_run"
	windows = ""
	for (j = 2; j <= nf; j++) if (win[j] != win[1]) windows = 1
	if (windows) {
		for (i = 1; i <= nk; i++) {
			k = order[i]
			if (k ~ /^(phases|whole_run)\./ || !(("whole_run." k) in seen)) continue
			drop[k] = 1
			for (j = 1; j <= nf; j++)
				if (win[j] == "whole_run" && has[j, k]) {
					val[j, "whole_run." k] = val[j, k]; has[j, "whole_run." k] = 1
				}
		}
		msg = ""
		for (j = 1; j <= nf; j++) msg = msg (j > 1 ? ", " : "") lab[j] " " win[j]
		print "headline windows differ (" msg "): their figures are compared as whole_run.* and per phase"
	}
	# Phases not every run had.
	msg = ""
	for (i = 1; i <= nk; i++) {
		p = phase_of(order[i])
		if (p == "" || (p in noted)) continue
		noted[p] = 1
		missing = ""
		for (j = 1; j <= nf; j++) if (!ran[j, p]) missing = missing lab[j]
		if (missing != "") { unshared[p] = 1; msg = msg (msg != "" ? ", " : "") p " (not in " missing ")" }
	}
	if (msg != "") print "phases not in every run, left out: " msg

	# The rows: the legend keys for the CSV, the figures for both.
	nr = 0
	for (i = 1; i <= nk; i++) {
		k = order[i]
		if (is_run[k] || drop[k] || unshared[phase_of(k)]) continue
		same = 1
		for (j = 2; j <= nf; j++) if (val[j, k] != val[1, k] || has[j, k] != has[1, k]) same = 0
		if (same && all != "true") { left++; continue }
		row[++nr] = k
	}

	# Column widths.
	w0 = 6
	for (r = 1; r <= nr; r++) if (length(row[r]) > w0) w0 = length(row[r])
	for (j = 1; j <= nf; j++) {
		w[j] = 8; wd[j] = 8
		for (r = 1; r <= nr; r++) {
			k = row[r]
			s = has[j, k] ? (num(val[j, k]) ? fmt(val[j, k] + 0) : cut(val[j, k], 20)) : "-"
			cell[j, r] = s
			if (length(s) > w[j]) w[j] = length(s)
			if (j == 1) continue
			a = val[1, k]; b = val[j, k]
			if (has[1, k] && has[j, k] && num(a) && num(b)) {
				dv = b - a
				d[j, r] = (dv > 0 ? "+" : "") fmt(dv)
				pc[j, r] = a != 0 ? sprintf("%+.1f", 100 * dv / a) : "-"
				dx[j, r] = exact(dv); px[j, r] = a != 0 ? exact(100 * dv / a) : ""
			} else {
				d[j, r] = "-"; pc[j, r] = "-"; dx[j, r] = ""; px[j, r] = ""
			}
			if (length(d[j, r]) > wd[j]) wd[j] = length(d[j, r])
		}
	}
	printf "%-" w0 "s", "figure"
	for (j = 1; j <= nf; j++) {
		printf "  %" w[j] "s", lab[j]
		if (j > 1) printf "  %" wd[j] "s  %7s", lab[j] "-" lab[1], "%"
	}
	print ""
	for (r = 1; r <= nr; r++) {
		printf "%-" w0 "s", row[r]
		for (j = 1; j <= nf; j++) {
			printf "  %" w[j] "s", cell[j, r]
			if (j > 1) printf "  %" wd[j] "s  %7s", d[j, r], pc[j, r]
		}
		print ""
	}
	if (left) printf "(%d figures equal in every folder left out; --all shows them)\n", left

	# compare.csv
	printf "figure" > csv
	for (j = 1; j <= nf; j++) {
		printf ",%s", lab[j] > csv
		if (j > 1) printf ",%s,%s", lab[j] "-" lab[1], lab[j] "-" lab[1] " %" > csv
	}
	print "" > csv
	printf "folder" > csv
	for (j = 1; j <= nf; j++) printf ",%s%s", csv_field(name[j]), (j > 1 ? ",," : "") > csv
	print "" > csv
	for (i = 1; i <= nrun; i++) {
		k = run[i]
		if (!(k in seen)) continue
		printf "%s", k > csv
		for (j = 1; j <= nf; j++) printf ",%s%s", csv_field(val[j, k]), (j > 1 ? ",," : "") > csv
		print "" > csv
	}
	for (r = 1; r <= nr; r++) {
		k = row[r]
		printf "%s", csv_field(k) > csv
		for (j = 1; j <= nf; j++) {
			printf ",%s", csv_field(val[j, k]) > csv
			if (j > 1) printf ",%s,%s", dx[j, r], px[j, r] > csv
		}
		print "" > csv
	}
}' "$@" || exit 1

# ---- the overlays ----
gpstr() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
# A word of a gnuplot word list: quoted with the quote it does not hold.
gpword() {
	case $1 in
	*\"*) case $1 in *"'"*) return 1 ;; esac; printf " '%s'" "$1" ;;
	*) printf ' "%s"' "$1" ;;
	esac
}
files=""
titles=""
label=0
while IFS= read -r d; do
	[ -n "$d" ] || continue
	label=$((label + 1))
	if [ ! -s "$d/timeseries.csv" ]; then
		files=""
		break
	fi
	l=$(printf '%s' ABCDEFGHIJKLMNOPQRSTUVWXYZ | cut -c$label)
	if ! w=$(gpword "$d/timeseries.csv") || ! t=$(gpword "$l: $(basename "$d")"); then
		echo "compare: warning: no overlay plots: $d holds both kinds of quote" >&2
		files=""
		break
	fi
	files="$files$w"
	titles="$titles$t"
done <<EOF
$dirs
EOF
# Column $1 of every timeseries.csv: true if it is in all of them and one
# value differs from its first (it moved) or, with $2 = nonzero, is not 0.
moves() {
	col=$1
	test=${2:-}
	set --
	while IFS= read -r d; do
		case $d in
		'') ;;
		/*) set -- "$@" "$d/timeseries.csv" ;;
		*) set -- "$@" "./$d/timeseries.csv" ;;
		esac
	done <<EOF
$dirs
EOF
	awk -F, -v col="$col" -v test="$test" '
	FNR == 1 { c = 0; for (i = 1; i <= NF; i++) if ($i == col) c = i; if (!c) missing = 1
		first = ""; next }
	!c { next }
	first == "" { first = $c }
	(test == "nonzero" ? $c + 0 != 0 : $c != first) { yes = 1 }
	END { exit missing || !yes }' "$@"
}
status=0
overlay() {         # file column yscale ylabel title steps
	if ! err=$(gnuplot -e "files=$(gpstr "$files"); titles=$(gpstr "$titles");
			ycol=$(gpstr "$2"); yscale=$3; ylabel=$(gpstr "$4");
			outfile=$(gpstr "$out/$1.$format"); term=$(gpstr "$format");
			plot_title=$(gpstr "$5"); steps='$6'" \
			"${MMSIM_PLOTSDIR:-$top/plots}/sweep_timeseries.gp" 2>&1) ||
			[ ! -s "$out/$1.$format" ]; then
		echo "compare: warning: gnuplot failed on the folders' timeseries.csv:" >&2
		echo "$err" >&2
		status=1
	fi
}
if [ -n "$files" ]; then
	moves zone_lock_wait_share nonzero &&
		overlay compare-lock zone_lock_wait_share 100 "zone->lock wait share (%)" \
			"zone->lock wait share over time" fsteps
	moves gb_movable_only &&
		overlay compare-gb_yield gb_movable_only 1 "1 GiB regions free or movable-only (count)" \
			"1 GiB regions free or movable-only over time" steps
fi
echo "compare: table and plots in $out" >&2
exit $status
