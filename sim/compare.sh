#!/bin/sh
# Results folders side by side (./run compare ...).
#
#   compare.sh [--all] [--out DIR] [-D plot_format=png|pdf|svg] DIR_A DIR_B [DIR_C ...]
#
# Prints a table of the figures of the folders' summary.csv files, the
# first folder's value, then each other folder's with its difference from
# the first, absolute and in % ("-" where the first is 0 or a value is not
# a number); figures equal in every folder are left out unless --all.
# The same table goes to DIR/compare.csv, and the runs' time series are
# overlaid, one line per folder: DIR/compare-lock.png (zone->lock wait
# share over time) if a run waited for zone->lock, DIR/compare-gb_yield.png
# (1 GiB regions free or movable-only) if that moved in a run.  DIR
# defaults to results/compare-<UTC timestamp>.  MMSIM_PLOTSDIR replaces
# the plots directory.
set -euf
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/labels.sh"

die() {
	echo "compare: $*" >&2
	exit 1
}
usage() {
	echo "usage: ./run compare [--all] [--out DIR] [-D plot_format=png|pdf|svg] DIR_A DIR_B [DIR ...]" >&2
	exit 2
}

all=false
out=""
format=png
dirs=""
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
		[ -s "$1/summary.csv" ] || die "$1 is not a results folder (no summary.csv)"
		case $1 in
		*[[:space:]]*) die "'$1': folder names with spaces are not supported" ;;
		esac
		dirs="$dirs $1"
		n=$((n + 1))
		shift
		;;
	esac
done
[ "$n" -ge 2 ] || usage
case $format in
png|pdf|svg) ;;
*) die "plot_format must be png, pdf or svg, not '$format'" ;;
esac
[ -n "$out" ] || out=results/compare-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out" || die "cannot create $out"

# ---- the table ----
# Each folder's summary.csv as KEY<tab>VALUE lines, folders in order; awk
# joins them on the first folder's keys, then any key only later ones have.
# shellcheck disable=SC2086
for d in $dirs; do
	echo "@ $(basename "$d")"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) k[i] = $i; next }
		NR == 2 { for (i = 1; i <= NF; i++) print k[i] "\t" $i }' "$d/summary.csv"
done | awk -F'\t' -v all="$all" -v csv="$out/compare.csv" '
function num(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function fmt(v) { return (v == int(v) && v < 1e15 && v > -1e15) ? sprintf("%d", v) : sprintf("%.4g", v) }
/^@ / { f++; name[f] = substr($0, 3); next }
{
	if (!($1 in seen)) { seen[$1] = 1; key[++nk] = $1 }
	val[f, $1] = $2; has[f, $1] = 1
}
END {
	printf "figure" > csv
	for (j = 1; j <= f; j++) {
		printf ",%s", name[j] > csv
		if (j > 1) printf ",%s-%s,%s-%s %%", name[j], name[1], name[j], name[1] > csv
	}
	print "" > csv
	w = 6
	for (i = 1; i <= nk; i++) if (length(key[i]) > w) w = length(key[i])
	printf "%-" w "s", "figure"
	for (j = 1; j <= f; j++)
		printf "  %14s%s", substr(name[j], 1, 14), (j > 1 ? sprintf("  %12s  %8s", "diff", "%") : "")
	print ""
	left = 0
	for (i = 1; i <= nk; i++) {
		k = key[i]
		same = 1
		for (j = 2; j <= f; j++) if (val[j, k] != val[1, k] || has[j, k] != has[1, k]) same = 0
		if (same && all != "true") { left++; continue }
		line = sprintf("%-" w "s", k)
		row = k
		for (j = 1; j <= f; j++) {
			v = has[j, k] ? val[j, k] : "-"
			line = line sprintf("  %14s", num(v) ? fmt(v + 0) : substr(v, 1, 14))
			row = row "," v
			if (j == 1) continue
			a = val[1, k]
			if (has[1, k] && has[j, k] && num(a) && num(v)) {
				dv = v - a
				pct = a != 0 ? sprintf("%+.1f", 100 * dv / a) : "-"
				line = line sprintf("  %12s  %8s", (dv > 0 ? "+" : "") fmt(dv), pct)
				row = row "," dv "," (a != 0 ? 100 * dv / a : "")
			} else {
				line = line sprintf("  %12s  %8s", "-", "-")
				row = row ",,"
			}
		}
		print line
		print row > csv
	}
	if (left) printf "(%d figures equal in every folder left out; --all shows them)\n", left
}'

# ---- the overlays ----
gpstr() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
files=""
titles=""
# shellcheck disable=SC2086
for d in $dirs; do
	[ -s "$d/timeseries.csv" ] || { files=""; break; }
	files="$files $d/timeseries.csv"
	titles="$titles $(basename "$d")"
done
# Column $1 of every timeseries.csv: true if it is in all of them and one
# value differs from its first (it moved) or, with $2 = nonzero, is not 0.
moves() {
	# shellcheck disable=SC2086
	awk -F, -v col="$1" -v test="${2:-}" '
	FNR == 1 { c = 0; for (i = 1; i <= NF; i++) if ($i == col) c = i; if (!c) missing = 1
		first = ""; next }
	!c { next }
	first == "" { first = $c }
	(test == "nonzero" ? $c + 0 != 0 : $c != first) { yes = 1 }
	END { exit missing || !yes }' $files
}
status=0
overlay() {         # file column yscale ylabel title steps
	if ! err=$(gnuplot -e "files=$(gpstr "$(echo $files)"); titles=$(gpstr "$(echo $titles)");
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
