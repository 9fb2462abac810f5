#!/bin/sh
# Fill the figures README.md, BENCHMARKS.md and docs/*.md quote from the goldens
# (tests/golden/*.golden), or with --check only report where they differ.
# Markers are HTML comments, which Markdown does not show:
#
#   <!--g NAME EXPR [FORMAT]-->text<!--/g-->
#       text becomes a figure of NAME.golden.  EXPR is a key (`zone_lock.
#       contentions`, `stdout.3`), a key's Nth word (`stdout.3#2`), or keys
#       and numbers joined by + - * / evaluated left to right, all separated
#       by spaces; FORMAT is a printf format (`%.1f`).  A lone key without
#       FORMAT is copied as it is.
#   <!--g NAME stdout.A-B-->          alone on the line before a ``` block:
#       the block's first lines are stdout.A to stdout.B of NAME.golden.
#   <!--s NAME EXPR [FORMAT]-->text<!--/s-->
#       text becomes EXPR's mean over seeds 1-5 and its range, "M (A–B)",
#       each number in FORMAT ("%.2f%%": "M% (A–B%)"; "M (every seed)" when
#       the range rounds to one value): NAME.golden is seed 1, seeds/NAME.seed2
#       to .seed5 the others (golden.sh: a golden with a spread line).
#
# A marker right after a backquote is an example in a code span, left alone.
#
# Usage: fill-docs.sh [--check] [SRCDIR]  (SRCDIR: the source tree, default
# the one this script is in).  --check exits 1 naming each stale figure.
set -eu
check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
status=0
# README.md and BENCHMARKS.md always have figures; a page of docs/ only when
# it quotes one.
for doc in README.md BENCHMARKS.md $(cd "$top" && grep -l '<!--[gs] ' docs/*.md 2> /dev/null); do
	if awk -v doc="$doc" -v check=$check '
	function fail(msg) { printf "%s:%d: %s\n", doc, FNR, msg > "/dev/stderr"; bad = 1 }
	function figure(name, key,    k, w, n, words) {
		k = key; w = 0
		if (key ~ /#[0-9]+$/) { k = substr(key, 1, index(key, "#") - 1); w = substr(key, index(key, "#") + 1) + 0 }
		if (!((name seed, k) in val)) { fail("no figure " k " in " name ".golden" (seed ? " (" seed ")" : "")); return "?" }
		if (!w) return val[name seed, k]
		n = split(val[name seed, k], words, " ")
		if (w > n) { fail(k " of " name ".golden has no word " w); return "?" }
		return words[w]
	}
	function operand(name, t) { return t ~ /^[0-9.]+$/ ? t + 0 : figure(name, t) + 0 }
	# The text a marker stands for.
	function evaluate(spec,    t, n, fmt, acc, i) {
		n = split(spec, t, " ")
		if (!(t[1] in known)) { fail("no golden " t[1] ".golden"); return "?" }
		fmt = ""
		if (t[n] ~ /^%/) fmt = t[n--]
		if (n == 2 && fmt == "") return figure(t[1], t[2])
		if (n < 2 || n % 2) { fail("bad marker: " spec); return "?" }
		acc = operand(t[1], t[2])
		for (i = 3; i < n; i += 2) {
			if (t[i] == "+") acc += operand(t[1], t[i + 1])
			else if (t[i] == "-") acc -= operand(t[1], t[i + 1])
			else if (t[i] == "*") acc *= operand(t[1], t[i + 1])
			else if (t[i] == "/") acc /= operand(t[1], t[i + 1])
			else { fail("bad operator " t[i] " in: " spec); return "?" }
		}
		return fmt == "" ? acc "" : sprintf(fmt, acc)
	}
	# EXPR of spec over the five seeds: "mean (min–max)".
	function spread(spec,    t, n, fmt, i, v, sum, lo, hi, body) {
		n = split(spec, t, " ")
		if (!(t[1] in spread_known)) { fail("no seeds of " t[1] " (a golden without a spread line?)"); return "?" }
		fmt = "%g"
		if (t[n] ~ /^%/) fmt = t[n--]
		body = t[1]
		for (i = 2; i <= n; i++) body = body " " t[i]
		body = body " %.17g"
		for (i = 1; i <= 5; i++) {
			seed = i == 1 ? "" : "@" i
			v = evaluate(body) + 0
			seed = ""
			sum += v
			if (i == 1 || v < lo) lo = v
			if (i == 1 || v > hi) hi = v
		}
		unit = ""
		if (fmt ~ /%%$/) { unit = "%"; fmt = substr(fmt, 1, length(fmt) - 2) }
		if (sprintf(fmt, lo) == sprintf(fmt, hi))
			return sprintf(fmt, sum / 5) unit " (every seed)"
		return sprintf(fmt, sum / 5) unit " (" sprintf(fmt, lo) "–" sprintf(fmt, hi) unit ")"
	}
	function stale(spec, want, have) {
		if (want == have) return
		stale_count++
		if (check) printf "%s:%d: %s: the golden gives \"%s\", the text says \"%s\"\n", doc, FNR, spec, want, have > "/dev/stderr"
	}
	FILENAME ~ /\.golden$/ {
		if (FNR == 1) {
			name = FILENAME; sub(/.*\//, "", name); sub(/\.golden$/, "", name)
			known[name] = 1
		}
		if (!/^#/) { k = $1; val[name, k] = substr($0, length(k) + 2) }
		next
	}
	FILENAME ~ /\/seeds\/[^\/]*\.seed[2-5]$/ {
		if (FNR == 1) {
			sname = FILENAME; sub(/.*\//, "", sname)
			sk = substr(sname, length(sname)); sub(/\.seed[2-5]$/, "", sname)
			sname_seed = sname "@" sk
			spread_count[sname]++
			if (spread_count[sname] == 4) spread_known[sname] = 1
		}
		if (!/^#/) { k = $1; val[sname_seed, k] = substr($0, length(k) + 2) }
		next
	}
	# Lines still owed to a block marker: name, next stdout line, last one.
	block_next && block_next <= block_last {
		want = figure(block_name, "stdout." block_next)
		stale("<!--g " block_name " stdout." block_next "-->", want, $0)
		print want
		block_next++
		next
	}
	block_name != "" && block_next == 0 {
		if ($0 !~ /^```/) fail("a block marker must be followed by a ``` block")
		print
		block_next = block_first
		next
	}
	{ block_name = ""; block_next = 0 }
	/^<!--g [^ ]+ stdout\.[0-9]+-[0-9]+-->$/ {
		markers++
		split(substr($0, 7, length($0) - 9), t, " ")
		block_name = t[1]
		if (!(block_name in known)) fail("no golden " block_name ".golden")
		split(substr(t[2], 8), r, "-")
		block_first = r[1] + 0; block_last = r[2] + 0
		print
		next
	}
	{
		out = ""; rest = $0
		while (match(rest, /<!--[gs] [^>]*-->/)) {
			open = substr(rest, RSTART, RLENGTH)
			kind = substr(open, 5, 1)
			after = substr(rest, RSTART + RLENGTH)
			if (RSTART > 1 && substr(rest, RSTART - 1, 1) == "`") {
				out = out substr(rest, 1, RSTART - 1) open  # an example in a code span
				rest = after
				continue
			}
			close_tag = "<!--/" kind "-->"
			shut = index(after, close_tag)
			if (!shut) { fail("marker without " close_tag ": " open); break }
			markers++
			spec = substr(open, 7, length(open) - 9)
			have = substr(after, 1, shut - 1)
			want = kind == "s" ? spread(spec) : evaluate(spec)
			stale(open, want, have)
			out = out substr(rest, 1, RSTART - 1) open want close_tag
			rest = substr(after, shut + length(close_tag))
		}
		print out rest
	}
	END {
		if (!markers) fail("no <!--g ...--> markers")
		if (block_next && block_next <= block_last) fail("block of " block_name " ends early")
		if (check && stale_count) printf "%s: %d quoted figures differ from the goldens; run `make regolden` (or tests/golden/fill-docs.sh)\n", doc, stale_count > "/dev/stderr"
		exit bad || (check && stale_count)
	}' "$top"/tests/golden/*.golden $(ls "$top"/tests/golden/seeds/*.seed[2-5] 2> /dev/null) \
		"$top/$doc" > "$tmp"; then
		if [ $check = 0 ] && ! cmp -s "$tmp" "$top/$doc"; then
			cat "$tmp" > "$top/$doc"
			echo "filled: $doc"
		fi
	else
		status=1
	fi
done
exit $status
