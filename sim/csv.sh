# RFC 4180 CSV for awk programs (summary.csv, sweep.csv, compare.csv), as
# sim/results.c writes it: a field holding a comma, a double quote or a
# line break is double-quoted, a quote doubled.  Sourced by sim/compare.sh,
# sim/sweep.sh, tests/lib.sh and tests/golden/golden.sh:
#   . sim/csv.sh
#   awk "$csv_awk"'{ n = csv_split($0, f); ... print csv_field(f[2]) }'
# csv_split(line, f): line's fields into f[1..n] (quotes removed); n.  A
#   record is one line: mmsim's CSV files hold no line break in a field
#   (sim/results.c writes one in a value as \n).
# csv_field(s): s as a field, quoted if it needs it.
# An awk program written for -F, takes quoted fields after "$csv_fields":
#   awk "$csv_fields"'NR == 1 { ... $i ... }'
# splits each record as csv_split does, $1..$NF its fields.
csv_awk='
function csv_split(line, f,    n, i, len, c, v, q) {
	n = 0; v = ""; q = 0; len = length(line)
	for (i = 1; i <= len; i++) {
		c = substr(line, i, 1)
		if (q && c == "\"" && substr(line, i + 1, 1) == "\"") { v = v c; i++ }
		else if (c == "\"") q = !q
		else if (!q && c == ",") { f[++n] = v; v = "" }
		else v = v c
	}
	f[++n] = v
	return n
}
function csv_field(s) {
	if (s !~ /[,"\r\n]/ && s !~ /^ / && s !~ / $/)
		return s
	gsub(/"/, "\"\"", s)
	return "\"" s "\""
}
'
csv_fields="$csv_awk"'
function csv_join(line,    f, n, i, s) {
	n = csv_split(line, f)
	s = f[1]
	for (i = 2; i <= n; i++) s = s FS f[i]
	return s
}
BEGIN { FS = "\034" }
{ $0 = csv_join($0) }
'
