#!/bin/sh
# page_cache's readers in C (sim/workload_page_cache.c) against the
# figures the Lua version of the same loop gave, taken before it was
# replaced (tests/scenarios/page_cache_cases.lua; the readers draw no
# random numbers, so one seed): pages read, files, failed reads, the
# machine's file and free pages, zone->lock and lru_lock figures, the end
# time.  Re-taken when the engine's horizon (sim/engine.h) changed the
# threads' interleaving: the Lua version of 213b8b0^, run with
# MMSIM_LUADIR on the same engine, gave these same figures again.  fill
# re-taken when direct reclaim took the kernel's 32 pages a time rather
# than 32 << order (issue 28 item 4): more reads in the same time.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

. "$MMSIM_SRCDIR/tests/lib.sh"

check_cases page_cache_cases.lua 'fill pages_read=2694336 files=22 failed=0 file_pages=2029106 free_pages=26763 zone_acq=33470 zone_con=18851 lru_acq=0 time=250891101
numa pages_read=10752 files=16 failed=0 file_pages=10752 free_pages=2044070 zone_acq=14 zone_con=0 lru_acq=0 time=30261378'
echo "ok: page_cache in C gives the Lua version's figures"
