#!/bin/sh
# `make bench`: compaction's migration rate per policy on the 2s-1t machine
# (tests/bench/compaction.lua), CPU time of the m:compact call alone.
set -eu
mmsim=${MMSIM:-./mmsim}
src=${MMSIM_SRCDIR:-.}
. "$src/tests/bench/need.sh"
need "$mmsim"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "mmsim compaction benchmark (tests/bench/compaction.lua, 2s-1t, node 0)"
for policy in upstream pcp_buddy spb; do
	"$mmsim" --out "$dir/$policy" "$src/tests/bench/compaction.lua" -D policy=$policy 2> /dev/null
done
