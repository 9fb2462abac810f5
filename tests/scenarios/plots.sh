#!/bin/sh
# The plots a run draws: those its scenario declares ("-- plots:"), none
# with nothing to show, without gnuplot warnings; titles name the threads
# that ran and the machine; cpu_wait.csv lists the CPUs the workload ran on; gb_yield
# follows the regions the machine has at each sample; the per-GiB memory
# map and superpageblock views; the NUMA migration plot; an unknown plot
# name stops the run before it starts, naming the known ones; plots draw
# cleanly without a locale.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# 2 threads on CPUs 1 and 3 of the 4-CPU test machine: everything drawn
# (no "-- plots:" line), the lock plot only if zone->lock was contended.
cat > "$dir/two.lua" <<'LUA'
local m = mmsim.machine{ preset = "test" }
for _, cpu in ipairs{ 1, 3 } do
	m:spawn{ cpu = cpu, fn = function()
		for _ = 1, 3000 do
			m:free(m:alloc{ order = 3 })
			mmsim.sleep("1us")
		end
	end }
end
m:run()
LUA
# No locale at all, as under cron or CI's env: gnuplot still gets UTF-8.
env -u LANG -u LANGUAGE -u LC_CTYPE LC_ALL= "$MMSIM" --out "$dir/two" "$dir/two.lua" \
	> /dev/null 2> "$dir/two.err" || { cat "$dir/two.err"; fail "two.lua"; }
# gnuplot's warnings name the script line ("x.gp" line 12: warning: ...);
# AddressSanitizer's own notes on SimGrid's stack switches are not theirs.
grep -qiE 'line [0-9]+: warning' "$dir/two.err" && { cat "$dir/two.err"; fail "gnuplot warnings"; }
test "$(cut -d, -f1 "$dir/two/cpu_wait.csv" | tr '\n' ' ')" = "cpu 1 3 " ||
	fail "cpu_wait.csv rows: $(cut -d, -f1 "$dir/two/cpu_wait.csv" | tr '\n' ' ')"
head -1 "$dir/two/timeseries.csv" | tr , '\n' | grep -qx gb_total_regions || fail "no gb_total_regions"
test -s "$dir/two/memory_map.png" || fail "no memory map"
# zone->lock contended: the lock plot; one thread alone never contends
# (and waits for no lock): neither lock plot.
contentions=$(csv_column "$dir/two/summary.csv" zone_lock.contentions)
[ "$contentions" -gt 0 ] && [ -s "$dir/two/lock_timeseries.png" ] || fail "no lock plot ($contentions)"
sed 's/ipairs{ 1, 3 }/ipairs{ 1 }/' "$dir/two.lua" > "$dir/one.lua"
"$MMSIM" --out "$dir/one" "$dir/one.lua" > /dev/null 2> "$dir/one.err" || { cat "$dir/one.err"; fail "one.lua"; }
test "$(cd "$dir/one" && ls ./*.png | tr '\n' ' ')" = "./gb_yield.png ./memory_map.png " ||
	fail "one thread's plots: $(ls "$dir/one")"

# Declared: only gb_yield; the title says 2 threads, not the 4 CPUs, and on
# its second line the machine, time-compressed as the scenario says.
{ echo "-- plots: gb_yield"; echo "mmsim.time_compressed(true)"; cat "$dir/two.lua"; } > "$dir/gb.lua"
"$MMSIM" --out "$dir/gb" -D plot_format=svg "$dir/gb.lua" > /dev/null 2> "$dir/gb.err" ||
	{ cat "$dir/gb.err"; fail "gb.lua"; }
test "$(cd "$dir/gb" && ls ./*.svg)" = "./gb_yield.svg" || fail "plots: $(ls "$dir/gb")"
grep -q '>gb: upstream, 2 threads, ' "$dir/gb/gb_yield.svg" || fail "title"
grep -q '>test: 1 socket, 1 node, 4 CPUs, 8 GiB, time-compressed<' "$dir/gb/gb_yield.svg" ||
	fail "machine in the title"

