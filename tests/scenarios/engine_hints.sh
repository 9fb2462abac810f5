#!/bin/sh
# The engine's hints (each workload kind's declaration of what its threads
# share, the model's bulk page calls, the jemalloc churn's skip of pages an
# mmu_notifier says present) only make runs faster: engine_hints = false
# ignores them all, and the figures agree (engine_hints_run.lua, 4 CPUs):
# 1. byte-identical, where no two threads wait for a lock (8 GiB, 4 ms):
#    short_lived, kernel_noise, kernel_slab, network, page_cache, mass_exit;
#    and /proc/vmstat for page_fault1 in processes and Lua threads sharing a
#    table (their lru_lock waits differ, below).  A kind declared
#    ENGINE_SHARES_NOTHING while its threads draw from the scenario's one
#    random generator differs here (kernel_noise, kernel_slab and network
#    did, tried by hand);
# 2. the churn's skip, byte-identical at quantum 0, where neither the
#    declarations nor the bulk calls change anything (128 MiB: its pages
#    compete with its pagesets' and kswapd's): a skipped touch that would
#    have faulted shows in pgfault and in the locks' figures.  This also
#    holds the engine to quantum 0 being exact for a thread that shares
#    nothing: holding only private locks, it ran on unsettled (its PTE
#    lock's hold time and lru_lock's wait differed by 50 ns);
# 3. contended (128 MiB, zone->lock waited for in nearly every refill):
#    page_fault1 in processes and in threads, short_lived and the Lua
#    threads fault as many pages with hints as without, and zone->lock's
#    wait time is within 3% of the hints-off run's; the exact run (quantum
#    0) gives the quantum's own accuracy: faults within 1% (the Lua threads
#    loop until a time), zone->lock's wait within 10%.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
t=$MMSIM_SRCDIR/tests/scenarios/engine_hints_run.lua
run() {     # run OUT ARGS...: the runner's output into $dir/OUT
	out=$1
	shift
	"$MMSIM" --out "$dir/res" "$t" "$@" > "$dir/$out" 2> "$dir/err" ||
		{ cat "$dir/err" >&2; exit 1; }
}
same() {    # same A B WHAT: files A and B agree, but for simgrid_calls
	grep -v '^simgrid_calls' "$dir/$1" > "$dir/a" || true
	grep -v '^simgrid_calls' "$dir/$2" > "$dir/b" || true
	cmp -s "$dir/a" "$dir/b" && return
	diff "$dir/a" "$dir/b" | head -20 >&2
	echo "FAIL: $3: hints on and off differ" >&2
	exit 1
}
field() { awk -v k="$2" '$1 == k { print $2 }' "$dir/$1"; }

for wl in sl kn ks net pc me; do
	run "$wl.on" -D wl=$wl
	run "$wl.off" -D wl=$wl -D hints=false
	same "$wl.on" "$wl.off" "$wl"
	echo "ok: $wl identical ($(field "$wl.on" pgfault) faults, $(field "$wl.on" zone.acquisitions) zone->lock sections; SimGrid calls $(field "$wl.on" simgrid_calls) with hints, $(field "$wl.off" simgrid_calls) without)"
done
# What the hints are for: short_lived's faults and exits (bulk calls) run
# to the horizon, fewer SimGrid calls than at the quantum.
[ "$(field sl.on simgrid_calls)" -lt "$(field sl.off simgrid_calls)" ] ||
	{ echo "FAIL: short_lived made no fewer SimGrid calls with hints" >&2; exit 1; }
for wl in pf lua; do
	run "$wl.on" -D wl=$wl
	run "$wl.off" -D wl=$wl -D hints=false
	grep -v '\.' "$dir/$wl.on" | grep -v _ns > "$dir/$wl.von" || true
	grep -v '\.' "$dir/$wl.off" | grep -v _ns > "$dir/$wl.voff" || true
	same "$wl.von" "$wl.voff" "$wl /proc/vmstat"
	echo "ok: $wl's vmstat identical ($(field "$wl.on" pgfault) faults); lru_lock waited $(field "$wl.on" lru.wait_ns_total) ns with hints, $(field "$wl.off" lru.wait_ns_total) without"
done

run je.on -D wl=je -D mem=128M -D quantum=0 -D horizon=0
run je.off -D wl=je -D mem=128M -D quantum=0 -D horizon=0 -D hints=false
same je.on je.off "the churn's skip"
echo "ok: je identical at quantum 0 ($(field je.on pgfault) faults)"

for wl in pf pft sl lua; do
	args="-D wl=$wl -D mem=128M -D dur=5ms"
	run "$wl.c.on" $args
	run "$wl.c.off" $args -D hints=false
	run "$wl.c.exact" $args -D quantum=0 -D horizon=0
	on=$(field "$wl.c.on" zone.wait_ns_total)
	off=$(field "$wl.c.off" zone.wait_ns_total)
	exact=$(field "$wl.c.exact" zone.wait_ns_total)
	awk -v on="$on" -v off="$off" -v exact="$exact" -v wl="$wl" \
	    -v pon="$(field "$wl.c.on" pgfault)" -v poff="$(field "$wl.c.off" pgfault)" \
	    -v pexact="$(field "$wl.c.exact" pgfault)" 'BEGIN {
		if (pon != poff) { print "FAIL: " wl ": " pon " faults with hints, " poff " without"; exit 1 }
		if (pon / pexact > 1.01 || pon / pexact < 0.99) {
			print "FAIL: " wl ": " pon " faults with hints, " pexact " exact"; exit 1
		}
		if (on < 1e6) { print "FAIL: " wl ": zone->lock barely waited for (" on " ns)"; exit 1 }
		d1 = on / off - 1; d2 = on / exact - 1
		printf "%s: zone->lock wait %d ns with hints, %d without (%+.1f%%), %d exact (%+.1f%%)\n",
			wl, on, off, 100 * d1, exact, 100 * d2
		if (d1 > 0.03 || d1 < -0.03) { print "FAIL: hints on and off more than 3% apart"; exit 1 }
		if (d2 > 0.10 || d2 < -0.10) { print "FAIL: more than 10% from the exact run"; exit 1 }
	}' || exit 1
done
echo "ok: engine hints"
