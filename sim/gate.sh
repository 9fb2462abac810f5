#!/bin/sh
# A regression gate for CI (./run compare --baseline ...).
#
#   gate.sh --baseline BASE [--fail-if SPEC]... DIR
#
# DIR and BASE are both sweep folders (sweep.csv; the swept keys are the
# names in DIR/jobs, seed aside) or both run folders (summary.csv, one
# row).  Each combination of swept values in BASE is looked up in DIR; a
# combination DIR lacks is an error.  SPEC is FIGURE>+N% (the figure rose
# by more than N% of the baseline's), FIGURE<-N% (fell by more than N%),
# or FIGURE>+X, FIGURE<-X (rose or fell by more than X, absolute); the
# sign may be left out.  With seeds swept, FIGURE is the mean over the
# seeds and the check fails only when the change also exceeds the seeds'
# spread: DIR's min to max range and BASE's do not overlap.  A figure that
# either folder lacks, or that is not a number, is an error.  Every figure
# past its threshold is named, a line each; exit status 1 when one is, 2
# on an error (and on a usage error), else 0.  Without --fail-if, the
# figures that differ are listed (wall-clock ones aside) and the status is 0.
set -euf
here=$(cd "$(dirname "$0")" && pwd)
. "$here/csv.sh"

die() {
	echo "compare: $*" >&2
	exit 2
}
usage() {
	echo "usage: ./run compare --baseline BASE [--fail-if 'FIGURE>+10%' ...] DIR" >&2
	exit 2
}

base=""
dir=""
specs=""
while [ $# -gt 0 ]; do
	case $1 in
	--baseline) [ $# -ge 2 ] || usage; base=$2; shift 2 ;;
	--baseline=*) base=${1#--baseline=}; shift ;;
	--fail-if) [ $# -ge 2 ] || usage; specs="$specs$2
"; shift 2 ;;
	--fail-if=*) specs="$specs${1#--fail-if=}
"; shift ;;
	-*) usage ;;
	*) [ -z "$dir" ] || usage; dir=$1; shift ;;
	esac
done
[ -n "$base" ] && [ -n "$dir" ] || usage
# Each SPEC checked: FIGURE, then > or <, then a number, then % or not.
printf '%s' "$specs" | while IFS= read -r s; do
	echo "$s" | grep -Eq '^[^<>[:space:]]+[<>][-+]?([0-9]+\.?[0-9]*|\.[0-9]+)%?$' ||
		die "--fail-if '$s': expected FIGURE>+N% or FIGURE<-N% (relative), FIGURE>+X or FIGURE<-X (absolute)"
	case $s in
	*'>-'*|*'<+'*) die "--fail-if '$s': > goes with a rise (+), < with a fall (-)" ;;
	esac
done || exit 2

# The table of a folder: sweep.csv, else summary.csv.
table() {
	if [ -s "$1/sweep.csv" ]; then
		echo "$1/sweep.csv"
	elif [ -s "$1/summary.csv" ]; then
		echo "$1/summary.csv"
	else
		die "$1 is neither a sweep folder (sweep.csv) nor a run folder (summary.csv)"
	fi
}
tb=$(table "$base")
td=$(table "$dir")
[ "$(basename "$tb")" = "$(basename "$td")" ] ||
	die "$base has $(basename "$tb"), $dir $(basename "$td"): compare a sweep with a sweep, a run with a run"
# The swept keys (but seed: sweep.csv has a row per combination of the others).
keys() {
	[ "$(basename "$2")" = sweep.csv ] || return 0
	[ -s "$1/jobs" ] || die "$1 has no jobs file: not a sweep folder of ./run --sweep"
	head -n 1 "$1/jobs" | tr , '\n' | sed 's/=.*//' | grep -vx seed | paste -sd , -
}
kb=$(keys "$base" "$tb")
kd=$(keys "$dir" "$td")
[ "$kb" = "$kd" ] || die "the sweeps have other keys: $base ${kb:-none}, $dir ${kd:-none}"

