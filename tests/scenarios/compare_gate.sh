#!/bin/sh
# ./run compare --baseline (sim/gate.sh) on hand-made folders: a figure 11%
# worse fails a +10% gate and 9% passes, in both directions and absolute
# too; a sweep is gated combination by combination, every figure past its
# threshold named; with seeds the mean counts only beyond the seeds' spread;
# a missing figure or combination is an error (exit 2), never a pass.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
gate() { sh "$MMSIM_SRCDIR/sim/compare.sh" "$@" > "$dir/out" 2>&1; echo $? > "$dir/rc"; }
rc() { cat "$dir/rc"; }
run() {         # FOLDER wait_share throughput
	mkdir -p "$dir/$1"
	printf 'version,machine.title,zone_lock.wait_share,throughput\nv1,"2s: 2 sockets, 128 CPUs",%s,%s\n' \
		"$2" "$3" > "$dir/$1/summary.csv"
}
run base 0.2 1000
run worse11 0.222 1000
run worse9 0.218 1000
run slower 0.2 880

gate --baseline "$dir/base" --fail-if 'zone_lock.wait_share>+10%' "$dir/worse11"
[ "$(rc)" = 1 ] || { cat "$dir/out"; fail "11% worse passed a +10% gate"; }
grep -q '^FAIL run: zone_lock.wait_share 0.2 -> 0.222 (+11.0%' "$dir/out" || { cat "$dir/out"; fail "message"; }
gate --baseline "$dir/base" --fail-if 'zone_lock.wait_share>+10%' "$dir/worse9"
[ "$(rc)" = 0 ] || { cat "$dir/out"; fail "9% worse failed a +10% gate"; }
# Falls, and absolute thresholds.
gate --baseline "$dir/base" --fail-if 'throughput<-10%' "$dir/slower"
[ "$(rc)" = 1 ] || fail "a 12% fall passed a -10% gate"
gate --baseline "$dir/base" --fail-if 'throughput<-10%' "$dir/worse11"
[ "$(rc)" = 0 ] || fail "no fall failed"
gate --baseline "$dir/base" --fail-if 'throughput<-100' "$dir/slower"
[ "$(rc)" = 1 ] || fail "a fall of 120 passed a -100 gate"
gate --baseline "$dir/base" --fail-if 'throughput<-150' "$dir/slower"
[ "$(rc)" = 0 ] || fail "a fall of 120 failed a -150 gate"
# Every figure past its threshold is named.
run both 0.3 800
gate --baseline "$dir/base" --fail-if 'zone_lock.wait_share>+10%' --fail-if 'throughput<-10%' "$dir/both"
[ "$(rc)" = 1 ] && [ "$(grep -c '^FAIL' "$dir/out")" = 2 ] || { cat "$dir/out"; fail "both named"; }
# A missing figure is an error, not a pass.
gate --baseline "$dir/base" --fail-if 'zone_lock.wait_shar>+10%' "$dir/worse9"
[ "$(rc)" = 2 ] || fail "a mistyped figure passed"
grep -q 'no figure zone_lock.wait_shar' "$dir/out" || fail "missing figure message"
printf 'version,throughput\nv1,1000\n' > "$dir/worse9/summary.csv"
gate --baseline "$dir/base" --fail-if 'zone_lock.wait_share>+10%' "$dir/worse9"
[ "$(rc)" = 2 ] || fail "a figure the run lacks passed"
# A malformed threshold.
gate --baseline "$dir/base" --fail-if 'zone_lock.wait_share>-10%' "$dir/worse11"
[ "$(rc)" = 2 ] || fail "> with a fall accepted"

# Sweeps, combination by combination (the key columns named by DIR/jobs).
sweep() {       # FOLDER rows...
	d=$dir/$1
	shift
	mkdir -p "$d"
	printf 'cpus=8,policy=a\n' > "$d/jobs"
	printf 'cpus,policy,zone_lock.wait_share\n' > "$d/sweep.csv"
	printf '%s\n' "$@" >> "$d/sweep.csv"
}
sweep sbase 8,a,0.1 8,b,0.5 16,a,0.2 16,b,0.6
sweep sok 8,a,0.105 8,b,0.5 16,a,0.21 16,b,0.5
sweep sbad 8,a,0.105 8,b,0.5 16,a,0.23 16,b,0.7
sweep sless 8,a,0.1 8,b,0.5 16,a,0.2
gate --baseline "$dir/sbase" --fail-if 'zone_lock.wait_share>+10%' "$dir/sok"
[ "$(rc)" = 0 ] || { cat "$dir/out"; fail "sweep within the gate failed"; }
gate --baseline "$dir/sbase" --fail-if 'zone_lock.wait_share>+10%' "$dir/sbad"
[ "$(rc)" = 1 ] || { cat "$dir/out"; fail "sweep past the gate passed"; }
grep -q '^FAIL cpus=16,policy=a: zone_lock.wait_share 0.2 -> 0.23' "$dir/out" &&
	grep -q '^FAIL cpus=16,policy=b: zone_lock.wait_share 0.6 -> 0.7' "$dir/out" &&
	[ "$(grep -c '^FAIL' "$dir/out")" = 2 ] || { cat "$dir/out"; fail "sweep failures named"; }
gate --baseline "$dir/sbase" --fail-if 'zone_lock.wait_share>+10%' "$dir/sless"
[ "$(rc)" = 2 ] && grep -q 'no combination cpus=16,policy=b' "$dir/out" || { cat "$dir/out"; fail "missing combination"; }
gate --baseline "$dir/sbase" --fail-if 'zone_lock.wait_share>+10%' "$dir/worse11"
[ "$(rc)" = 2 ] || fail "a sweep against a run"

# Seeds: the mean, failing only beyond the seeds' min-max spread.
seeded() {      # FOLDER mean min max
	mkdir -p "$dir/$1"
	printf 'cpus=8,seed=1\n' > "$dir/$1/jobs"
	printf 'cpus,n,zone_lock.wait_share,zone_lock.wait_share.min,zone_lock.wait_share.max,zone_lock.wait_share.sd\n8,3,%s,%s,%s,0.01\n' \
		"$2" "$3" "$4" > "$dir/$1/sweep.csv"
}
seeded dbase 0.2 0.15 0.25
seeded dnoisy 0.24 0.18 0.3
seeded dworse 0.3 0.27 0.33
gate --baseline "$dir/dbase" --fail-if 'zone_lock.wait_share>+10%' "$dir/dnoisy"
[ "$(rc)" = 0 ] || { cat "$dir/out"; fail "a change within the seeds' spread failed"; }
gate --baseline "$dir/dbase" --fail-if 'zone_lock.wait_share>+10%' "$dir/dworse"
[ "$(rc)" = 1 ] && grep -q 'beyond the seeds' "$dir/out" || { cat "$dir/out"; fail "a change beyond the spread passed"; }
echo "gate as expected"
