#!/bin/sh
# Trace replay (lua/mmsim/replay.lua) through tests/scenarios/replay_run.lua:
# - the redis capture replays end to end with the trace's call counts, at
#   speed 1 and 2, and writes less without the fill of large mappings;
# - the python capture's execve gives a new address space;
# - a truncated or garbled line stops the run with FILE:LINE: message, and
#   skip_bad skips and counts them;
# - the kmem capture: blocks allocated and freed by order equal the CSV's,
#   counted here with awk (a free pairs with the last allocation of its pfn
#   not yet freed), and twice that for two copies on 3 CPUs.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
t=$MMSIM_SRCDIR/tests/scenarios/replay_run.lua
data=$MMSIM_SRCDIR/data/real
run() {
	"$MMSIM" --out "$dir/results" "$t" "$@" > "$dir/out" 2> "$dir/err"
}

for c in redis speed2 python; do
	run -D case=$c || { cat "$dir/err"; fail "case $c"; }
done
run -D case=redis && fill=$(sed -n 's/^pages_touched //p' "$dir/out")
run -D case=nofill && nofill=$(sed -n 's/^pages_touched //p' "$dir/out")
[ "$nofill" -lt "$fill" ] || fail "without the fill $nofill pages written, with it $fill"
echo "redis: $fill pages written, $nofill without the fill of large mappings"

# A truncated line (120) and a garbled timestamp (400).
sed -e '120s/PROT_WRITE.*$/PROT_WR/' -e '400s/^\([0-9]*  *\)04:/\104x/' \
	"$data/redis-jemalloc-default.strace" > "$dir/bad.strace"
run -D case=strace -D file="$dir/bad.strace" && fail "a bad trace replayed"
grep -q "bad.strace:120: truncated: the call has no closing ')'" "$dir/err" ||
	{ cat "$dir/err"; fail "no error naming line 120"; }
sed -e '120d' "$dir/bad.strace" > "$dir/bad2.strace"
run -D case=strace -D file="$dir/bad2.strace" && fail "a bad trace replayed"
grep -q "bad2.strace:399: timestamp '04x10:1[0-9.]*' is not HH:MM:SS.usec" "$dir/err" ||
	{ cat "$dir/err"; fail "no error naming line 399"; }
run -D case=strace -D file="$dir/bad.strace" -D skip_bad=true ||
	{ cat "$dir/err"; fail "skip_bad"; }
grep -q '^bad_lines 2$' "$dir/out" || fail "skip_bad: $(cat "$dir/out")"
grep -q "^first_bad .*bad.strace:120: truncated" "$dir/out" || fail "skip_bad: first bad line"
# The two lines skipped were an mmap and a madvise.
grep -q '^calls mmap 107 munmap 3 madvise 355 ' "$dir/out" || fail "skip_bad: $(cat "$dir/out")"
[ "$(sed -n 120p "$data/redis-jemalloc-default.strace" | grep -c ' mmap(')" = 1 ] &&
[ "$(sed -n 400p "$data/redis-jemalloc-default.strace" | grep -c ' madvise(')" = 1 ] ||
	fail "lines 120 and 400 are not the mmap and madvise the test expects"

# kmem: the CSV's own counts.
gzip -dc "$data/kmem-events-redis.csv.gz" | awk -F, '
	NR > 1 && $5 == "mm_page_alloc" { a[$7]++; live[$6] = $7 }
	NR > 1 && ($5 == "mm_page_free" || $5 == "mm_page_free_batched") && ($6 in live) {
		f[live[$6]]++; delete live[$6] }
	END { for (o = 0; o <= 10; o++) if (a[o] || f[o])
		printf "order %d allocated %d freed %d\n", o, a[o], f[o] }' > "$dir/want"
[ -s "$dir/want" ] || fail "awk counted nothing"
run -D case=kmem -D file="$data/kmem-events-redis.csv.gz" -D cpus=2 ||
	{ cat "$dir/err"; fail "kmem"; }
grep '^order' "$dir/out" > "$dir/got"
diff "$dir/want" "$dir/got" || fail "kmem on 2 CPUs: counts by order differ from the CSV's"
grep -q '^failed 0$' "$dir/out" || fail "kmem: allocations failed"
# 3 CPUs: two copies, the second's two traced CPUs folded onto its one CPU.
run -D case=kmem -D file="$data/kmem-events-redis.csv.gz" -D cpus=3 ||
	{ cat "$dir/err"; fail "kmem, 3 CPUs"; }
awk '{ print $1, $2, $3, 2 * $4, $5, 2 * $6 }' "$dir/want" > "$dir/want2"
grep '^order' "$dir/out" > "$dir/got"
grep -q '^copies 2$' "$dir/out" || fail "3 CPUs: not 2 copies"
diff "$dir/want2" "$dir/got" || fail "kmem on 3 CPUs: not twice the CSV's counts"
echo "kmem: $(tr '\n' ';' < "$dir/want")"

# A garbled kmem line (an order of 12), plain text: an error, or skipped.
gzip -dc "$data/kmem-events-redis.csv.gz" | head -5000 |
	sed '1234s/,mm_page_alloc,\(0x[0-9a-f]*\),0,/,mm_page_alloc,\1,12,/' > "$dir/bad.csv"