# The per-GiB views, asked for: one line per GiB of the 8 GiB machine, the
# worst class first (an unmovable page makes its GiB unmovable), and under
# spb one line per GiB with superpageblocks.
cat > "$dir/gib.lua" <<'LUA'
-- plots: memory_map_gib, spb_map
local m = mmsim.machine{ preset = "test", policy = "spb" }
local p = assert(m:alloc{ order = 9, type = "unmovable" })
mmsim.result("gib", p // 262144)
LUA
"$MMSIM" --out "$dir/gib" -D plot_format=svg "$dir/gib.lua" > /dev/null 2> "$dir/gib.err" ||
	{ cat "$dir/gib.err"; fail "gib.lua"; }
test "$(cd "$dir/gib" && ls ./*.svg | tr '\n' ' ')" = "./memory_map_gib.svg ./spb_map.svg " ||
	fail "gib plots: $(ls "$dir/gib")"
gib=$(csv_column "$dir/gib/summary.csv" results.gib)
test "$(grep -vc '^#' "$dir/gib/memmap-gib.dat")" -eq 8 || fail "memmap-gib.dat lines"
# GIB WORST free movable reclaimable unmovable mixed none: one unmovable pageblock.
awk -v g="$gib" '$1 == g { ok = $2 == 3 && $6 == 1 && $3 + $4 + $5 + $6 + $7 + $8 == 512 }
	END { exit !ok }' "$dir/gib/memmap-gib.dat" || fail "GiB $gib is not unmovable"
awk -v g="$gib" '$1 == g { ok = $2 == 2 && $3 < 512 && $4 == 512 } END { exit !ok }' \
	"$dir/gib/spbmap.dat" || fail "superpageblock $gib is not tainted"
test "$(grep -vc '^#' "$dir/gib/spbmap.dat")" -eq 8 || fail "spbmap.dat lines"
grep -q '>tainted (1)<' "$dir/gib/spb_map.svg" || fail "spb legend"

# Nothing sampled: no time plot at all.
{ echo "-- plots: gb_yield, lock_timeseries, cpu_wait"; echo 'mmsim.machine{ preset = "test" }'; } \
	> "$dir/none.lua"
"$MMSIM" --out "$dir/none" "$dir/none.lua" > /dev/null 2> "$dir/none.err" || { cat "$dir/none.err"; fail "none.lua"; }
test -z "$(cd "$dir/none" && ls ./*.png 2> /dev/null)" || fail "plots of nothing: $(ls "$dir/none")"

# NUMA migration: a 64 MiB process's thread moves to node 1 at 1 s and
# NUMA balancing pulls its pages after it: the plot is drawn, without
# gnuplot warnings (no zone->lock wait at all here); a run that ends before
# the move migrates nothing and draws none.
numa() {
	(cd "$MMSIM_SRCDIR" && "$MMSIM" --out "$dir/$1" scenarios/numa-migration.lua -D size=64M \
		-D threads=1 -D move_at="$2" -D duration=3s) > /dev/null 2> "$dir/$1.err" ||
		{ cat "$dir/$1.err"; fail "numa-migration $1"; }
	grep -qiE 'line [0-9]+: warning|gnuplot says' "$dir/$1.err" && { cat "$dir/$1.err"; fail "gnuplot warnings"; }
	return 0
}
numa numa 1s
test -s "$dir/numa/numa_migration.png" || fail "no numa_migration plot"
numa numa-none 4s
test ! -e "$dir/numa-none/numa_migration.png" || fail "numa_migration plot of nothing migrated"

# A plot the scenario names but the run cannot draw is said on stderr and in
# plots.txt with the reason (numa_migration draws NUMA balancing's moves,
# and move_pages is not one); one drawn is listed as drawn.
cat > "$dir/moved.lua" <<'LUA'
-- plots: numa_migration, memory_map
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "1G" }
local p = m:process()
local a = p:mmap("4M")
m:spawn{ cpu = 0, fn = function() p:touch(a, "4M"); p:move_pages(a, "4M", 1) end }
m:run()
LUA
"$MMSIM" --out "$dir/moved" "$dir/moved.lua" > /dev/null 2> "$dir/moved.err" ||
	{ cat "$dir/moved.err"; fail "moved.lua"; }
grep -q "plot numa_migration (named in '-- plots:') not drawn: NUMA balancing migrated no page" \
	"$dir/moved.err" || { cat "$dir/moved.err"; fail "no word of the numa_migration plot"; }
grep -qx "numa_migration: not drawn: NUMA balancing migrated no page.*" "$dir/moved/plots.txt" ||
	fail "plots.txt: $(cat "$dir/moved/plots.txt")"
grep -qx "memory_map: drawn" "$dir/moved/plots.txt" || fail "plots.txt: memory_map"
test ! -e "$dir/moved/numa_migration.png" || fail "numa_migration plot of nothing migrated"

# A mistyped name: no run, no folder, the known names listed.
printf -- '-- plots: lock_timeseries, gb_yeild\nerror("ran")\n' > "$dir/bad.lua"
if "$MMSIM" --out "$dir/bad" "$dir/bad.lua" > /dev/null 2> "$dir/bad.err"; then fail "bad.lua ran"; fi
grep -q "unknown plot 'gb_yeild' (known: lock_timeseries, cpu_wait, gb_yield," "$dir/bad.err" ||
	{ cat "$dir/bad.err"; fail "message"; }
grep -q ran "$dir/bad.err" && fail "bad.lua started"
test ! -e "$dir/bad" || fail "folder made"
exit 0
