#!/bin/sh
# `make bench`: importing a synthetic 1 TiB capture (2 nodes of 512 GiB,
# tests/snapshot/gen_capture.py: 31% anonymous, 6% file, 2% kernel pages,
# the rest free) with mmsim.machine{snapshot =}: wall and CPU time, and
# peak memory per frame, beside the same machine built empty (the time
# to build the machine alone, and the whole run with its report).
set -eu
mmsim=${MMSIM:-./mmsim}
src=${MMSIM_SRCDIR:-.}
. "$src/tests/bench/need.sh"
need "$mmsim"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 "$src/tests/snapshot/gen_capture.py" 512 2 "$dir/tib.tar.gz"
cat > "$dir/import.lua" <<'LUA'
local p = mmsim.params{ capture = "" }
local t = os.clock()
local m = p.capture ~= "" and mmsim.machine{ snapshot = p.capture } or
  mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "512G" }
print(m:info().frames, os.clock() - t)
LUA
echo "mmsim snapshot import benchmark (1 TiB synthetic capture, $(du -h "$dir/tib.tar.gz" | cut -f1))"
for what in import empty; do
	capture=$([ $what = import ] && echo "$dir/tib.tar.gz" || echo "")
	/usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$mmsim" --out "$dir/$what" "$dir/import.lua" \
		-D capture="$capture" > "$dir/out" 2> "$dir/err"
	read -r wall user sys kib < "$dir/time"
	read -r frames build < "$dir/out"
	awk -v w="$what" -v wall="$wall" -v u="$user" -v s="$sys" -v b="$build" \
		-v kib="$kib" -v f="$frames" 'BEGIN { printf "%-6s machine built in %5.1f s of CPU; the run %5.1f s wall, %5.1f s CPU (with its report and plots), peak %5d MiB (%.2f bytes per frame)\n", w, b, wall, u + s, kib / 1024, kib * 1024 / f }'
done
