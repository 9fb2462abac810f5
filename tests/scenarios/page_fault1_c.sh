#!/bin/sh
# mmsim.page_fault1 (its tasks in C) against figures worked out by hand
# (tests/scenarios/page_fault1_cases.lua): 4 tasks on CPUs 0-3, each
# mapping 2 MiB (512 pages, one PTE table: the area is 2 MiB-aligned) 6
# times, touching and unmapping it, then exiting.
# - loops 4 x 6 = 24; faults 24 x 512 = 12288; everything returned: the
#   free and pageset pages end as they began.
# - lru_lock, per loop: the 512 faults' folios go on the CPU's lru_add
#   batch, drained each 31 folios (16 times) and the 16 left by munmap's
#   lru_add_drain; munmap frees them 31 a batch (folios_put_refs): 17 + 17.
#   24 x 34 = 816, processes or threads.
# - PTE locks (processes), per loop: one per fault, one per install of
#   the PUD, PMD and PTE tables (free_pgtables freed them at the munmap),
#   one per zap batch of 31 (17): 532; 24 x 532 = 12768.  Threads share
#   the tables: 24 x (512 + 17) = 12696 plus 3 to 72 installs.
# - pageset locks (processes): per loop 512 + 3 allocations, 17 batches
#   freed (free_unref_folios) and 3 tables freed: 535; per task also its
#   PGD allocated and freed: 4 x (2 + 6 x 535) = 12848.  Threads: 24 x
#   529 and the one PGD's 2, plus 6 to 144 for tables.
# - mmap_lock: faults take none (per-VMA locks); each mmap and munmap
#   takes it, and each exit: processes 4 x (6 x 2 + 1) = 52, threads
#   24 x 2 + 1 = 49.
# - zone->lock: only the first loop refills the pagesets (each loop's pages
#   come back to its CPU's pageset for the next): as many as with 1 loop.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() {
	"$MMSIM" --out "$dir/out" "$MMSIM_SRCDIR/tests/scenarios/page_fault1_cases.lua" "$@" \
		2> "$dir/err" || { cat "$dir/err"; exit 1; }
}
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
within() {  # within WHAT VALUE LOW HIGH
	[ "$2" -ge "$3" ] && [ "$2" -le "$4" ] || { echo "FAIL: $1 $2, not in $3-$4" >&2; exit 1; }
}
for mode in processes threads; do
	got=$(run -D mode=$mode)
	one=$(run -D mode=$mode -D loops=1)
	echo "$got"
	case $mode in
	processes) want="processes loops=24 faults=12288 failed=0 tasks_done=4 returned=0 pcp=12848 lru=816 ptl=12768"
		within "processes' mmap_lock" "$(field "$got" mmap)" 52 52 ;;
	threads) want="threads loops=24 faults=12288 failed=0 tasks_done=4 returned=0" ;;
	esac
	case $got in
	"$want "*) ;;
	*) echo "FAIL: expected $want ..." >&2; exit 1 ;;
	esac
	[ "$(field "$got" zone)" = "$(field "$one" zone)" ] ||
		{ echo "FAIL: zone->lock $(field "$got" zone) times in 6 loops, $(field "$one" zone) in 1" >&2; exit 1; }
done
within "threads' lru_lock" "$(field "$got" lru)" 816 816
within "threads' PTE locks" "$(field "$got" ptl)" 12699 12768
within "threads' pageset locks" "$(field "$got" pcp)" 12704 12842
within "threads' mmap_lock" "$(field "$got" mmap)" 49 49
echo "ok: page_fault1's figures as worked out by hand"
