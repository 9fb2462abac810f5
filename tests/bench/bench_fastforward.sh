#!/bin/sh
# `make bench`: aging a machine in fast-forward (m:run{timing = false}),
# scenarios/aging.lua with -D age=AGE -D duration=1ms, upstream policy:
# - its defaults (2 sockets x 16 GiB, 16 CPUs), aged 200 ms, timed as well
#   (-D age_timing=true) for the ratio;
# - 1 TiB and 128 CPUs (2 sockets x 512 GiB x 64 CPUs), aged 20 ms: the
#   issue's goal is one simulated hour in under 10 minutes and 4 GiB, which
#   this short run extrapolates to (the machine's initialisation and the
#   result files, counted in the wall time, make the estimate pessimistic).
# Wall time, CPU time (user + system: the host is shared) and peak memory
# from the run's own --host-stats and the shell's times.
set -eu
mmsim=${MMSIM:-./mmsim}
src=${MMSIM_SRCDIR:-.}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "mmsim fast-forward benchmark (scenarios/aging.lua, upstream)"

# bench NAME AGE_S [-D ...]: prints wall and CPU seconds per simulated second
bench() {
	name=$1
	age_s=$2
	shift 2
	start=$(date +%s.%N)
	cpu0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
	"$mmsim" --host-stats --out "$dir/$name" "$src/scenarios/aging.lua" -D age=${age_s}s \
		-D duration=1ms "$@" > "$dir/$name.out" 2> "$dir/$name.err" ||
		{ cat "$dir/$name.err"; exit 1; }
	end=$(date +%s.%N)
	cpu1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
	awk -v n="$name" -v a="$age_s" -v s="$start" -v e="$end" -v c=$((cpu1 - cpu0)) \
		-v hz="$(getconf CLK_TCK)" -v host="$(grep '^mmsim: wall' "$dir/$name.err" | cut -c8-)" \
		'BEGIN { w = e - s; cpu = c / hz
			printf "%-14s aged %g s: %.1f s wall, %.1f s CPU (%s); per simulated second " \
			       "%.0f s wall, %.0f s CPU; one hour: %.1f h wall, %.1f h CPU\n",
			       n, a, w, cpu, host, w / a, cpu / a, w / a, cpu / a }'
	grep '^aged' "$dir/$name.out" | sed 's/^/               /'
}

bench 16cpu-ff 0.2
bench 16cpu-timed 0.2 -D age_timing=true
bench 1tib-128cpu-ff 0.02 -D mem_per_node=512G -D cpus_per_socket=64
