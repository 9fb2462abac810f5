# Shell helpers for the scenario tests: . "$MMSIM_SRCDIR/tests/lib.sh"

# csv_column FILE KEY: the column headed KEY of FILE, a line per row.
csv_column() {
	awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
		{ print $c }' "$1"
}

# csv_value FILE KEY: KEY's value in FILE's first row (a summary.csv's only one).
csv_value() {
	csv_column "$1" "$2" | head -n 1
}
