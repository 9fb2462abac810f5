#!/bin/sh
# page_cache's readers in C (sim/workload_page_cache.c) against the
# figures the Lua version of the same loop gave, taken before it was
# replaced (tests/scenarios/page_cache_cases.lua; the readers draw no
# random numbers, so one seed): pages read, files, failed reads, the
# machine's file and free pages, zone->lock and lru_lock figures, the end
# time.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

expected='fill pages_read=2686272 files=22 failed=0 file_pages=2027633 free_pages=28389 zone_acq=34697 zone_con=20946 lru_acq=0 time=251471791
numa pages_read=10752 files=16 failed=0 file_pages=10752 free_pages=2044070 zone_acq=14 zone_con=0 lru_acq=0 time=30261378'

echo "$expected" | while read -r want; do
	got=$("$MMSIM" --out "$dir/out" "$MMSIM_SRCDIR/tests/scenarios/page_cache_cases.lua" \
		-D case="${want%% *}" 2> /dev/null)
	echo "$got"
	if [ "$got" != "$want" ]; then
		echo "expected: $want" >&2
		exit 1
	fi
done
echo "ok: page_cache in C gives the Lua version's figures"