# awk's operands: "./" before a relative name (a k=v name is an assignment).
op() { case $1 in /*) echo "$1" ;; *) echo "./$1" ;; esac; }
GATE_SPECS=$specs awk -v keys="$kb" -v bname="$base" -v dname="$dir" "$csv_awk"'
function num(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function err(m) { print "compare: error: " m > "/dev/stderr"; errors++ }
FNR == 1 {
	f++
	nh[f] = csv_split($0, h)
	for (i = 1; i <= nh[f]; i++) { col[f, h[i]] = i; name[f, i] = h[i] }
	nk = keys == "" ? 0 : split(keys, k, ",")
	next
}
{
	n = csv_split($0, v)
	c = ""
	for (i = 1; i <= nk; i++) c = c (i > 1 ? "," : "") k[i] "=" v[col[f, k[i]]]
	if (c == "") c = "run"
	if (f == 1) order[++nc] = c
	has[f, c] = 1
	for (i = 1; i <= n; i++) val[f, c, name[f, i]] = v[i]
}
function get(w, c, fig) { return ((w, fig) in col) ? val[w, c, fig] : "" }
END {
	ns = ENVIRON["GATE_SPECS"] == "" ? 0 : split(ENVIRON["GATE_SPECS"], spec, "\n") - 1
	for (i = 1; i <= nc; i++) {
		c = order[i]
		if (!has[2, c]) { err(dname ": no combination " c " (the baseline has it)"); continue }
		if (ns == 0) { list(c); continue }
		for (j = 1; j <= ns; j++) check(c, spec[j])
	}
	if (ns == 0) {
		printf "compare: %d combination%s; no --fail-if, nothing gated\n", nc, nc == 1 ? "" : "s"
		exit errors ? 2 : 0
	}
	printf "compare: %d check%s of %d combination%s, %d past the threshold%s\n", checks, checks == 1 ? "" : "s",
		nc, nc == 1 ? "" : "s", failed, errors ? ", " errors " error" (errors > 1 ? "s" : "") : ""
	exit errors ? 2 : failed ? 1 : 0
}
# Without --fail-if: every number that differs, wall-clock figures aside.
function list(c,    i, fig, a, b) {
	for (i = 1; i <= nh[1]; i++) {
		fig = name[1, i]
		if (fig == "wall_time_s" || fig ~ /\.(min|max|sd)$/) continue
		a = get(1, c, fig); b = get(2, c, fig)
		if (!num(a) || !num(b) || a + 0 == b + 0) continue
		printf "%s: %s %s -> %s%s\n", c, fig, a, b, a != 0 ? sprintf(" (%+.1f%%)", 100 * (b - a) / (a < 0 ? -a : a)) : ""
	}
}
function check(c, s,    p, fig, op, t, rel, a, b, d, lo, hi, shown) {
	p = match(s, /[<>]/)
	fig = substr(s, 1, p - 1); op = substr(s, p, 1); t = substr(s, p + 1)
	rel = t ~ /%$/
	sub(/%$/, "", t); t += 0; if (t < 0) t = -t
	a = get(1, c, fig); b = get(2, c, fig)
	if (!((1, fig) in col) || a == "") { err(bname ": " c ": no figure " fig); return }
	if (!((2, fig) in col) || b == "") { err(dname ": " c ": no figure " fig); return }
	if (!num(a) || !num(b)) { err(c ": " fig " is not a number (" a ", " b ")"); return }
	checks++
	d = b - a
	if (rel) {
		if (a == 0) { d = d > 0 ? 1e308 : d < 0 ? -1e308 : 0; shown = "from 0" }
		else { d = 100 * d / (a < 0 ? -a : a); shown = sprintf("%+.1f%%", d) }
	} else
		shown = sprintf("%+g", d)
	if (op == ">" ? d <= t : d >= -t) return
	# With seeds: past the threshold, but inside the seeds spread?
	if (((1, fig ".min") in col) && ((2, fig ".max") in col)) {
		if (op == ">" && get(2, c, fig ".min") + 0 <= get(1, c, fig ".max") + 0) return
		if (op == "<" && get(2, c, fig ".max") + 0 >= get(1, c, fig ".min") + 0) return
		shown = shown ", beyond the seeds min-max"
	}
	failed++
	printf "FAIL %s: %s %s -> %s (%s; --fail-if %s)\n", c, fig, a, b, shown, s
}' "$(op "$tb")" "$(op "$td")"
