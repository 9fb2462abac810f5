#!/bin/sh
# `make bench`: the aging scenario's wall time and peak memory per policy
# (default parameters: 2 sockets x 16 GiB, 16 CPUs, 300 ms simulated).
set -eu
mmsim=${MMSIM:-./mmsim}
src=${MMSIM_SRCDIR:-.}
. "$src/tests/bench/need.sh"
need "$mmsim"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "mmsim aging benchmark (scenarios/aging.lua, default parameters)"
for policy in upstream pcp_buddy spb; do
	"$mmsim" --host-stats --out "$dir/$policy" "$src/scenarios/aging.lua" \
		-D policy=$policy > "$dir/$policy.out" 2> "$dir/$policy.err"
	printf '%-9s %s | %s\n' "$policy" "$(grep '^mmsim: wall' "$dir/$policy.err" | cut -c8-)" \
		"$(head -1 "$dir/$policy.out")"
done
