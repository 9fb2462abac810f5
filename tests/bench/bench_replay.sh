#!/bin/sh
# `make bench`: trace replay (lua/mmsim/replay.lua) on the 2s-1t machine, per
# policy: the redis capture by 1 and 16 redis processes, then 16 with the
# kmem capture on 8 more CPUs (4 copies of its load); CPU time of m:run per
# simulated second (tests/bench/replay.lua), and the whole run's wall time
# and peak memory (mmsim --host-stats).
set -eu
mmsim=${MMSIM:-./mmsim}
src=${MMSIM_SRCDIR:-.}
. "$src/tests/bench/need.sh"
need "$mmsim"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "mmsim replay benchmark (tests/bench/replay.lua)"
for policy in upstream pcp_buddy spb; do
	for args in "-D instances=1" "-D instances=16" "-D instances=16 -D kmem_cpus=8"; do
		# shellcheck disable=SC2086
		"$mmsim" --host-stats --out "$dir/out" "$src/tests/bench/replay.lua" \
			-D policy=$policy $args > "$dir/stdout" 2> "$dir/stderr"
		printf '%s | %s\n' "$(head -1 "$dir/stdout")" \
			"$(grep '^mmsim: wall' "$dir/stderr" | cut -c8-)"
	done
done
