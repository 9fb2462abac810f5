#!/bin/sh
# Golden figures.  tests/golden/NAME.golden pins what one deterministic
# scenario run must reproduce exactly: its header names the run,
#
#   # mmsim ARGS                    (scenario path relative to the source tree,
#                                    no quoting)
#   # stdout: first N lines         (optional: keep the head of stdout too)
#
# and its body, which this script writes, holds the run's summary.csv as one
# `key value` a line (without wall_time_s, version, command and machine.title,
# which are not figures of the model) then the kept stdout lines as
# `stdout.1 TEXT` ...
#
#   golden.sh check FILE.golden        run it and compare: every figure that
#                                      differs is named with both values
#   golden.sh regolden FILE.golden...  rewrite the bodies from fresh runs, two
#                                      at a time, then the docs' quoted figures
#                                      (fill-docs.sh)
#
# A golden whose header has the line `# spread: seeds 1-5` (and whose ARGS
# set no --seed) also pins seeds 2 to 5 of the same run, in
# tests/golden/seeds/NAME.seedK (same format): the docs quote its figures
# as mean and range over the five (fill-docs.sh's <!--s ...--> markers).
# regolden rewrites them; check runs one of them besides seed 1, a
# different one for each golden (2 + the name's checksum mod 4).
# Needs MMSIM (the binary) and MMSIM_SRCDIR (the source tree); FILE is taken
# relative to the current directory, else to MMSIM_SRCDIR.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../sim/csv.sh"

locate() {
	if [ -f "$1" ]; then
		echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
	elif [ -f "$MMSIM_SRCDIR/$1" ]; then
		echo "$MMSIM_SRCDIR/$1"
	else
		echo "golden.sh: no such golden: $1" >&2
		return 1
	fi
}

# Print FILE's header followed by the figures of a fresh run, working in DIR
# (with SEED, the run with --seed SEED).
produce() {
	golden=$1
	dir=$2
	seed=${3:-}
	args=$(sed -n '1s/^# mmsim //p' "$golden")${seed:+ --seed $seed}
	if [ -z "$args" ]; then
		echo "$golden: the first line must be '# mmsim ARGS'" >&2
		return 1
	fi
	keep=$(sed -n '2s/^# stdout: first \([0-9][0-9]*\) lines$/\1/p' "$golden")
	# From the source tree, so that `scenario` is the same path in every build.
	# shellcheck disable=SC2086
	if ! (cd "$MMSIM_SRCDIR" && exec "$MMSIM" $args --out "$dir/results") \
		> "$dir/stdout" 2> "$dir/stderr"; then
		echo "$(basename "$golden" .golden): mmsim $args failed:" >&2
		cat "$dir/stderr" >&2
		return 1
	fi
	sed -n '/^#/!q; p' "$golden"
	awk "$csv_awk"'
	NR == 1 { nkeys = csv_split($0, key) }
	NR == 2 {
		if (csv_split($0, val) != nkeys) { print "summary.csv: ragged row" > "/dev/stderr"; exit 1 }
		for (i = 1; i <= nkeys; i++)
			if (key[i] != "wall_time_s" && key[i] != "version" && key[i] != "command" &&
			    key[i] != "machine.title")
				print key[i] " " val[i]
	}' "$dir/results/summary.csv"
	[ -z "$keep" ] || head -n "$keep" "$dir/stdout" | sed 's/[[:space:]]*$//' |
		awk '{ print "stdout." NR ($0 == "" ? "" : " " $0) }'
}

# The seeds besides 1 that GOLDEN pins (none without a spread line).
spread_seeds() {
	if grep -q '^# spread: seeds 1-5$' "$1"; then
		if sed -n '1p' "$1" | grep -q -- '--seed'; then
			echo "$1: a spread golden sets no --seed" >&2
			return 1
		fi
		echo 2 3 4 5
	fi
}

seed_file() {
	echo "$(dirname "$1")/seeds/$(basename "$1" .golden).seed$2"
}

check() {
	golden=$(locate "$1")
	seeds=$(spread_seeds "$golden")
	compare "$golden" "$golden" ""
	if [ -n "$seeds" ]; then
		k=$((2 + $(basename "$golden" .golden | cksum | cut -d' ' -f1) % 4))
		compare "$golden" "$(seed_file "$golden" $k)" $k
	fi
}

# compare GOLDEN WANT SEED: a fresh run of GOLDEN's (with SEED) against the
# figures of WANT.
compare() {
	golden=$1
	want=$2
	name=$(basename "$want" .golden)
	[ -f "$want" ] || { echo "$name: no $want; run \`make regolden\`" >&2; return 1; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	produce "$golden" "$tmp" "$3" > "$tmp/got"
	awk -v name="$name" '
	FNR == 1 { file++ }
	/^#/ { next }
	{ k = $1; v = substr($0, length(k) + 2) }
	file == 1 { want[k] = v; order[++n] = k; next }
	{ got[k] = v; if (!(k in want)) extra[++m] = k }
	END {
		bad = 0
		for (i = 1; i <= n; i++) {
			k = order[i]
			if (!(k in got)) {
				printf "%s: %s: expected %s, got no such figure\n", name, k, want[k]
				bad++
			} else if (got[k] != want[k]) {
				printf "%s: %s: expected %s, got %s\n", name, k, want[k], got[k]
				bad++
			}
		}
		for (i = 1; i <= m; i++) {
			printf "%s: %s: not in the golden, got %s\n", name, extra[i], got[extra[i]]
			bad++
		}
		if (bad)
			printf "%s: %d figures differ; if the change is intended, run `make regolden` and explain the new figures in the commit\n", name, bad
		else
			printf "%s: %d figures as in the golden\n", name, n
		exit bad > 0
	}' "$want" "$tmp/got"
	rm -rf "$tmp"
}

# regolden_one GOLDEN [SEED]: rewrite GOLDEN's body, or its seed file.
regolden_one() {
	golden=$(locate "$1")
	out=$golden
	[ -z "${2:-}" ] || out=$(seed_file "$golden" "$2")
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	produce "$golden" "$tmp" "${2:-}" > "$tmp/new"
	if cmp -s "$tmp/new" "$out" 2> /dev/null; then
		echo "unchanged: $out"
	else
		mkdir -p "$(dirname "$out")"
		cat "$tmp/new" > "$out"
		echo "rewritten: $out"
	fi
}

case "${1:-}" in
check)
	[ $# -eq 2 ] || { echo "usage: golden.sh check FILE.golden" >&2; exit 2; }
	check "$2"
	;;
regolden)
	shift
	[ $# -gt 0 ] || { echo "usage: golden.sh regolden FILE.golden..." >&2; exit 2; }
	for f in "$@"; do
		g=$(locate "$f")
		echo "$g"
		for k in $(spread_seeds "$g"); do echo "$g $k"; done
	done | xargs -L 1 -P "${GOLDEN_JOBS:-2}" sh "$0" regolden-one
	sh "$here/fill-docs.sh"
	;;
regolden-one)
	regolden_one "$2" "${3:-}"
	;;
*)
	echo "usage: golden.sh check FILE.golden | golden.sh regolden FILE.golden..." >&2
	exit 2
	;;
esac
