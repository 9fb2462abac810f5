#!/bin/sh
# `make bench`: 2 MiB and 1 GiB THP faults per second of CPU time through the
# full simulated path (tests/bench/thp_faults.lua, the test machine).
set -eu
mmsim=${MMSIM:-./mmsim}
src=${MMSIM_SRCDIR:-.}
. "$src/tests/bench/need.sh"
need "$mmsim"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "mmsim THP fault benchmark (tests/bench/thp_faults.lua, test machine, 4 CPUs)"
for size in 2M 1G; do
	"$mmsim" --out "$dir/$size" "$src/tests/bench/thp_faults.lua" -D size=$size 2> /dev/null
done