grep -q ',12,' "$dir/bad.csv" || fail "line 1234 was not an order-0 allocation"
run -D case=kmem -D file="$dir/bad.csv" && fail "a bad kmem CSV replayed"
grep -q "bad.csv:1234: order '12' is not 0-10" "$dir/err" || { cat "$dir/err"; fail "kmem error"; }
run -D case=kmem -D file="$dir/bad.csv" -D skip_bad=true || { cat "$dir/err"; fail "kmem skip_bad"; }
grep -q '^bad_lines 1$' "$dir/out" || fail "kmem skip_bad: $(cat "$dir/out")"
# The reader cuts each line at its commas and parses each gfp string once:
# an unknown flag after many lines with that string's known part, and an
# extra field, are still found on their own lines.
gzip -dc "$data/kmem-events-redis.csv.gz" | head -5000 |
	sed -e '2345s/|__GFP_COMP,/|__GFP_COMP|__GFP_BOGUS,/' -e '3456s/$/,x/' > "$dir/bad2.csv"
run -D case=kmem -D file="$dir/bad2.csv" && fail "a kmem CSV with an unknown flag replayed"
grep -q "bad2.csv:2345: gfp '.*|__GFP_BOGUS' has a flag the reader does not know" "$dir/err" ||
	{ cat "$dir/err"; fail "kmem unknown gfp flag"; }
run -D case=kmem -D file="$dir/bad2.csv" -D skip_bad=true || { cat "$dir/err"; fail "kmem skip_bad 2"; }
grep -q '^bad_lines 2$' "$dir/out" || fail "kmem skip_bad, 2 bad lines: $(cat "$dir/out")"
sed -i '2345d' "$dir/bad2.csv"
run -D case=kmem -D file="$dir/bad2.csv" && fail "a kmem CSV with 11 fields replayed"
grep -q "bad2.csv:3455: 11 fields, not the 10 of" "$dir/err" || { cat "$dir/err"; fail "kmem 11 fields"; }
# A gzip file cut short is an error, skip_bad or not.
head -c 100000 "$data/kmem-events-redis.csv.gz" > "$dir/cut.csv.gz"
run -D case=kmem -D file="$dir/cut.csv.gz" -D skip_bad=true && fail "a truncated gzip replayed"
grep -q "cut.csv.gz:[0-9]*: read error: unexpected end of file" "$dir/err" ||
	{ cat "$dir/err"; fail "truncated gzip"; }
# kmem repeated (until_ns) without the movable allocations: two passes of
# the CSV's other allocations, none movable (orders 0 and 9 of
# GFP_HIGHUSER_MOVABLE), and the first pass's blocks the CSV never frees
# freed by the second, so no more than one pass's stay live.
gzip -dc "$data/kmem-events-redis.csv.gz" | awk -F, '
	NR > 1 && $5 == "mm_page_alloc" && $8 != 1 { a[$7]++; live[$6] = 2 ^ $7 }
	NR > 1 && ($5 == "mm_page_free" || $5 == "mm_page_free_batched") { delete live[$6] }
	END { for (o = 0; o <= 10; o++) if (a[o]) printf "order %d allocated %d\n", o, 2 * a[o]
	      n = 0; pages = 0; for (p in live) { n++; pages += live[p] }; print pages; print n }' > "$dir/want2"
run -D case=kmem_repeat -D file="$data/kmem-events-redis.csv.gz" ||
	{ cat "$dir/err"; fail "kmem_repeat"; }
grep '^order' "$dir/out" | diff "$(sed '$d' "$dir/want2" | sed '$d' > "$dir/want2o"; echo "$dir/want2o")" - ||
	fail "kmem repeated: blocks by order are not twice the CSV's unmovable ones"
pass_live=$(tail -1 "$dir/want2")
pass_pages=$(tail -2 "$dir/want2" | head -1)
# The pages held at the end are one pass's never-freed blocks at most: a
# recycled block left unfreed would hold the first pass's too.
awk -v n="$pass_live" -v pages="$pass_pages" '/^live / { l = $2 } /^recycled / { r = $2 }
	/^skipped / { s = $2 } /^held / { h = $2 }
	END { exit !(r > 0 && l <= n && s > 0 && h <= pages && h > pages / 2) }' "$dir/out" ||
	fail "kmem repeated: one pass never-freed $pass_live blocks, $pass_pages pages, got $(tr '\n' ' ' < "$dir/out")"
# On a machine too small for the capture, allocations fail: their frees and
# recycling free nothing, and the replay holds what the machine lost.
run -D case=kmem_small -D file="$data/kmem-events-redis.csv.gz" ||
	{ cat "$dir/err"; fail "kmem_small"; }
awk '/^failed / { f = $2 } /^recycled / { r = $2 } /^held matches$/ { h = 1 }
	END { exit !(f > 0 && r > 0 && h) }' "$dir/out" ||
	fail "kmem on 256 MiB: $(tr '\n' ' ' < "$dir/out")"
echo "replay: ok"
