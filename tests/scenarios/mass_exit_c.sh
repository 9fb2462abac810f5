#!/bin/sh
# mmsim.mass_exit (its processes in C) against figures worked out by hand
# (tests/scenarios/mass_exit_cases.lua): 6 processes of 8 MiB, two on each
# of CPUs 0-2, with a life of 1 ms and of none.
# - touched 6 x 2048 = 12288 pages; page tables 6 x 7 = 42 (each its PGD,
#   PUD, PMD and the 4 PTE tables of 8 MiB, 2 MiB-aligned); freed by the
#   exits 12288 + 42 = 12330.
# - the exits start max(life, 10 us) after the last touch (the processes
#   poll every 10 us for it).
# - each CPU's pageset before the exits holds at most 3930 pages with a
#   high of 8592 (the test reads them): its two processes' 2 x 2055 pages
#   bring it to at most 8040, under its high, so free_unref_folios keeps
#   all 12330 on the pagesets (free_pcppages_bulk never runs): none to the
#   buddy allocator and zone->lock untouched in the exit window.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for live in 1ms 0; do
	got=$("$MMSIM" --out "$dir/out" "$MMSIM_SRCDIR/tests/scenarios/mass_exit_cases.lua" \
		-D live=$live 2> "$dir/err") || { cat "$dir/err"; exit 1; }
	echo "$got"
	waited=$([ $live = 0 ] && echo 10000 || echo 1000000)
	want="processes=6 touched=12288 pgtables=42 failed=0 waited=$waited freed=12330 to_buddy=0 kept=12330 exit_zone_acq=0"
	case $got in
	"$want "*) ;;
	*) echo "FAIL: expected $want ..." >&2; exit 1 ;;
	esac
	# Each CPU's count before the exits plus its two processes' pages stays
	# under its high.
	echo "${got#"$want "}" | tr ' ' '\n' | awk -F '[:/]' '
		{ if ($2 + 2 * 2055 > $3) { print "FAIL: CPU " $1 "'"'"'s pageset " $2 "/" $3 " overflows"; bad = 1 } }
		END { exit bad }' || exit 1
done
echo "ok: mass_exit's figures as worked out by hand"
