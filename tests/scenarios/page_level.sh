#!/bin/sh
# Page level (m:run{timing = false, level = "page"}) against object level,
# the same seeds and parameters, means over seeds:
# 1. the jemalloc churn alone (4 CPUs, 4 GiB, 200 ms, decay 10 ms, one
#    leader and three followers), 8 seeds: pages faulted, purged and
#    resident within 5%;
# 2. the aged machine (page_level_run.lua: aging.lua's workloads on 2 x 4
#    GiB, 16 CPUs, 200 ms, two leaders for ten churn threads), 8 seeds:
#    the churn's pages within 5%; the kernel's slab pages live and its
#    objects freed within 5%; the ages of the unmovable pages (page_owner:
#    mean, 10th, 50th and 90th percentiles) within 5%; the slab pages
#    freed within 5% or, as they are few (about 90 a run, 40 to 130 by
#    seed), two standard errors of the seeds' paired differences; 1 GiB regions free and movable-only,
#    unmovable and non-movable pageblocks, and each zone's pageblocks of
#    each type (those with 10 or more) within 10%; the invariants hold;
# 3. a run switching levels (page, timed, page, timed), 4 seeds: the first
#    timed part goes on at object level from the page level's state and
#    faults and purges what a run at object level throughout does (within
#    10%); the invariants hold after each part.  A page-level part after
#    an object-level one is not compared: the followers' own arenas wait
#    through it (lua/mmsim/jemalloc_churn.lua);
# 4. a steady churn that coasts (4 CPUs at real pace's rates, decay 2 s,
#    15 s at a 4 ms horizon, then 3 s timed), 3 seeds: the leader coasted;
#    pages faulted and resident within 5% and objects within 1% at the
#    switch; the timed part, from a leader still coasting, purges no more
#    than object level does (within 1% of the pages faulted: an arena
#    whose times did not move on by the coast purges its dirty runs);
#    with coast_ratio = 0 the page level does not coast.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
src=$MMSIM_SRCDIR/tests/scenarios

. "$MMSIM_SRCDIR/tests/lib.sh"
# level_within FILE PCT KEY...: page's mean within PCT% of object's for each KEY.
level_within() {
	f=$1 pct=$2
	shift 2
	within "$f" level=object level=page "$pct" "$@"
}

# within_noise FILE PCT KEY: as level_within, or within two standard errors of
# the mean of the seeds' differences (page minus object: "level=" lines in
# pairs, object first).
within_noise() {
	awk -v k="$3" -v pct="$2" '$1 ~ /^level=/ { c++; for (i = 2; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == k) v[c] = kv[2] } }
		END { n = c / 2; for (i = 1; i <= n; i++) { d[i] = v[2 * i] - v[2 * i - 1];
			sd += d[i]; so += v[2 * i - 1] }
		md = sd / n; for (i = 1; i <= n; i++) ss += (d[i] - md) ^ 2
		se = sqrt(ss / (n - 1) / n); lim = so / n * pct / 100; if (2 * se > lim) lim = 2 * se
		printf "%s: object %.1f, page %.1f, allowed %.1f (2 standard errors %.1f)\n", k,
			so / n, so / n + md, lim, 2 * se
		exit !(so > 0 && (md < 0 ? -md : md) <= lim) }' "$1" ||
		{ echo "FAIL: $3 differs by more than allowed"; exit 1; }
}

cat > "$dir/churn.lua" <<'LUA'
local p = mmsim.params{ level = "object" }
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 4, mem_per_node = "4G" }
local jc = require("mmsim.jemalloc_churn").start(m, { cpus = { 0, 1, 2, 3 }, decay = "10ms",
  until_ns = 200e6 })
m:run{ ["until"] = 200e6, timing = false, level = p.level }
local s = jc.stats
print(string.format("level=%s faulted=%d purged=%d rss=%d", p.level, s.faulted_pages,
  s.purged_pages, jc.process:stats().rss))
LUA
for seed in 1 2 3 4 5 6 7 8; do
	for level in object page; do
		"$MMSIM" --seed $seed --out "$dir/r" "$dir/churn.lua" -D level=$level
	done
done > "$dir/churn.out"
level_within "$dir/churn.out" 5 faulted purged rss

for seed in 1 2 3 4 5 6 7 8; do
	for level in object page; do
		"$MMSIM" --seed $seed --out "$dir/r" "$src/page_level_run.lua" -D level=$level
	done
