#!/bin/sh
# `make bench`: aging a machine in fast-forward (m:run{timing = false}),
# scenarios/aging.lua with -D age=AGE -D duration=1ms, upstream policy:
# - its defaults (2 sockets x 16 GiB, 16 CPUs), aged 100 and 300 ms, and
#   the same timed (-D age_timing=true) for the ratio;
# - 1 TiB and 128 CPUs (2 sockets x 512 GiB x 64 CPUs) at a real machine's
#   pace (-D pace=real: rates from their sources, scenarios/aging.lua),
#   aged 1 and 3 s: the goal is one simulated hour in under 10
#   minutes and 4 GiB, which these short runs extrapolate to;
#   MMSIM_BENCH_HOUR=1 also ages it the whole hour (hours of CPU today).
# Per simulated second: the difference of the two runs' times over the
# difference of their ages, which leaves out the machine's set-up and the
# results folder.  Wall time, CPU time (the host is shared: CPU time is the
# steadier) and the longer run's peak memory, from --host-stats.
set -eu
mmsim=${MMSIM:-./mmsim}
src=${MMSIM_SRCDIR:-.}
. "$src/tests/bench/need.sh"
need "$mmsim"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "mmsim fast-forward benchmark (scenarios/aging.lua, upstream)"

# run NAME AGE_S [-D ...]: "wall_s cpu_s" of one run (its --host-stats line,
# "mmsim: wall W s, cpu C s, peak RSS R MiB")
run() {
	name=$1
	age_s=$2
	shift 2
	"$mmsim" --host-stats --out "$dir/$name" "$src/scenarios/aging.lua" -D age=${age_s}s \
		-D duration=1ms "$@" > "$dir/$name.out" 2> "$dir/$name.err" ||
		{ cat "$dir/$name.err" >&2; exit 1; }
	awk '/^mmsim: wall/ { print $3, $6 }' "$dir/$name.err"
}

# bench NAME AGE1_S AGE2_S [-D ...]
bench() {
	name=$1
	a1=$2
	a2=$3
	shift 3
	r1=$(run "$name-1" "$a1" "$@")
	r2=$(run "$name-2" "$a2" "$@")
	echo "$r1 $r2" | awk -v n="$name" -v a1="$a1" -v a2="$a2" \
		-v rss="$(sed -n 's/.*peak RSS \([0-9.]* MiB\).*/\1/p' "$dir/$name-2.err")" \
		'{ w = ($3 - $1) / (a2 - a1); c = ($4 - $2) / (a2 - a1)
		   printf "%-14s aged %g s: %.1f s wall, %.1f s CPU; %g s: %.1f s wall, %.1f s CPU, " \
			  "peak RSS %s; per simulated second %.1f s wall, %.1f s CPU; one hour: " \
			  "%.1f h wall, %.1f h CPU\n", n, a1, $1, $2, a2, $3, $4, rss, w, c, w, c }'
	grep -E '^(aged|real pace)' "$dir/$name-2.out" | sed 's/^/               /'
}

bench 16cpu-ff 0.1 0.3
bench 16cpu-timed 0.1 0.3 -D age_timing=true
bench 1tib-128cpu-real 1 3 -D mem_per_node=512G -D cpus_per_socket=64 -D pace=real
if [ "${MMSIM_BENCH_HOUR:-0}" = 1 ]; then
	echo "1tib-128cpu-real aged 3600 s: $(run hour 3600 -D mem_per_node=512G \
		-D cpus_per_socket=64 -D pace=real | awk '{ printf "%.0f s wall, %.0f s CPU", $1, $2 }'), $(
		sed -n 's/.*\(peak RSS [0-9.]* MiB\).*/\1/p' "$dir/hour.err")"
	grep -E '^(aged|real pace)' "$dir/hour.out" | sed 's/^/               /'
fi
