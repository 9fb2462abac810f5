#!/bin/sh
# `make bench`: aging a machine in fast-forward (m:run{timing = false}),
# scenarios/aging.lua with -D age=AGE -D duration=1ms, upstream policy:
# - its defaults (2 sockets x 16 GiB, 16 CPUs), aged 100 and 300 ms, and
#   the same timed (-D age_timing=true) for the ratio;
# - 1 TiB and 128 CPUs (2 sockets x 512 GiB x 64 CPUs) at a real machine's
#   pace (-D pace=real: rates from their sources, scenarios/aging.lua),
#   aged 1 and 3 s (the churn still filling its live sets), and 10 and
#   20 s (its steady state, which an hour is made of): issue 31's goal is
#   one simulated hour in at most 30 minutes of CPU and 4 GiB;
#   MMSIM_BENCH_HOUR=1 also ages it the whole hour (hours of CPU today);
# - at real pace, page level (aging.lua's default, m:run's level = "page")
#   against object level (-D age_level=object), one after the other: the
#   defaults aged 20 and 60 s, 1 TiB and 128 CPUs aged 1 and 3 s;
# - the statistical check of page level against object level
#   (tests/scenarios/page_level.sh, which make check runs) on the aged
#   machine for longer, 5 seeds at real pace: 2 x 16 GiB, 16 CPUs, 60 s,
#   and 2 x 64 GiB, 128 CPUs (8 churn leaders for 122 threads), 20 s;
#   the 1 GiB yield, the unmovable pages (page_owner: their ages) and the
#   1 GiB regions their pageblocks touch, the churn's memory and objects.
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
			  "peak RSS %s; per simulated second %.3f s wall, %.3f s CPU; one hour: " \
			  "%.2f h wall, %.2f h CPU\n", n, a1, $1, $2, a2, $3, $4, rss, w, c, w, c }'
	grep -E '^(aged|real pace)' "$dir/$name-2.out" | sed 's/^/               /'
}

bench 16cpu-ff 0.1 0.3
bench 16cpu-timed 0.1 0.3 -D age_timing=true
bench 16cpu-real-object 20 60 -D pace=real -D gb_yield_attempt=false -D age_level=object
bench 16cpu-real-page 20 60 -D pace=real -D gb_yield_attempt=false
bench 1tib-128cpu-real-object 1 3 -D mem_per_node=512G -D cpus_per_socket=64 -D pace=real \
	-D gb_yield_attempt=false -D age_level=object
bench 1tib-128cpu-real 1 3 -D mem_per_node=512G -D cpus_per_socket=64 -D pace=real \
	-D gb_yield_attempt=false
bench 1tib-128cpu-steady 10 20 -D mem_per_node=512G -D cpus_per_socket=64 -D pace=real \
	-D gb_yield_attempt=false

# check NAME AGE_S [-D ...]: the machine aged at real pace, page level
# against object level, seeds 1-5: the 1 GiB yield at the switch, the
# unmovable pageblocks and pages, their ages (page_owner) and the 1 GiB
# regions they touch, the anonymous memory (the churn's) and jemalloc's
# objects, means over seeds.
check() {
	name=$1
	age_s=$2
	shift 2
	for seed in 1 2 3 4 5; do
		for level in object page; do
			"$mmsim" --seed $seed --out "$dir/check" "$src/scenarios/aging.lua" -D pace=real \
				-D age=${age_s}s -D duration=1ms -D gb_yield_attempt=false \
				-D age_level=$level -D page_owner=true "$@" > "$dir/check.out" \
				2> "$dir/check.err" || { cat "$dir/check.err" >&2; exit 1; }
			echo "$level $(sed -n "s/^aged ${age_s}s (fast-forward): of \([0-9]*\) possible 1 GiB regions, \([0-9]*\) free, \([0-9]*\) movable-only/\1 \2 \3/p" \
				"$dir/check.out") $(awk -v a="aged ${age_s}s:" '$0 ~ "^unmovable pages " a { s["s"] = 1; s["ms"] = 1e-3
					sub(/,$/, "", $5); u = $5 " " $9 * s[substr($10, 1, length($10) - 1)] " " \
					$18 * s[substr($19, 1, length($19) - 1)] }
				/^unmovable: / { b = $5; r = $10 } /^memory at the end:/ { m = $12 }
				/^page cache .* jemalloc/ { o = $6 } END { print u, b, r, m, o }' "$dir/check.out")"
		done
	done | awk -v n="$name" -v age="$age_s" 'NF == 11 { c[$1]++; for (i = 2; i <= 11; i++) v[$1, i] += $i }
		NF != 11 { print "no yield, page_owner or memory line: " $0; bad = 1 }
		END { for (l in c) printf "%s, real pace, aged %s s, %s level, %d seeds: 1 GiB regions " \
			"%.1f possible, %.1f free, %.1f movable-only; unmovable pages %.0f in %.1f " \
			"pageblocks touching %.1f 1 GiB regions, mean age %.2f s, median %.2f s; " \
			"anonymous %.0f MiB; jemalloc objects %.0f\n", n, age, l, c[l], v[l, 2] / c[l],
			v[l, 3] / c[l], v[l, 4] / c[l], v[l, 5] / c[l], v[l, 8] / c[l], v[l, 9] / c[l],
			v[l, 6] / c[l], v[l, 7] / c[l], v[l, 10] / c[l], v[l, 11] / c[l]; exit bad }'
}

# The default machine aged 60 s, one leader for its 10 churn threads, which
# coasts from about 18 s; 2 x 64 GiB with 128 CPUs aged 20 s, 8 leaders for
# 122 threads, which coast from about 12 s (object level about 3 CPU s a
# simulated s).
check 16cpu 60
check 128cpu-128g 20 -D mem_per_node=64G -D cpus_per_socket=64
if [ "${MMSIM_BENCH_HOUR:-0}" = 1 ]; then
	echo "1tib-128cpu-real aged 3600 s: $(run hour 3600 -D mem_per_node=512G \
		-D cpus_per_socket=64 -D pace=real | awk '{ printf "%.0f s wall, %.0f s CPU", $1, $2 }'), $(
		sed -n 's/.*\(peak RSS [0-9.]* MiB\).*/\1/p' "$dir/hour.err")"
	grep -E '^(aged|real pace)' "$dir/hour.out" | sed 's/^/               /'
fi
