#!/bin/sh
# A run's results folder agrees with docs/GUIDE.md's key table and with itself
# (check_results.lua says how), for a 5 ms run and a 4.5 ms one (whose
# last row comes at the end, half an interval after the one before), and a
# 5 ms run under policy spb (its spb_walk.* figures).
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for run in 5ms,upstream 4500us,upstream 5ms,spb; do
	duration=${run%,*}
	"$MMSIM" --out "$dir/$run" "$MMSIM_SRCDIR/tests/scenarios/results_run.lua" \
		-D duration=$duration -D policy=${run#*,} 2> "$dir/err"
	"$MMSIM" --out "$dir/check-$run" "$MMSIM_SRCDIR/tests/scenarios/check_results.lua" \
		"$dir/$run" "$MMSIM_SRCDIR/docs/GUIDE.md"
done
