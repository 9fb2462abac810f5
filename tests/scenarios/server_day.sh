#!/bin/sh
# Every kernel object of a small server day is accounted at the end: the
# invariant checker (--check-invariants) holds, slab caches included (in
# each, the objects in its slabs are its active objects and allocations
# minus frees), every thread's stack and every fragment block; slabinfo's
# active objects add up to the allocations minus frees; the day made
# stacks, network buffers and jobs; with night_timing=false the night runs
# in fast-forward.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd "$MMSIM_SRCDIR" && "$MMSIM" --check-invariants --out "$out/r" scenarios/server-day.lua \
	-D policy=spb -D mem_per_node=2G -D cpus_per_socket=4 -D duration=24ms) \
	> "$out/stdout" 2> "$out/stderr" || { cat "$out/stderr"; exit 1; }
grep -q "invariants hold on 1 machine" "$out/stderr"
figure() {
	csv_value "$out/r/summary.csv" "$1"
}
echo "stacks $(figure results.slab.stacks), fragment blocks $(figure results.slab.frag_blocks), jobs $(figure results.jobs), packets $(figure results.packets)"
test "$(figure results.slab.stacks)" -gt 0
test "$(figure results.slab.frag_blocks)" -gt 0
test "$(figure results.jobs)" -eq 192
test "$(figure results.packets)" -gt 1000
# slabinfo: task_struct objects alive are the stacks alive (one per thread).
tasks=$(awk '$1 == "task_struct" { print $2 }' "$out/r/slabinfo")
echo "task_struct active $tasks"
test "$tasks" -eq "$(figure results.slab.stacks)"
# -D night_timing=false: hours 0 to 8 in fast-forward (8 phases of one hour
# each, the last ending at 8 ms of the 24 ms day, or past it by less than an
# hour: a fast-forward ends once every thread has passed its end), the
# accounting still whole at the end.
(cd "$MMSIM_SRCDIR" && "$MMSIM" --check-invariants --out "$out/night" scenarios/server-day.lua \
	-D policy=spb -D mem_per_node=2G -D cpus_per_socket=4 -D duration=24ms \
	-D night_timing=false) > "$out/night.out" 2> "$out/night.err" || { cat "$out/night.err"; exit 1; }
grep -q "invariants hold on 1 machine" "$out/night.err"
test "$(grep -c '^fast_forward,' "$out/night/phases.csv")" -eq 8
awk -F, '$1 == "fast_forward" { last = $3 } END { exit !(last >= 8 && last < 9) }' \
	"$out/night/phases.csv"