done > "$dir/aged.out"
level_within "$dir/aged.out" 5 faulted purged rss slab_pages kernel_freed age_mean_us age_p10_us \
	age_p50_us age_p90_us
within_noise "$dir/aged.out" 5 slab_freed
level_within "$dir/aged.out" 10 free_now movable_only unmovable_pageblocks nonmovable_pageblocks
# Each zone's pageblocks by type: "blocks NODE:ZONE:N,N,..." lines.
awk '$1 == "blocks" { lv = (n++ % 2) ? "page" : "object";
	for (i = 2; i <= NF; i++) { split($i, z, ":"); c = split(z[3], t, ",");
		for (j = 1; j <= c; j++) if (t[j] != "") print "level=" lv, z[1] "." z[2] "." j "=" t[j] } }' \
	"$dir/aged.out" > "$dir/blocks.out"
keys=$(tag_means level=object "$dir/blocks.out" | awk '$2 >= 10 { print $1 }')
# shellcheck disable=SC2086
level_within "$dir/blocks.out" 10 $keys

cat > "$dir/switch.lua" <<'LUA'
local p = mmsim.params{ level = "page" }
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 4, mem_per_node = "4G" }
local jc = require("mmsim.jemalloc_churn").start(m, { cpus = { 0, 1, 2, 3 }, decay = "10ms",
  until_ns = 400e6 })
local last = { faulted = 0, purged = 0 }
local function part(what, opts)
  m:run(opts)
  m:check_invariants()
  local s = jc.stats
  print(string.format("part=%s level=%s faulted=%d purged=%d", what, p.level,
    s.faulted_pages - last.faulted, s.purged_pages - last.purged))
  last = { faulted = s.faulted_pages, purged = s.purged_pages }
end
part("ff", { ["until"] = 200e6, timing = false, level = p.level })
part("timed", { ["until"] = 250e6 })
part("ff2", { ["until"] = 350e6, timing = false, level = p.level })
part("timed2", { ["until"] = 400e6 })
LUA
for seed in 1 2 3 4; do
	for level in object page; do
		"$MMSIM" --seed $seed --out "$dir/r" "$dir/switch.lua" -D level=$level > "$dir/parts"
		test "$(grep -c '^part=' "$dir/parts")" = 4
		awk '$1 == "part=timed" { sub(/^part=timed /, ""); print }' "$dir/parts"
	done
done > "$dir/switch.out"
level_within "$dir/switch.out" 10 faulted purged

cat > "$dir/steady.lua" <<'LUA'
local p = mmsim.params{ level = "page", coast_ratio = 4 }
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 4, mem_per_node = "4G" }
local jc = require("mmsim.jemalloc_churn").start(m, { cpus = { 0, 1, 2, 3 }, decay = "2s",
  until_ns = 18e9, coast_ratio = p.coast_ratio })
m:run{ ["until"] = 15e9, timing = false, level = p.level, horizon = 4e6 }
local s = jc.stats
print(string.format("level=%s faulted=%d rss=%d objects=%d", p.level, s.faulted_pages,
  jc.process:stats().rss, s.objects))
m:run{ ["until"] = 18e9 }
s = jc.stats
print(string.format("timed level=%s purged=%d faulted=%d coasted=%d", p.level, s.purged_pages,
  s.faulted_pages, s.coasted_ns))
LUA
for seed in 1 2 3; do
	for level in object page; do
		"$MMSIM" --seed $seed --out "$dir/r" "$dir/steady.lua" -D level=$level
	done
done > "$dir/steady.out"
level_within "$dir/steady.out" 5 faulted rss
level_within "$dir/steady.out" 1 objects
awk '$1 == "timed" { split($3, p, "="); split($4, f, "="); split($5, c, "=")
	if ($2 == "level=page") { if (c[2] == 0) { print "FAIL: the page level never coasted"; exit 1 }
		printf "timed part: purged object %d, page %d (faulted %d)\n", op, p[2], f[2]
		if (p[2] > op + f[2] / 100) { print "FAIL: the timed part purged more"; exit 1 } }
	else op = p[2] }' "$dir/steady.out"
# coast_ratio = 0: the same steady churn at page level never coasts.
"$MMSIM" --seed 1 --out "$dir/r" "$dir/steady.lua" -D level=page -D coast_ratio=0 > "$dir/nocoast"
grep -q '^timed level=page .* coasted=0$' "$dir/nocoast" || {
	cat "$dir/nocoast"; echo "FAIL: coast_ratio=0 coasted"; exit 1; }
