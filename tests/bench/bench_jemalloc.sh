#!/bin/sh
# `make bench`: jemalloc churn on 64 CPUs (scenarios/jemalloc-churn.lua,
# 2s-1t, upstream), time per simulated second: two runs, 10 ms and 1 s (5
# ms warm-up each), and the difference of their times over the 990 ms
# between them, which leaves out the machine's set-up and the results
# folder.  The whole second, not a short window: the arenas fragment as
# the run goes on (from 300 free runs each at 100 ms to over 1000 at
# 400 ms), and a window early in the run understated the cost 2.5 times.
# Wall and CPU time: on a shared machine wall time stretches with the
# load, CPU time much less.  The issue's goal: 1 simulated second in
# under 30 s of wall time.
set -eu
mmsim=${MMSIM:-./mmsim}
src=${MMSIM_SRCDIR:-.}
. "$src/tests/bench/need.sh"
need "$mmsim"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "mmsim jemalloc churn benchmark (scenarios/jemalloc-churn.lua, 64 CPUs)"
for ms in 10 1000; do
	"$mmsim" --host-stats --out "$dir/$ms" "$src/scenarios/jemalloc-churn.lua" -D cpus=64 \
		-D duration=${ms}ms -D warmup=5ms > "$dir/$ms.out" 2> "$dir/$ms.err"
	grep '^mmsim: wall' "$dir/$ms.err" > "$dir/$ms.host"
	printf '%s ms: %s | %s\n' "$ms" "$(cut -c8- "$dir/$ms.host")" "$(head -1 "$dir/$ms.out")"
done
# "mmsim: wall W s, cpu C s, peak RSS ..."
awk '{ w[NR] = $3; c[NR] = $6 }
	END { printf "per simulated s: wall %.1f s, cpu %.1f s\n",
		(w[2] - w[1]) / 0.99, (c[2] - c[1]) / 0.99 }' \
	"$dir/10.host" "$dir/1000.host"
