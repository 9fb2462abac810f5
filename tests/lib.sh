# Shell helpers for the scenario tests: . "$MMSIM_SRCDIR/tests/lib.sh"
. "$MMSIM_SRCDIR/sim/csv.sh"

# csv_column FILE KEY: the column headed KEY of FILE, a line per row (empty
# if there is no such column), quotes removed.
csv_column() {
	awk -v k="$2" "$csv_awk"'{ n = csv_split($0, f) }
		NR == 1 { for (i = 1; i <= n; i++) if (f[i] == k) c = i; next }
		{ print c ? f[c] : "" }' "$1"
}

# csv_value FILE KEY: KEY's value in FILE's first row (a summary.csv's only one).
csv_value() {
	csv_column "$1" "$2" | head -n 1
}

# check_cases and fails: for the tests that pin a workload's figures and its
# option errors (network_c.sh, short_lived_c.sh, page_cache_c.sh); $dir is the scratch folder.

# Each line of $2 is what the case file $1 prints for -D case=<first word>.
check_cases() {
	echo "$2" | while read -r want; do
		got=$("$MMSIM" --out "$dir/out" "$MMSIM_SRCDIR/tests/scenarios/$1" \
			-D case="${want%% *}" 2> /dev/null)
		echo "$got"
		if [ "$got" != "$want" ]; then
			echo "expected: $want" >&2
			exit 1
		fi
	done
}

# pins_hold LINES CONDITION WHAT: each line of LINES (a case's word, then
# key=value pairs) satisfies the awk CONDITION over f["key"]: pinned
# figures obey what was worked out by hand for any run.
pins_hold() {
	echo "$1" | awk -v what="$3" '{
			split("", f)
			for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] + 0 }
		}
		!('"$2"') { print "FAIL: " $1 ": " what; bad = 1 }
		END { exit bad }' || exit 1
	echo "ok: every case: $3"
}

# The script made of a test machine and the lines given fails with a
# message matching the last argument.
fails() {
	pattern=$1
	shift
	printf '%s\n' 'local m = mmsim.machine{ preset = "test" }' "$@" > "$dir/bad.lua"
	if "$MMSIM" --out "$dir/out" "$dir/bad.lua" > "$dir/stdout" 2> "$dir/stderr"; then
		echo "no error for: $*" >&2
		exit 1
	fi
	grep -q "$pattern" "$dir/stderr" || { cat "$dir/stderr" >&2; exit 1; }
}

# tag_means TAG FILE: the means of the key=value fields of FILE's lines whose
# first field is TAG, "key mean" a line.
tag_means() {
	awk -v tag="$1" '$1 == tag { for (i = 2; i <= NF; i++) { split($i, kv, "=");
		sum[kv[1]] += kv[2]; n[kv[1]]++ } }
		END { for (k in sum) printf "%s %.1f\n", k, sum[k] / n[k] }' "$2"
}

# within FILE REF OTHER PCT KEY...: for each KEY, its mean over FILE's lines
# tagged OTHER (first field) within PCT% of its mean over those tagged REF,
# which must be above 0.
within() {
	f=$1 ref=$2 other=$3 pct=$4
	shift 4
	tag_means "$ref" "$f" > "$f.ref"
	tag_means "$other" "$f" > "$f.other"
	for k in "$@"; do
		r=$(awk -v k="$k" '$1 == k { print $2 }' "$f.ref")
		o=$(awk -v k="$k" '$1 == k { print $2 }' "$f.other")
		echo "$k: $ref ${r:-none}, $other ${o:-none}, allowed $pct%"
		awk -v r="${r:-0}" -v o="${o:-0}" -v pct="$pct" 'BEGIN { d = o - r; if (d < 0) d = -d;
			exit !(r > 0 && d <= r * pct / 100) }' ||
			{ echo "FAIL: $k differs by more than $pct%"; exit 1; }
	done
}
