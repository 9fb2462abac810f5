#!/bin/sh
# Processes exiting on shared CPUs (one simulation per case:
# tests/scenarios/sched_exit.lua; each process frees 256 pages to its CPU's
# lists and takes them off its node's LRU).  64 on 2 CPUs take about 32
# times as long as 2 on 2: the same exits, 32 to a CPU, in turn (measured
# 29.4, within 10%: the two CPUs of node 0 meet on its lru_lock a little
# more often when each runs one exit).  64 on 64 CPUs are not 32 times
# faster: 32 CPUs of a node then wait for each other on its lru_lock
# (about 290 holds of 0.7 us each in a row), so the 2-CPU run takes only
# 1.5 to 32 times as long (measured 2.4; tests/sim/test_engine's
# /engine/sched/oversubscribed has the lock-free case, 32.0).
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() {
	"$MMSIM" --out "$dir/r$1-$2" "$MMSIM_SRCDIR/tests/scenarios/sched_exit.lua" -D procs=$1 \
		-D on_cpus=$2 >/dev/null
	cat "$dir/r$1-$2/slowest"
}
wide=$(run 64 64)
narrow=$(run 64 2)
alone=$(run 2 2)
echo "slowest exit: 64 processes on 64 CPUs $wide ns, on 2 CPUs $narrow ns; 2 on 2 $alone ns"
awk -v a="$alone" -v n="$narrow" 'BEGIN { r = n / a; exit !(r > 28.8 && r < 35.2) }'
awk -v w="$wide" -v n="$narrow" 'BEGIN { r = n / w; exit !(r >= 1.5 && r <= 32) }'
